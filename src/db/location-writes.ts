/**
 * How last locations are written to the mirror, for the page and for the locations worker
 * alike (no session here: callers decide whether they may still write). A full read replaces
 * a customer's set — vehicles that left it are dropped — and live changes are merged, a newer
 * fix never overwritten by an older one. Each write moves the set's watermark, the greatest
 * event id applied, in the same transaction (a large live write, in its last one): the live
 * stream resumes after it.
 *
 * Each write also moves the set's version. A snapshot of the whole set in one record
 * (schema.ts: LocationSnapshot), taken with a full read and, by the locations worker, after
 * live writes, is used to open the map while its version is the set's; otherwise the rows
 * are read one by one.
 */
import Dexie from 'dexie';
import type { LocationItem } from '../contract/locations';
import { newestEvent } from '../lib/event-id';
import type { MirroredLocation, RastroDb, SyncState } from './schema';

export const locationsKey = (scope: string) => `lastLocations:${scope}`;

const mirrored = (scope: string, items: readonly LocationItem[]): MirroredLocation[] =>
  items.map((item) => ({ ...item, scope }));

/** The sync state after a write of `scope`'s set: its watermark and next version. */
const written = (
  scope: string,
  watermark: string,
  state: SyncState | undefined,
): SyncState & { version: number } => ({
  key: locationsKey(scope),
  watermark,
  syncedAt: new Date().toISOString(),
  version: (state?.version ?? 0) + 1,
});

/**
 * Makes `items` the whole set of `scope`, its snapshot too. Resolves with the set's version.
 */
export async function replaceLocations(
  database: RastroDb,
  scope: string,
  items: readonly LocationItem[],
): Promise<number> {
  const { lastLocations, syncState, locationSnapshots } = database;
  return database.transaction('rw', lastLocations, syncState, locationSnapshots, async () => {
    const keep = new Set(items.map((item) => item.id));
    const stale = (await lastLocations.where('scope').equals(scope).primaryKeys()).filter(
      ([, id]) => !keep.has(id),
    );
    await lastLocations.bulkDelete(stale);
    await lastLocations.bulkPut(mirrored(scope, items));
    const state = written(scope, newestEvent(items), await syncState.get(locationsKey(scope)));
    await syncState.put(state);
    await locationSnapshots.put({ scope, version: state.version, items: [...items] });
    return state.version;
  });
}

/** Merges live changes into `scope`; keeps whichever fix is newer. Resolves with the version. */
export async function mergeLocations(
  database: RastroDb,
  scope: string,
  items: readonly LocationItem[],
): Promise<number | undefined> {
  if (items.length === 0) return undefined;
  return database.transaction('rw', database.lastLocations, database.syncState, async () => {
    const current = await database.lastLocations.bulkGet(
      items.map((item) => [scope, item.id] as [string, string]),
    );
    const newer = items.filter((item, i) => {
      const seen = current[i];
      return !seen || seen.fixTime <= item.fixTime;
    });
    await database.lastLocations.bulkPut(mirrored(scope, newer));
    const before = await database.syncState.get(locationsKey(scope));
    const state = written(scope, newestEvent(items, before?.watermark), before);
    await database.syncState.put(state);
    return state.version;
  });
}

/**
 * The whole set of `scope` as written: its snapshot when that is current (one record), else
 * its rows, by the primary key's range (one scan of the records, not a lookup of each record
 * from the `scope` index).
 */
export async function readLocations(database: RastroDb, scope: string): Promise<LocationItem[]> {
  const { lastLocations, syncState, locationSnapshots } = database;
  return database.transaction('r', lastLocations, syncState, locationSnapshots, async () => {
    const [state, snapshot] = await Promise.all([
      syncState.get(locationsKey(scope)),
      locationSnapshots.get(scope),
    ]);
    if (snapshot && state?.version === snapshot.version) return snapshot.items;
    return lastLocations
      .where('[scope+id]')
      .between([scope, Dexie.minKey], [scope, Dexie.maxKey])
      .toArray();
  });
}

/**
 * Takes a snapshot of `scope`'s set, `items`, known to be the set as written at `version`:
 * written only if no other writer (another tab's worker) has moved the set since. Resolves
 * with whether it was written.
 */
export async function snapshotLocations(
  database: RastroDb,
  scope: string,
  items: readonly LocationItem[],
  version: number,
): Promise<boolean> {
  const { syncState, locationSnapshots } = database;
  return database.transaction('rw', syncState, locationSnapshots, async () => {
    if ((await syncState.get(locationsKey(scope)))?.version !== version) return false;
    await locationSnapshots.put({ scope, version, items: [...items] });
    return true;
  });
}

/**
 * Rows a live write puts per transaction. Putting a row costs its thread (each value is
 * cloned where `put` is called): a round of 10,000 in one call held the locations worker for
 * most of a second, and the stream's next changes waited behind it.
 */
export const WRITE_CHUNK = 1000;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Writes live changes already known to be newer than what `scope` holds (the locations worker
 * keeps the set in memory and compares there, so nothing is read back); the watermark moves
 * by every item received (`received`), written or not. A large write goes in chunks of
 * WRITE_CHUNK with a task between them (`pause`); the watermark and the version move with the
 * last one only, so a write cut short is read again from the stream. Resolves with the version.
 */
export async function putNewerLocations(
  database: RastroDb,
  scope: string,
  newer: readonly LocationItem[],
  received: readonly LocationItem[],
  pause: () => Promise<void> = nextTask,
): Promise<number | undefined> {
  if (received.length === 0) return undefined;
  let at = 0;
  for (; newer.length - at > WRITE_CHUNK; at += WRITE_CHUNK) {
    await database.lastLocations.bulkPut(mirrored(scope, newer.slice(at, at + WRITE_CHUNK)));
    await pause();
  }
  const rest = newer.slice(at);
  return database.transaction('rw', database.lastLocations, database.syncState, async () => {
    if (rest.length) await database.lastLocations.bulkPut(mirrored(scope, rest));
    const before = await database.syncState.get(locationsKey(scope));
    const state = written(scope, newestEvent(received, before?.watermark), before);
    await database.syncState.put(state);
    return state.version;
  });
}
