/**
 * The worker's data duties:
 *
 * - Lookups: the reference GETs that forms and pickers need (customers for pickers, tracker
 *   types, SIM cards, fleets, the vehicle options, CEP answers, the support contact) are
 *   kept in a cache of the signed-in user's own (`rastro-lookups:<user id>`, the token's
 *   subject), served stale-while-revalidate: the kept copy at once (forms open offline and on
 *   a weak signal without waiting), the network's answer kept for the next time. A write through this
 *   worker to one of those resources (a new fleet, then the rule form that picks it) drops
 *   its kept copies once the server has answered, so the next read is the network's and shows
 *   what was just written. Caching for one user drops every other user's lookups, and
 *   sign-out drops them all (the page deletes the caches): nothing private survives another
 *   user's sign-in on the same device.
 * - The alert history: its pages (and the top bar's count) are read network first and the
 *   answers kept in the same per-user cache (the newest `KEPT_PAGES`); when the network cannot
 *   answer, the kept copy of the same page is, marked with when it was kept (`KEPT_AT_HEADER`),
 *   so that an operator without signal still sees the alerts of their last visit, and their age.
 * - Acknowledgements made offline: a `PUT registros/alerts/ack` (or ack-all) that cannot
 *   reach the server is queued (Workbox background sync) and answered 202 `{ queued: true }`,
 *   so the history shows it as pending; it is sent when the connection returns (the sync
 *   event, or the page saying it is online again, with its current token), then the pages
 *   are told to read the alerts again.
 */
import { Queue } from 'workbox-background-sync';
import { registerRoute } from 'workbox-routing';
import { KEPT_AT_HEADER } from '../src/contract/alerts';

declare const self: ServiceWorkerGlobalScope;

export const LOOKUP_CACHE_PREFIX = 'rastro-lookups:';

const LOOKUPS = [
  /^\/registros\/client$/,
  /^\/registros\/tracker-types$/,
  /^\/registros\/simcard$/,
  /^\/registros\/vehicle$/,
  /^\/tech-integracao\/v1\/fleets$/,
  /^\/registros\/autocomplete\/cep\/\d{8}$/,
  /^\/registros\/support$/,
];

/** The user a bearer token belongs to (its `sub`), read without checking: a cache partition. */
function userOf(authorization: string | null): string | undefined {
  const payload = authorization?.replace(/^Bearer\s+/i, '').split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
      sub?: unknown;
    };
    return typeof claims.sub === 'string' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

async function lookupCache(user: string) {
  const name = `${LOOKUP_CACHE_PREFIX}${user}`;
  for (const other of await caches.keys())
    if (other.startsWith(LOOKUP_CACHE_PREFIX) && other !== name) await caches.delete(other);
  return caches.open(name);
}

registerRoute(
  ({ request, url }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    LOOKUPS.some((path) => path.test(url.pathname)),
  async ({ request, event }) => {
    const user = userOf(request.headers.get('authorization'));
    if (!user) return fetch(request);
    const cache = await lookupCache(user);
    const fresh = fetch(request.clone()).then(async (answer) => {
      if (answer.ok) await cache.put(request, answer.clone());
      return answer;
    });
    (event as ExtendableEvent).waitUntil(fresh.catch(() => undefined));
    // Stale-while-revalidate: the kept copy at once, the network's answer for next time.
    return (await cache.match(request)) ?? fresh;
  },
);

/** The alert history's reads, answered network first and kept (see the top of this file). */
const KEPT_READS = [/^\/registros\/alerts$/];
const KEPT_PAGES = 30;

/** Keeps an answer, stamped with the time, and forgets the oldest past `KEPT_PAGES` of its path. */
async function keep(cache: Cache, request: Request, answer: Response) {
  const headers = new Headers(answer.headers);
  headers.set(KEPT_AT_HEADER, new Date().toISOString());
  const stamped = new Response(await answer.blob(), {
    status: answer.status,
    statusText: answer.statusText,
    headers,
  });
  const path = new URL(request.url).pathname;
  // Put again, a page goes last: the list is oldest first.
  await cache.delete(request);
  await cache.put(request, stamped);
  const kept = (await cache.keys()).filter((k) => new URL(k.url).pathname === path);
  for (const old of kept.slice(0, Math.max(0, kept.length - KEPT_PAGES))) await cache.delete(old);
}

registerRoute(
  ({ request, url }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    KEPT_READS.some((path) => path.test(url.pathname)),
  async ({ request }) => {
    const user = userOf(request.headers.get('authorization'));
    if (!user) return fetch(request);
    const cache = await lookupCache(user);
    try {
      const answer = await fetch(request.clone());
      if (answer.ok) await keep(cache, request, answer.clone());
      return answer;
    } catch (error) {
      // No network: the kept copy of this very page, or the failure as it was.
      const kept = await cache.match(request);
      if (kept) return kept;
      throw error;
    }
  },
);

/**
 * The lookups a write changes: `/registros/simcard/{id}` (PATCH, DELETE) or `/registros/simcard`
 * (POST) → the SIM cards; a tracker's write can link or free a vehicle and a SIM card.
 */
const WRITTEN: [RegExp, string[]][] = [
  [/^\/registros\/client(\/[^/]+)?$/, ['/registros/client']],
  [/^\/registros\/tracker-types(\/[^/]+)?$/, ['/registros/tracker-types']],
  [/^\/registros\/simcard(\/[^/]+)?$/, ['/registros/simcard']],
  [/^\/registros\/vehicle(\/[^/]+(\/[a-z-]+)?)?$/, ['/registros/vehicle']],
  [/^\/registros\/tracker(\/[^/]+(\/[a-z-]+)?)?$/, ['/registros/vehicle', '/registros/simcard']],
  [/^\/tech-integracao\/v1\/fleets(\/[^/]+)?$/, ['/tech-integracao/v1/fleets']],
];

function writtenLookups(pathname: string): string[] {
  return WRITTEN.find(([pattern]) => pattern.test(pathname))?.[1] ?? [];
}

/** Drops every kept copy of these lookups (any query), in every user's cache. */
async function forget(lookups: string[]) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(LOOKUP_CACHE_PREFIX)) continue;
    const cache = await caches.open(name);
    for (const kept of await cache.keys())
      if (lookups.includes(new URL(kept.url).pathname)) await cache.delete(kept);
  }
}

for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const)
  registerRoute(
    ({ url }) => url.origin === self.location.origin && writtenLookups(url.pathname).length > 0,
    async ({ request, url }) => {
      const answer = await fetch(request);
      // After the server answered (a read racing the write cannot keep the old list).
      if (answer.ok) await forget(writtenLookups(url.pathname));
      return answer;
    },
    method,
  );

interface AckMetadata {
  user: string;
  /** The alerts acknowledged, or 'all'. */
  alertIds: string[] | 'all';
}

async function tellPages(message: object) {
  for (const window of await self.clients.matchAll({ type: 'window', includeUncontrolled: true }))
    window.postMessage(message);
}

/** Sends the queued acknowledgements in order; stops at the first that cannot go yet. */
async function replay(queue: Queue, token?: string) {
  const tokenUser = token ? userOf(`Bearer ${token}`) : undefined;
  let sent = 0;
  for (let entry = await queue.shiftRequest(); entry; entry = await queue.shiftRequest()) {
    const meta = entry.metadata as AckMetadata | undefined;
    let request = entry.request;
    if (token && meta?.user === tokenUser) {
      const headers = new Headers(request.headers);
      headers.set('authorization', `Bearer ${token}`);
      request = new Request(request, { headers });
    } else if (token && meta?.user !== tokenUser) {
      // Another user's acknowledgement: never sent with this user's token, nor kept.
      continue;
    }
    let answer: Response;
    try {
      answer = await fetch(request.clone());
    } catch (err) {
      await queue.unshiftRequest(entry);
      throw err;
    }
    if (answer.status === 401) {
      // An expired token: kept until the page hands over a fresh one.
      await queue.unshiftRequest(entry);
      break;
    }
    sent++;
  }
  if (sent) await tellPages({ type: 'RASTRO_ACKS_SENT' });
}

const ackQueue = new Queue('rastro-alert-acks', {
  maxRetentionTime: 7 * 24 * 60,
  onSync: ({ queue }) => replay(queue),
});

registerRoute(
  ({ request, url }) =>
    url.origin === self.location.origin &&
    /^\/registros\/alerts\/(ack|ack-all)$/.test(url.pathname) &&
    request.method === 'PUT',
  async ({ request }) => {
    const kept = request.clone();
    try {
      return await fetch(request);
    } catch {
      const body = new URL(kept.url).pathname.endsWith('/ack-all')
        ? null
        : ((await kept
            .clone()
            .json()
            .catch(() => null)) as { alertIds?: string[] } | null);
      await ackQueue.pushRequest({
        request: kept,
        metadata: {
          user: userOf(kept.headers.get('authorization')) ?? '',
          alertIds: body ? (body.alertIds ?? []) : 'all',
        } satisfies AckMetadata as unknown as Record<string, unknown>,
      });
      return Response.json({ count: 0, queued: true }, { status: 202 });
    }
  },
  'PUT',
);

/** The acknowledgements still waiting for the connection, for the page's 'pendente'. */
async function pending(user: string | undefined): Promise<{ alertIds: string[]; all: boolean }> {
  const entries = await ackQueue.getAll();
  const ids = new Set<string>();
  let all = false;
  for (const entry of entries) {
    const meta = entry.metadata as AckMetadata | undefined;
    // Only the asking user's own: another user's pending acknowledgements are not theirs.
    if (!user || meta?.user !== user) continue;
    if (meta?.alertIds === 'all') all = true;
    else for (const id of meta?.alertIds ?? []) ids.add(id);
  }
  return { alertIds: [...ids], all };
}

let replaying: Promise<void> | undefined;

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; accessToken?: string } | null;
  if (data?.type === 'RASTRO_PENDING_ACKS') {
    const user = data.accessToken ? userOf(`Bearer ${data.accessToken}`) : undefined;
    event.waitUntil(pending(user).then((answer) => event.ports[0]?.postMessage(answer)));
  }
  if (data?.type === 'RASTRO_REPLAY_ACKS' && !replaying) {
    // One at a time; the page asks again every few seconds while some are left.
    replaying = replay(ackQueue, data.accessToken)
      .catch(() => undefined)
      .finally(() => {
        replaying = undefined;
      });
    event.waitUntil(replaying);
  }
});
