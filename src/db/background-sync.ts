/**
 * The vehicles and drivers of a customer kept on the device without their lists being
 * opened, so that a vehicle's page reached from the map opens without signal too. The map
 * starts it once it shows its vehicles; it waits a few seconds for the page to settle, skips
 * a mirror synced in the last few minutes, and reads small pages when the page is idle.
 * After the first sync only what changed travels. Quiet: a failure waits for the next chance
 * (the lists show their own errors).
 */
import { idle } from '../lib/idle';
import { db, type RastroDb } from './database';
import { mirrorKey, type SyncPace, syncDrivers, syncVehicles } from './mirror';

/** How long the background sync waits once the map shows its vehicles (the page settles). */
export const BACKGROUND_SYNC_DELAY_MS = 5000;
/** A mirror synced more recently than this is left alone by the background sync. */
export const BACKGROUND_SYNC_FRESH_MS = 5 * 60_000;

/**
 * Small pages, each read when the page is idle (or a second has passed): no step of it holds
 * the main thread long.
 */
const BACKGROUND: SyncPace = { page: 200, pause: () => idle(1000) };

export interface MirrorTables {
  vehicles: boolean;
  drivers: boolean;
}

/** Online and shown, as far as the runtime can tell (no `navigator` or `document`: yes). */
function worthSyncing() {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return false;
  return typeof document === 'undefined' || document.visibilityState === 'visible';
}

/**
 * Syncs the wanted mirrors that were not synced in the last `BACKGROUND_SYNC_FRESH_MS`
 * (`now` tells the time), at the background pace; stops between mirrors once `stopped()`,
 * offline or hidden. Returns the mirrors it synced.
 */
export async function syncStaleMirrors(
  clientId: string,
  tables: MirrorTables,
  stopped: () => boolean = () => false,
  database: RastroDb = db,
  now: () => number = Date.now,
): Promise<Array<keyof MirrorTables>> {
  const synced: Array<keyof MirrorTables> = [];
  for (const [table, sync] of [
    ['vehicles', syncVehicles],
    ['drivers', syncDrivers],
  ] as const) {
    if (!tables[table]) continue;
    if (stopped() || !worthSyncing()) break;
    const state = await database.syncState.get(mirrorKey(table, clientId));
    if (state && now() - Date.parse(state.syncedAt) < BACKGROUND_SYNC_FRESH_MS) continue;
    try {
      await sync(clientId, database, BACKGROUND);
      synced.push(table);
    } catch {
      // Quiet: the next chance tries again.
    }
  }
  return synced;
}

/**
 * Starts `syncStaleMirrors` `BACKGROUND_SYNC_DELAY_MS` from now, once the page is idle.
 * Returns what cancels it (a sync under way stops before its next mirror).
 */
export function startBackgroundSync(
  clientId: string,
  tables: MirrorTables,
  database: RastroDb = db,
): () => void {
  let stopped = false;
  const timer = setTimeout(
    () =>
      void idle(1000)
        .then(() => syncStaleMirrors(clientId, tables, () => stopped, database))
        .catch(() => undefined),
    BACKGROUND_SYNC_DELAY_MS,
  );
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
