/**
 * The mirror of a customer's geofences, so that the geofence page and the fleet map's layer
 * draw them at once and offline. A sync asks only for what changed since the newest change
 * seen (`updatedSince`); the answer lists every live geofence's id too, and the mirror drops
 * the ones no longer there (removed, or moved to a customer out of scope).
 */
import { changedGeofences } from '../api/geofences';
import { db, type MirroredGeofence, type RastroDb, signedIn } from './database';
import { type Mirrored, type MirrorSource, useMirror } from './useMirror';

export const geofencesKey = (scope: string) => `geofences:${scope}`;

export async function syncGeofences(scope: string, database: RastroDb = db): Promise<number> {
  const state = await database.syncState.get(geofencesKey(scope));
  const since = state?.watermark ?? new Date(0).toISOString();
  const page = await changedGeofences(scope, since);
  if (!signedIn()) return 0;
  const live = new Set(page.ids ?? []);
  await database.transaction('rw', database.geofences, database.syncState, async () => {
    const held = await database.geofences.where('scope').equals(scope).primaryKeys();
    await database.geofences.bulkDelete(held.filter(([, id]) => !live.has(id)));
    await database.geofences.bulkPut(page.items.map((item) => ({ ...item, scope })));
    let watermark = since;
    for (const item of page.items) if (item.updatedAt > watermark) watermark = item.updatedAt;
    await database.syncState.put({
      key: geofencesKey(scope),
      watermark,
      syncedAt: new Date().toISOString(),
    });
  });
  return page.items.length;
}

export type MirroredGeofences = Mirrored<MirroredGeofence>;

const geofenceSource: MirrorSource<MirroredGeofence> = {
  read: (scope) => db.geofences.where('scope').equals(scope).sortBy('name'),
  stateKey: geofencesKey,
  sync: syncGeofences,
};

/** A customer's geofences from the mirror, synced on mount, on reconnect and when visible. */
export function useMirroredGeofences(scope: string | null): MirroredGeofences {
  return useMirror(geofenceSource, scope);
}
