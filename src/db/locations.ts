/**
 * The mirror of last locations: a full read of `lastLocation` replaces a customer's set
 * (vehicles that left it are dropped), and live changes are merged in as they come, a newer
 * fix never overwritten by an older one. The map and the list read only this mirror.
 */
import { lastLocations } from '../api/locations';
import type { LocationItem } from '../contract';
import { db, type MirroredLocation, type RastroDb } from './database';

export const locationsKey = (scope: string) => `lastLocations:${scope}`;

/** The newest receivedAt of a set: where the live stream resumes from. */
function newestReceived(items: LocationItem[], since?: string) {
  let newest = since ?? '';
  // ISO-8601 UTC strings sort as the times they are.
  for (const { receivedAt } of items) if (receivedAt > newest) newest = receivedAt;
  return newest;
}

export async function syncLastLocations(scope: string, database: RastroDb = db): Promise<number> {
  const items = await lastLocations(scope);
  await database.transaction('rw', database.lastLocations, database.syncState, async () => {
    const keep = new Set(items.map((item) => item.id));
    const stale = (await database.lastLocations.where('scope').equals(scope).primaryKeys()).filter(
      ([, id]) => !keep.has(id),
    );
    await database.lastLocations.bulkDelete(stale);
    await database.lastLocations.bulkPut(items.map((item) => ({ ...item, scope })));
    await database.syncState.put({
      key: locationsKey(scope),
      watermark: newestReceived(items) || new Date(0).toISOString(),
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
  if (items.length === 0) return;
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
      watermark: newestReceived(items, state?.watermark),
      syncedAt: new Date().toISOString(),
    });
  });
}
