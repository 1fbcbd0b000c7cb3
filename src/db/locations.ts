/**
 * The mirror of last locations: a full read of `lastLocation` replaces a customer's set
 * (vehicles that left it are dropped), and live changes are merged in as they come, a newer
 * fix never overwritten by an older one. The map and the list read only this mirror.
 *
 * The watermark of a set is the greatest `eventId` applied to it: the live stream resumes
 * after it (Last-Event-ID). Event ids are unique and increasing, so resuming never loses the
 * rest of a batch whose first items were applied.
 */
import { isAfter, lastLocations } from '../api/locations';
import type { LocationItem } from '../contract';
import { db, type MirroredLocation, type RastroDb, signedIn } from './database';

export const locationsKey = (scope: string) => `lastLocations:${scope}`;

/** The greatest event id of a set: where the live stream resumes from. */
function newestEvent(items: LocationItem[], since?: string): string {
  let newest = since && /^\d+$/.test(since) ? since : '0';
  for (const { eventId } of items) if (isAfter(eventId, newest)) newest = eventId;
  return newest;
}

export async function syncLastLocations(scope: string, database: RastroDb = db): Promise<number> {
  const items = await lastLocations(scope);
  if (!signedIn()) return 0;
  await database.transaction('rw', database.lastLocations, database.syncState, async () => {
    const keep = new Set(items.map((item) => item.id));
    const stale = (await database.lastLocations.where('scope').equals(scope).primaryKeys()).filter(
      ([, id]) => !keep.has(id),
    );
    await database.lastLocations.bulkDelete(stale);
    await database.lastLocations.bulkPut(items.map((item) => ({ ...item, scope })));
    await database.syncState.put({
      key: locationsKey(scope),
      watermark: newestEvent(items),
      syncedAt: new Date().toISOString(),
    });
  });
  return items.length;
}

/** Merges live changes; keeps whichever fix is newer. */
export async function applyLocations(
  scope: string,
  items: LocationItem[],
  database: RastroDb = db,
): Promise<void> {
  if (items.length === 0 || !signedIn()) return;
  await database.transaction('rw', database.lastLocations, database.syncState, async () => {
    const current = await database.lastLocations.bulkGet(
      items.map((item) => [scope, item.id] as [string, string]),
    );
    const newer: MirroredLocation[] = [];
    items.forEach((item, i) => {
      const seen = current[i];
      if (!seen || seen.fixTime <= item.fixTime) newer.push({ ...item, scope });
    });
    await database.lastLocations.bulkPut(newer);
    const state = await database.syncState.get(locationsKey(scope));
    await database.syncState.put({
      key: locationsKey(scope),
      watermark: newestEvent(items, state?.watermark),
      syncedAt: new Date().toISOString(),
    });
  });
}
