/**
 * The one IndexedDB database of the PWA (Dexie). It mirrors what a supervisor must still see
 * without signal: vehicles, drivers, geofences and last locations, per customer, and when each mirror
 * last synced.
 * Records are stored as the API answered them (parsed by the contract first).
 */
import { onSignOut, session } from '../api/session';
import { RastroDb } from './schema';

export { type MirroredGeofence, type MirroredLocation, RastroDb, type SyncState } from './schema';

export const db = new RastroDb();

/** Empties every table (the mirror of what the signed-in user could see). */
export async function clearMirror(database: RastroDb = db): Promise<void> {
  await database.transaction('rw', database.tables, () =>
    Promise.all(database.tables.map((table) => table.clear())),
  );
}

/**
 * Writes that finish after a sign-out (a sync or a live batch still in flight) must not put
 * the previous user's data back: every writer checks this first.
 */
export function signedIn(): boolean {
  return session.accessToken() !== null;
}

const writers = new Set<() => void>();

/**
 * Registers how to stop a writer that does not run on this page's thread (the locations
 * worker cannot see the session): at sign-out it is stopped before the mirror is emptied, so
 * no write of it can land after the clearing.
 */
export function registerWriter(stop: () => void): () => void {
  writers.add(stop);
  return () => writers.delete(stop);
}

// A shared phone keeps nothing of the previous user.
onSignOut(() => {
  for (const stop of writers) stop();
  return clearMirror(db);
});
