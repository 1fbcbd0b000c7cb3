/**
 * Keeps the IndexedDB mirror of a customer's vehicles and drivers fresh. The first sync
 * fetches everything; later ones ask only for what changed since the newest record seen
 * (`updatedSince`), which also brings removed records so the mirror drops them. Screens read
 * the mirror (useLiveQuery) and never wait for the network.
 */
import { driversApi, type ResourceApi, vehiclesApi } from '../api/resources';
import type { Driver, Vehicle } from '../contract';
import { db, type RastroDb } from './database';

interface Synced {
  id: string;
  updatedAt: string;
  canceledAt: string | null;
}

const PAGE = 1000;

async function sync<T extends Synced, P>(
  database: RastroDb,
  table: 'vehicles' | 'drivers',
  api: ResourceApi<T, P>,
  items: (page: P) => T[],
  clientId: string,
): Promise<number> {
  const key = `${table}:${clientId}`;
  const state = await database.syncState.get(key);
  let watermark = state?.watermark;
  let changed = 0;
  for (let page = 1; ; page++) {
    const answer = await api.list({
      clientId,
      limit: PAGE,
      page,
      // The first sync asks from the epoch: everything, removed records included (and dropped).
      updatedSince: watermark ?? new Date(0).toISOString(),
    });
    const rows = items(answer);
    const live = rows.filter((row) => !row.canceledAt);
    const gone = rows.filter((row) => row.canceledAt).map((row) => row.id);
    await database.transaction('rw', database[table], async () => {
      await (database[table] as unknown as { bulkPut(rows: T[]): Promise<unknown> }).bulkPut(live);
      await database[table].bulkDelete(gone);
    });
    changed += rows.length;
    const newest = rows.reduce<string | undefined>(
      (max, row) => (!max || row.updatedAt > max ? row.updatedAt : max),
      undefined,
    );
    if (newest) watermark = newest;
    if (rows.length < PAGE) break;
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
