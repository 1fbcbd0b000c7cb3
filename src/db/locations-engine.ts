/**
 * What the locations worker does, written as a plain object so that tests drive it without a
 * worker. It holds one customer's last locations in memory and is the only writer of their
 * mirror while the map is open: it reads the mirror when the map opens, parses the full read
 * and the live stream (the page hands it their raw bytes), merges changes — a newer fix never
 * replaced by an older one — and writes them to IndexedDB, all off the page's thread. The
 * page gets only what changed, in slices small enough to never hold its thread for long.
 *
 * What the page shows does not wait for IndexedDB: changes go out as soon as they are merged
 * in memory, and are written once the page has shown them and is idle (it says so: `idle`), at
 * the latest WRITE_WAIT_MS later. A write is heavy — 10,000 rows cloned here and stored by the
 * browser's IndexedDB — and on a machine with two cores it took the CPU the page needed to draw
 * them: the first open after sign-in drew its vehicles half a second sooner with the write
 * after the drawing. The watermark (where the stream resumes) moves only with the write, so a
 * change lost to a crash before its write is read again; a full read's own watermark goes back
 * with its answer, so the stream resumes from it before it is written.
 */

import { createLocationStreamParser, readCompactLocations } from '../api/location-stream';
import type { LocationItem } from '../contract/locations';
import { newestEvent } from '../lib/event-id';
import {
  mergeLocations,
  putNewerLocations,
  readLocations,
  replaceLocations,
  snapshotLocations,
} from './location-writes';
import { createPageGate } from './page-gate';
import { createQuietTimer } from './quiet-timer';
import type { RastroDb } from './schema';

/** What the page asks of the worker. */
export type LocationsRequest =
  /**
   * Show `scope`: its rows from the mirror first (from memory when already read). `quiet`
   * only reads them into memory, ahead of the page asking (locations-boot.ts).
   */
  | { type: 'open'; scope: string; quiet?: boolean }
  /** The raw answer of a full read of `scope`; answered with 'done' once written. */
  | { type: 'full'; scope: string; body: ArrayBuffer; request: number }
  /** A new connection of the live stream starts: a fresh parser. */
  | { type: 'stream-start'; scope: string }
  /** Bytes of the live stream, as they came. */
  | { type: 'stream'; scope: string; bytes: Uint8Array }
  /** The connection ended: merge what is pending now. */
  | { type: 'stream-end'; scope: string }
  /**
   * The page has taken the first `seen` 'rows' messages and is idle: the writes of what they
   * showed go now. Handled at once, not after the messages before it.
   */
  | { type: 'idle'; seen: number };

/** What the worker tells the page. */
export type LocationsEvent =
  /**
   * Changes of `scope` (after `reset`, the whole set in slices). `last` marks the final
   * slice of a change: the page shows it then, all at once.
   */
  | {
      type: 'rows';
      scope: string;
      reset: boolean;
      items: LocationItem[];
      removed: string[];
      last: boolean;
    }
  /** The live stream sent 'ready': connected and caught up. */
  | { type: 'ready'; scope: string }
  /**
   * A full read is merged (not yet written): `watermark` is its newest event id, where the
   * live stream resumes. `error` when the answer could not be read.
   */
  | { type: 'done'; request: number; count: number; watermark?: string; error?: string };

/**
 * When live changes reach the page. Each merge costs the page a pass over every vehicle (the
 * counts, the list, the map's round), so a round of fixes — a burst of the stream's writes —
 * is merged once, whole: when the stream has been quiet for QUIET_MS; and a steady trickle at
 * the latest FLUSH_MS after the first change that waits.
 */
export const QUIET_MS = 100;
export const FLUSH_MS = 500;
/** Items per message to the page: reading a slice of 2,500 takes it a few milliseconds. */
export const SLICE = 2500;
/** The longest a write waits for the page to say it is idle (a hidden page may not soon). */
export const WRITE_WAIT_MS = 2000;
/**
 * After live writes the set's snapshot (location-writes.ts) is taken again once they pause
 * this long, or at the latest SNAPSHOT_MAX_MS after the first write it lacks: a snapshot is a
 * clone of the whole set, too much for every round of fixes.
 */
export const SNAPSHOT_QUIET_MS = 3000;
export const SNAPSHOT_MAX_MS = 30_000;

const FIELDS: (keyof LocationItem)[] = [
  'eventId',
  'fixTime',
  'receivedAt',
  'latitude',
  'longitude',
  'speed',
  'course',
  'ignition',
  'battery',
  'driver',
  'name',
  'plate',
  'vehicleType',
  'clientId',
  'trackerId',
  'type',
];
const same = (a: LocationItem, b: LocationItem) => FIELDS.every((field) => a[field] === b[field]);

export function createLocationsEngine(
  database: RastroDb,
  post: (event: LocationsEvent) => void,
  schedule: (run: () => void, ms: number) => unknown = setTimeout,
  clock: () => number = () => performance.now(),
) {
  let scope = '';
  let held = new Map<string, LocationItem>();
  let pending: LocationItem[] = [];
  /** Merges what waits once the stream is quiet or the first change has waited long enough. */
  const merging = createQuietTimer({
    quietMs: QUIET_MS,
    maxMs: FLUSH_MS,
    run: () => flush(),
    schedule,
    clock,
  });
  let parser = createLocationStreamParser({ onItem: () => {}, onReady: () => {} });

  /** Writes wait for the page to have shown what was sent before them (page-gate.ts). */
  const page = createPageGate(WRITE_WAIT_MS, schedule);

  /** Writes run one after another, in the order their changes were merged. */
  let writing: Promise<unknown> = Promise.resolve();
  /**
   * Queues a write, to run once the page has shown what was sent before it; resolves with its
   * error, if it failed.
   */
  const write = (run: () => Promise<void>): Promise<unknown> => {
    const turn = page.turn();
    const done = writing
      .then(turn)
      .then(run)
      .then(
        () => undefined,
        (error: unknown) => error ?? new Error('write failed'),
      );
    writing = done;
    return done;
  };

  function send(reset: boolean, items: LocationItem[], removed: string[] = []) {
    if (!reset && items.length === 0 && removed.length === 0) return;
    for (let at = 0; at === 0 || at < items.length; at += SLICE) {
      const last = at + SLICE >= items.length;
      page.posted();
      post({
        type: 'rows',
        scope,
        reset: reset && at === 0,
        items: items.slice(at, at + SLICE),
        removed: last ? removed : [],
        last,
      });
    }
  }

  /** The version of each set as this engine last wrote it (none after a failed write). */
  const versions = new Map<string, number>();
  /** The snapshot is taken again once live writes pause (see SNAPSHOT_QUIET_MS). */
  const snapshotting = createQuietTimer({
    quietMs: SNAPSHOT_QUIET_MS,
    maxMs: SNAPSHOT_MAX_MS,
    run: () => snapshot(),
    schedule,
    clock,
  });
  function snapshot() {
    if (!loaded) return;
    // The set now is the set once the writes queued so far are done: taken after them.
    const at = scope;
    const items = [...held.values()];
    void write(async () => {
      const version = versions.get(at);
      if (version !== undefined) await snapshotLocations(database, at, items, version);
    }).then((error) => {
      if (error) console.warn('locations: snapshot not written', error);
    });
  }

  function flush() {
    merging.clear();
    const items = pending;
    pending = [];
    const newer = items.filter((item) => {
      const seen = held.get(item.id);
      if (seen && seen.fixTime > item.fixTime) return false;
      held.set(item.id, item);
      return true;
    });
    send(false, newer);
    const at = scope;
    // `held` is the whole set as written (the worker is its only writer): only what is newer
    // than it is written, nothing read back; before the set is read, the mirror decides.
    const known = loaded;
    void write(async () => {
      versions.delete(at);
      const version = known
        ? await putNewerLocations(database, at, newer, items)
        : await mergeLocations(database, at, items);
      if (version === undefined) return;
      versions.set(at, version);
      snapshotting.wait();
      snapshotting.touch();
    }).then((error) => {
      // The watermark did not move: the stream brings these again after a reconnect.
      if (error) console.warn('locations: merge not written', error);
    });
  }

  /** Whether `held` is the whole set of `scope` (read from the mirror, then kept current). */
  let loaded = false;

  async function open(next: string, quiet = false) {
    if (next === scope && loaded) {
      // Held in memory since it was read: every change since was merged into it too.
      if (!quiet) send(true, [...held.values()]);
      return;
    }
    scope = next;
    pending = [];
    merging.clear();
    held = new Map();
    loaded = false;
    // The mirror is read as written: every write waiting for the page goes now.
    page.openAll();
    await writing;
    const rows = await readLocations(database, next);
    if (scope !== next) return;
    for (const row of rows) held.set(row.id, row);
    loaded = true;
    if (!quiet) send(true, rows);
  }

  function full(request: { scope: string; body: ArrayBuffer; request: number }) {
    let items: LocationItem[];
    try {
      items = readCompactLocations(JSON.parse(new TextDecoder().decode(request.body)));
    } catch (error) {
      post({ type: 'done', request: request.request, count: 0, error: String(error) });
      return;
    }
    if (request.scope === scope) {
      const keep = new Set<string>();
      const changed: LocationItem[] = [];
      for (const item of items) {
        keep.add(item.id);
        const seen = held.get(item.id);
        if (!seen || !same(seen, item)) changed.push(item);
        held.set(item.id, item);
      }
      const removed = [...held.keys()].filter((id) => !keep.has(id));
      for (const id of removed) held.delete(id);
      send(false, changed, removed);
    }
    post({
      type: 'done',
      request: request.request,
      count: items.length,
      watermark: newestEvent(items),
    });
    const at = request.scope;
    void write(async () => {
      versions.delete(at);
      versions.set(at, await replaceLocations(database, at, items));
    }).then((error) => {
      // The mirror keeps its last set; the stream goes on from this read's watermark.
      if (error) console.warn('locations: full read not written', error);
    });
  }

  function run(message: LocationsRequest): Promise<void> | undefined {
    switch (message.type) {
      case 'open':
        return open(message.scope, message.quiet);
      case 'full':
        full(message);
        return;
      case 'stream-start':
        parser = createLocationStreamParser({
          onItem: (item) => {
            if (message.scope !== scope) return;
            merging.wait();
            pending.push(item);
          },
          onReady: () => post({ type: 'ready', scope: message.scope }),
        });
        return;
      case 'stream':
        parser.feed(message.bytes);
        merging.touch();
        return;
      case 'stream-end':
        if (pending.length) flush();
        return;
      case 'idle':
        return;
    }
  }

  /** Messages are handled in the order they came (opening a set reads the mirror first). */
  let queue: Promise<void> = Promise.resolve();
  return {
    handle(message: LocationsRequest): Promise<void> {
      if (message.type === 'idle') {
        page.shown(message.seen);
        return queue;
      }
      queue = queue
        .then(() => run(message))
        .catch((error: unknown) => {
          console.warn('locations:', error);
        });
      return queue;
    },
    /** Resolves once every message so far is handled and every write it asked for is done. */
    settled: () => queue.then(() => writing).then(() => undefined),
  };
}
