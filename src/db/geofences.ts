/**
 * The mirror of a customer's geofences, so that the geofence page and the fleet map's layer
 * draw them at once and offline. A sync asks only for what changed since the newest change
 * seen (`updatedSince`); the answer lists every live geofence's id too, and the mirror drops
 * the ones no longer there (removed, or moved to a customer out of scope).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import { changedGeofences } from '../api/geofences';
import { db, type MirroredGeofence, type RastroDb, signedIn } from './database';

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

export interface MirroredGeofences {
  rows: MirroredGeofence[] | undefined;
  syncedAt: string | undefined;
  syncing: boolean;
  error: unknown;
  refresh: () => Promise<void>;
}

/** A customer's geofences from the mirror, synced on mount, on reconnect and when visible. */
export function useMirroredGeofences(scope: string | null): MirroredGeofences {
  // Rows and sync state from one query, with the scope they were read for: after a change of
  // customer, useLiveQuery still answers the previous query's result until the new one's comes.
  const read = useLiveQuery(async () => {
    if (!scope) return { scope, rows: [] as MirroredGeofence[], state: undefined };
    const [rows, state] = await Promise.all([
      db.geofences.where('scope').equals(scope).sortBy('name'),
      db.syncState.get(geofencesKey(scope)),
    ]);
    return { scope, rows, state };
  }, [scope]);
  const current = read?.scope === scope ? read : undefined;
  const rows = current?.rows;
  const state = current?.state;
  const [syncing, setSyncing] = useState(false);
  const [error, setError] = useState<unknown>();
  const refresh = useCallback(async () => {
    if (!scope || !navigator.onLine) return;
    setSyncing(true);
    try {
      await syncGeofences(scope);
      setError(undefined);
    } catch (err) {
      setError(err);
    } finally {
      setSyncing(false);
    }
  }, [scope]);
  useEffect(() => {
    void refresh();
    const run = () => void refresh();
    const onVisible = () => document.visibilityState === 'visible' && run();
    window.addEventListener('online', run);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('online', run);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh]);
  return { rows, syncedAt: state?.syncedAt, syncing, error, refresh };
}
