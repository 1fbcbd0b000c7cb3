/**
 * How last locations are written to the mirror, for the page and for the locations worker
 * alike (no session here: callers decide whether they may still write). A full read replaces
 * a customer's set — vehicles that left it are dropped — and live changes are merged, a newer
 * fix never overwritten by an older one. Each write moves the set's watermark, the greatest
 * event id applied, in the same transaction (a large live write, in its last one): the live
 * stream resumes after it.
 */
import type { LocationItem } from '../contract/locations';
import { newestEvent } from '../lib/event-id';
import type { MirroredLocation, RastroDb } from './schema';

export const locationsKey = (scope: string) => `lastLocations:${scope}`;

const mirrored = (scope: string, items: readonly LocationItem[]): MirroredLocation[] =>
  items.map((item) => ({ ...item, scope }));

/** Makes `items` the whole set of `scope`. */
export async function replaceLocations(
  database: RastroDb,
  scope: string,
  items: readonly LocationItem[],
): Promise<void> {
  await database.transaction('rw', database.lastLocations, database.syncState, async () => {
    const keep = new Set(items.map((item) => item.id));
    const stale = (await database.lastLocations.where('scope').equals(scope).primaryKeys()).filter(
      ([, id]) => !keep.has(id),
    );
    await database.lastLocations.bulkDelete(stale);
    await database.lastLocations.bulkPut(mirrored(scope, items));
    await database.syncState.put({
      key: locationsKey(scope),
      watermark: newestEvent(items),
      syncedAt: new Date().toISOString(),
    });
  });
}

/** Merges live changes into `scope`; keeps whichever fix is newer. */
export async function mergeLocations(
  database: RastroDb,
  scope: string,
  items: readonly LocationItem[],
): Promise<void> {
  if (items.length === 0) return;
  await database.transaction('rw', database.lastLocations, database.syncState, async () => {
    const current = await database.lastLocations.bulkGet(
      items.map((item) => [scope, item.id] as [string, string]),
    );
    const newer = items.filter((item, i) => {
      const seen = current[i];
      return !seen || seen.fixTime <= item.fixTime;
    });
    await database.lastLocations.bulkPut(mirrored(scope, newer));
    const state = await database.syncState.get(locationsKey(scope));
    await database.syncState.put({
      key: locationsKey(scope),
      watermark: newestEvent(items, state?.watermark),
      syncedAt: new Date().toISOString(),
    });
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
 * WRITE_CHUNK with a task between them (`pause`); the watermark moves with the last one only,
 * so a write cut short is read again from the stream.
 */
export async function putNewerLocations(
  database: RastroDb,
  scope: string,
  newer: readonly LocationItem[],
  received: readonly LocationItem[],
  pause: () => Promise<void> = nextTask,
): Promise<void> {
  if (received.length === 0) return;
  let at = 0;
  for (; newer.length - at > WRITE_CHUNK; at += WRITE_CHUNK) {
    await database.lastLocations.bulkPut(mirrored(scope, newer.slice(at, at + WRITE_CHUNK)));
    await pause();
  }
  const rest = newer.slice(at);
  await database.transaction('rw', database.lastLocations, database.syncState, async () => {
    if (rest.length) await database.lastLocations.bulkPut(mirrored(scope, rest));
    const state = await database.syncState.get(locationsKey(scope));
    await database.syncState.put({
      key: locationsKey(scope),
      watermark: newestEvent(received, state?.watermark),
      syncedAt: new Date().toISOString(),
    });
  });
}
