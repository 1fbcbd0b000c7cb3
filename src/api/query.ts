/**
 * The one cache of server state that is not mirrored in IndexedDB (customers, users, pickers,
 * records opened for editing…): TanStack Query, so that every screen asking for the same
 * thing shares one request and one answer, answers are kept for a while, and writes
 * invalidate what they changed. Mirrored entities (vehicles, drivers, last locations) stay in
 * Dexie (src/db/), which is their source of truth on the device.
 *
 * What one user cached is never shown to the next: the cache is dropped whenever the signed-in
 * user changes (sign-out here or in another tab, a failed refresh, another account).
 */
import { onlineManager, type Query, QueryClient } from '@tanstack/react-query';
import { HTTPError, TimeoutError } from './client';
import { onSignOut, session } from './session';

/** How often a failed read is tried again: never for a refusal (4xx) or a bad answer. */
export function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof HTTPError) return error.response.status >= 500 && failures < 1;
  // ky already retried timeouts and 502/503/504 twice; a dropped connection gets two more.
  return (error instanceof TypeError || error instanceof TimeoutError) && failures < 2;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Pickers and lists are read on many screens: fresh enough for half a minute.
      staleTime: 30_000,
      gcTime: 10 * 60_000,
      retry: shouldRetry,
      // Offline, reads wait for the connection instead of failing (the mirror covers them).
      networkMode: 'online',
    },
    mutations: { retry: false },
  },
});

/**
 * Lookups for forms and pickers (customers, tracker types, SIM cards, fleets, vehicle options,
 * the support contact) and the alert history's pages are read even offline: the service worker
 * answers them from its per-user cache (sw/data.ts).
 */
export const LOOKUP_QUERY = { networkMode: 'offlineFirst' } as const;

/**
 * A read that cannot show anything yet: no answer of its own (none, or the previous key's kept
 * as a placeholder), and none on its way until the connection comes back (paused). Pickers and
 * lists then say so, instead of 'Carregando…' for ever, 'none' for a list nobody has read, or
 * another page's rows under new filters. (A failed read is not this: its error is shown.)
 */
export function isUnavailable(query: {
  data: unknown;
  fetchStatus: string;
  isPlaceholderData?: boolean;
}): boolean {
  return (
    query.fetchStatus === 'paused' && (query.data === undefined || query.isPlaceholderData === true)
  );
}

const isLookup = (query: Query) => query.options.networkMode === LOOKUP_QUERY.networkMode;

// The query cache takes the network as up until told otherwise by an `offline` event, which a
// page opened without signal never gets: reads would fail instead of waiting for it.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);

/**
 * Lookups read before the service worker controlled the page (the first visit, a sign-in
 * made while it installs) went past it, so nothing of them was kept for use without signal:
 * once it takes control they are read again, through it.
 */
export function keepLookupsOnceControlled(
  client: QueryClient,
  worker: ServiceWorkerContainer | undefined = globalThis.navigator?.serviceWorker,
): void {
  if (!worker || worker.controller) return;
  worker.addEventListener(
    'controllerchange',
    () => void client.invalidateQueries({ predicate: isLookup }),
    { once: true },
  );
}

/** Drops every cached answer (sign-out). */
export function clearQueryCache(): void {
  queryClient.clear();
}

keepLookupsOnceControlled(queryClient);

// Sign-out here forgets at once; a change of user (another tab, a failed refresh) too.
onSignOut(clearQueryCache);

let cachedFor: string | null = session.get()?.user.id ?? null;
session.subscribe(() => {
  const user = session.get()?.user.id ?? null;
  if (user === cachedFor) return;
  cachedFor = user;
  clearQueryCache();
});
