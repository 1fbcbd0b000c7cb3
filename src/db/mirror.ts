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
 * How a sync reads: rows per page, and what it waits for between pages. A sync nobody waits
 * for (the map's, in the background) reads smaller pages and lets the page draw in between,
 * so that no step of it holds the main thread long.
 */
export interface SyncPace {
  page: number;
  pause?: () => Promise<void>;
}
const AT_ONCE: SyncPace = { page: SYNC_PAGE };

/**
 * The sync state of one mirrored table for one customer. 'v2': a customer's lists include its
 * child companies since then; mirrors synced before start again from the epoch instead of
 * waiting for the children's rows to change.
 */
export const mirrorKey = (table: 'vehicles' | 'drivers', clientId: string) =>
  `${table}:v2:${clientId}`;

/**
 * Syncs under way, by database and key. A caller arriving while one runs (a list opened during
 * the map's background sync, a refresh after a write) gets one more sync queued after it, so
 * what it asks for includes everything up to its call; callers meanwhile share that one. A
 * caller that waits (no pause in its pace) speeds up the one running and the one queued.
 */
interface Under {
  running: Promise<number>;
  pace: SyncPace;
  next?: Promise<number>;
  nextPace?: SyncPace;
}
const syncs = new WeakMap<RastroDb, Map<string, Under>>();

/** The pace of whoever waits, over a background one. */
const faster = (a: SyncPace | undefined, b: SyncPace) => (a && !a.pause ? a : b);

/** One mirrored table of one customer, and how its pages are read from the server. */
interface Target<T, P> {
  database: RastroDb;
  table: 'vehicles' | 'drivers';
  api: ResourceApi<T, P>;
  items: (page: P) => T[];
  clientId: string;
}

function sync<T extends Synced, P>(target: Target<T, P>, pace: SyncPace): Promise<number> {
  // Signed out meanwhile (a sync queued behind another): nothing to ask for.
  if (!signedIn()) return Promise.resolve(0);
  const key = mirrorKey(target.table, target.clientId);
  let byKey = syncs.get(target.database);
  if (!byKey) {
    byKey = new Map();
    syncs.set(target.database, byKey);
  }
  const held = byKey;
  const under = held.get(key);
  if (under) {
    under.pace = faster(pace, under.pace);
    under.nextPace = faster(pace, under.nextPace ?? pace);
    under.next ??= under.running.catch(() => 0).then(() => sync(target, under.nextPace ?? pace));
    return under.next;
  }
  const entry: Under = { pace, running: Promise.resolve(0) };
  entry.running = syncPages(target, key, () => entry.pace).finally(() => {
    if (held.get(key) === entry) held.delete(key);
  });
  held.set(key, entry);
  return entry.running;
}

async function syncPages<T extends Synced, P>(
  { database, table, api, items, clientId }: Target<T, P>,
  key: string,
  paceOf: () => SyncPace,
): Promise<number> {
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
    // Read anew for every page: a caller that waits may have sped the sync up.
    const pace = paceOf();
    if (!signedIn()) return changed;
    const rows = items(await api.list({ clientId, limit: pace.page, ...cursor }));
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
    if (rows.length < pace.page) break;
    await paceOf().pause?.();
  }
  // Emptied at a sign-out meanwhile: a watermark without its rows would skip them for good.
  if (!signedIn()) return changed;
  await database.syncState.put({
    key,
    watermark: watermark ?? new Date(0).toISOString(),
    syncedAt: new Date().toISOString(),
  });
  return changed;
}

export function syncVehicles(clientId: string, database: RastroDb = db, pace = AT_ONCE) {
  return sync<Vehicle, Awaited<ReturnType<typeof vehiclesApi.list>>>(
    { database, table: 'vehicles', api: vehiclesApi, items: (p) => p.vehicles, clientId },
    pace,
  );
}

export function syncDrivers(clientId: string, database: RastroDb = db, pace = AT_ONCE) {
  return sync<Driver, Awaited<ReturnType<typeof driversApi.list>>>(
    { database, table: 'drivers', api: driversApi, items: (p) => p.drivers, clientId },
    pace,
  );
}

export { db };
