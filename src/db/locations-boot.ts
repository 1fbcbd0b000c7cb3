/**
 * Starts the locations worker (locations.worker.ts) as early as the app can when the map is
 * on its way (a reload of the map, or a sign-in, which leads to it): from the app's entry, as
 * soon as the session is known, and asks it to read the selected customer's last locations from the mirror into its memory meanwhile. The
 * map page's code is still loading then; when the page opens the same customer, the worker
 * answers from memory instead of reading IndexedDB again.
 *
 * Kept light on purpose (no Dexie, no React): it is part of the script that loads before the
 * sign-in page. locations-client.ts adopts the worker started here.
 *
 * The worker cannot see the session: it is stopped at sign-out before the mirror is emptied,
 * and never started while nobody is signed in.
 */
import { onSignOut, session } from '../api/session';
import type { LocationsRequest } from './locations-engine';

/** Where the map's selected customer of a user is kept (useSelectedClient). */
export const selectedClientKey = (userId: string) => `selectedClient:${userId}`;

/** The customer the map opens with for whoever is signed in (the same rule as the map's). */
export function selectedClient(): string | null {
  const current = session.get();
  if (!current) return null;
  const fallback = current.user.clientId ?? null;
  try {
    return localStorage.getItem(selectedClientKey(current.user.id)) ?? fallback;
  } catch {
    return fallback;
  }
}

let worker: Worker | undefined;

/** The page's one locations worker, started on first use; none while nobody is signed in. */
export function locationsWorkerInstance(): Worker | undefined {
  if (worker) return worker;
  if (session.accessToken() === null) return undefined;
  worker = new Worker(new URL('./locations.worker.ts', import.meta.url), {
    type: 'module',
    name: 'locations',
  });
  return worker;
}

/** Stops the worker (a write of it in flight is dropped with it). */
export function stopLocationsWorker(): void {
  worker?.terminate();
  worker = undefined;
}

/** A full read asked for ahead of the map: taken by the map's first read if still fresh. */
let prefetched: { scope: string; at: number; body: Promise<ArrayBuffer> } | undefined;
/** Older than this, a read asked for ahead is not used (the map reads anew). */
const PREFETCH_FRESH_MS = 10_000;

/**
 * The full read of `scope` asked for at start-up, if there is one and it is fresh; taken
 * once (useLiveLocations reads anew afterwards).
 */
export function takePrefetchedLocations(scope: string): Promise<ArrayBuffer> | undefined {
  const taken = prefetched;
  prefetched = undefined;
  if (!taken || taken.scope !== scope || Date.now() - taken.at > PREFETCH_FRESH_MS) return;
  return taken.body;
}

/** The map is the home page: opening '/' or signing in (which leads there) opens it. */
const opensMap = () => location.pathname === '/' || location.pathname === '/login';

/**
 * On the way to the map, starts the worker and has it read the selected customer's rows into
 * memory, quietly (the page, once it listens, asks for them and gets them from memory);
 * online, the full read from the server is asked for now too (the map takes its answer).
 */
export function preloadLocations(): void {
  const scope = selectedClient();
  // Other pages do not need them: their worker (if any) starts when the map opens.
  if (!scope || typeof Worker === 'undefined' || !opensMap()) return;
  const message: LocationsRequest = { type: 'open', scope, quiet: true };
  locationsWorkerInstance()?.postMessage(message);
  if (!navigator.onLine) return;
  const body = import('../api/locations').then(({ lastLocationsBody }) => lastLocationsBody(scope));
  // Failures are the map's to see (it reads again); none is left unhandled here.
  body.catch(() => {});
  prefetched = { scope, at: Date.now(), body };
}

/** Called once by the app's entry: now if signed in, and again at every sign-in. */
export function bootLocations(): void {
  let signedIn = session.get() !== null;
  if (signedIn) preloadLocations();
  session.subscribe(() => {
    const now = session.get() !== null;
    if (now && !signedIn) preloadLocations();
    signedIn = now;
  });
}

// Stopped first thing at sign-out (synchronously), before any cleaner empties the mirror.
onSignOut(() => {
  prefetched = undefined;
  stopLocationsWorker();
});
