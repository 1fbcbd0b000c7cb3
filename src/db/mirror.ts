/**
 * Keeps the IndexedDB mirror of a customer's vehicles and drivers fresh. The first sync
 * fetches everything; later ones ask only for what changed since the newest record seen
 * (`updatedSince`), which also brings removed records so the mirror drops them. Screens read
 * the mirror (useLiveQuery) and never wait for the network.
 *
 * Pages go by keyset, never by page number: the server orders changes by (updatedAt, id)
 * and each next page asks for what comes after the last row of the previous one
 * (`updatedSince` + `afterId`). Many rows may share one updatedAt (a bulk change), and rows
 * keep changing while a sync runs; a keyset neither skips nor repeats them. The first page
 * is inclusive of the watermark's millisecond (a row changed later in that same millisecond
 * is not lost), and rows the mirror already holds unchanged are not counted again.
 */
import { driversApi, type ResourceApi, vehiclesApi } from '../api/resources';
import type { Driver, Vehicle } from '../contract';
import { db, type RastroDb, signedIn } from './database';

interface Synced {
  id: string;
  updatedAt: string;
  canceledAt: string | null;
}

export const SYNC_PAGE = 1000;

/**
 * The sync state of one mirrored table for one customer. 'v2': a customer's lists include its
 * child companies since then; mirrors synced before start again from the epoch instead of
 * waiting for the children's rows to change.
 */
export const mirrorKey = (table: 'vehicles' | 'drivers', clientId: string) =>
  `${table}:v2:${clientId}`;

async function sync<T extends Synced, P>(
  database: RastroDb,
  table: 'vehicles' | 'drivers',
  api: ResourceApi<T, P>,
  items: (page: P) => T[],
  clientId: string,
): Promise<number> {
  const key = mirrorKey(table, clientId);
  const state = await database.syncState.get(key);
  const store = database[table] as unknown as {
    bulkGet(ids: string[]): Promise<(T | undefined)[]>;
    bulkPut(rows: T[]): Promise<unknown>;
    bulkDelete(ids: string[]): Promise<void>;
  };
  // The first sync asks from the epoch: everything, removed records included (and dropped).
  let cursor: { updatedSince: string; afterId?: string } = {
    updatedSince: state?.watermark ?? new Date(0).toISOString(),
  };
  let watermark = state?.watermark;
  let changed = 0;
  for (;;) {
    const rows = items(await api.list({ clientId, limit: SYNC_PAGE, ...cursor }));
    if (!signedIn()) return changed;
    await database.transaction('rw', database[table], async () => {
      const held = await store.bulkGet(rows.map((row) => row.id));
      rows.forEach((row, i) => {
        const mine = held[i];
        const same = row.canceledAt ? !mine : mine?.updatedAt === row.updatedAt;
        if (!same) changed += 1;
      });
      await store.bulkPut(rows.filter((row) => !row.canceledAt));
      await store.bulkDelete(rows.filter((row) => row.canceledAt).map((row) => row.id));
    });
    const last = rows.at(-1);
    if (last) {
      cursor = { updatedSince: last.updatedAt, afterId: last.id };
      if (!watermark || last.updatedAt > watermark) watermark = last.updatedAt;
    }
    if (rows.length < SYNC_PAGE) break;
  }
  await database.syncState.put({
    key,
    watermark: watermark ?? new Date(0).toISOString(),
    syncedAt: new Date().toISOString(),
  });
  return changed;
}

export function syncVehicles(clientId: string, database: RastroDb = db) {
  return sync<Vehicle, Awaited<ReturnType<typeof vehiclesApi.list>>>(
    database,
    'vehicles',
    vehiclesApi,
    (p) => p.vehicles,
    clientId,
  );
}

export function syncDrivers(clientId: string, database: RastroDb = db) {
  return sync<Driver, Awaited<ReturnType<typeof driversApi.list>>>(
    database,
    'drivers',
    driversApi,
    (p) => p.drivers,
    clientId,
  );
}

export { db };
