/**
 * The locations worker's logic, driven without a worker (fake-indexeddb): it shows the
 * mirror's rows first, parses a compact full read and the live stream's bytes as they come
 * (an event split across chunks too), sends the page only what changed, in slices, never lets
 * an older fix replace a newer one, and writes the mirror with its watermark once the page has
 * shown what changed and is idle.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { compactLocations } from '../../src/contract/compact-locations';
import type { LocationItem } from '../../src/contract/locations';
import {
  locationsKey,
  putNewerLocations,
  readLocations,
  replaceLocations,
  snapshotLocations,
  WRITE_CHUNK,
} from '../../src/db/location-writes';
import {
  createLocationsEngine,
  FLUSH_MS,
  type LocationsEvent,
  QUIET_MS,
  SLICE,
  SNAPSHOT_MAX_MS,
  SNAPSHOT_QUIET_MS,
  WRITE_WAIT_MS,
} from '../../src/db/locations-engine';
import { RastroDb } from '../../src/db/schema';
import { locationItem } from './location-items';

const scope = 'c1';
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds)).toISOString();

function item(n: number, seconds: number, eventId: number): LocationItem {
  return locationItem(n, {
    clientId: scope,
    latitude: -8 - n / 1000,
    fixTime: at(seconds),
    receivedAt: at(seconds + 1),
    eventId: String(eventId),
  });
}

const body = (items: LocationItem[]) =>
  new TextEncoder().encode(JSON.stringify(compactLocations(items))).buffer as ArrayBuffer;
const sse = (items: LocationItem[]) =>
  new TextEncoder().encode(
    items.map((i) => `id: ${i.eventId}\nevent: location\ndata: ${JSON.stringify(i)}\n\n`).join(''),
  );

/**
 * The engine with a fake clock. Its page is idle as soon as a message comes (it says so at
 * once), unless `busy`: then the test says when (`idle`).
 */
function harness(name: string, { busy = false } = {}) {
  const database = new RastroDb(name);
  const events: LocationsEvent[] = [];
  const timers: { run: () => void; at: number }[] = [];
  let now = 0;
  let taken = 0;
  const engine = createLocationsEngine(
    database,
    (event) => {
      events.push(event);
      if (event.type !== 'rows') return;
      taken += 1;
      if (!busy) void engine.handle({ type: 'idle', seen: taken });
    },
    (run, ms) => timers.push({ run, at: now + ms }),
    () => now,
  );
  /** The page has taken every message so far and is idle. */
  const idle = () => engine.handle({ type: 'idle', seen: taken });
  const rows = () => events.filter((e) => e.type === 'rows');
  /** Moves the clock on by `ms`, running the timers due meanwhile (and those they set). */
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const [next] = timers;
      if (!next || next.at > end) break;
      timers.shift();
      now = next.at;
      next.run();
    }
    now = end;
  };
  const flushTimers = () => advance(FLUSH_MS);
  return { database, engine, events, rows, flushTimers, advance, idle };
}

describe('locations engine', () => {
  it('opens an empty mirror, takes a full read, then merges the live stream', async () => {
    const { database, engine, events, rows, flushTimers } = harness('engine-live');
    await engine.handle({ type: 'open', scope });
    expect(rows()).toEqual([
      { type: 'rows', scope, reset: true, items: [], removed: [], last: true },
    ]);

    const all = Array.from({ length: SLICE + 10 }, (_, n) => item(n, 0, n + 1));
    await engine.handle({ type: 'full', scope, body: body(all), request: 7 });
    await engine.settled();
    const full = rows().slice(1);
    expect(full).toHaveLength(2);
    expect(full.map((e) => e.type === 'rows' && [e.items.length, e.last])).toEqual([
      [SLICE, false],
      [10, true],
    ]);
    expect(events.find((e) => e.type === 'done')).toEqual({
      type: 'done',
      request: 7,
      count: SLICE + 10,
      watermark: String(SLICE + 10),
    });
    expect(await database.lastLocations.where('scope').equals(scope).count()).toBe(SLICE + 10);
    expect((await database.syncState.get(locationsKey(scope)))?.watermark).toBe(String(SLICE + 10));

    // The same read again changes nothing the page must hear about.
    const before = rows().length;
    await engine.handle({ type: 'full', scope, body: body(all), request: 8 });
    await engine.settled();
    expect(rows()).toHaveLength(before);

    // Live: v1 moves (its event split across two chunks), v2 sends an older fix.
    await engine.handle({ type: 'stream-start', scope });
    const moved = { ...item(1, 30, 9001), latitude: -9 };
    const stale = { ...item(2, -30, 9002), latitude: 5 };
    const bytes = sse([moved, stale]);
    await engine.handle({ type: 'stream', scope, bytes: bytes.slice(0, 50) });
    await engine.handle({ type: 'stream', scope, bytes: bytes.slice(50) });
    flushTimers();
    await engine.settled();
    const live = rows().at(-1);
    expect(live?.type === 'rows' && live.items).toEqual([moved]);
    expect((await database.lastLocations.get([scope, 'v1']))?.latitude).toBe(-9);
    expect((await database.lastLocations.get([scope, 'v2']))?.latitude).toBe(
      item(2, 0, 3).latitude,
    );
    expect((await database.syncState.get(locationsKey(scope)))?.watermark).toBe('9002');
  });

  it('shows the mirror first, and a full read drops the vehicles that left', async () => {
    const { database, engine, rows } = harness('engine-offline');
    const first = harness('engine-offline');
    await first.engine.handle({ type: 'open', scope });
    await first.engine.handle({
      type: 'full',
      scope,
      body: body([item(1, 0, 1), item(2, 0, 2), item(3, 0, 3)]),
      request: 1,
    });
    await first.engine.settled();

    // A reload without signal: the rows come from IndexedDB.
    await engine.handle({ type: 'open', scope });
    const [opened] = rows();
    expect(opened?.type === 'rows' && opened.reset).toBe(true);
    expect(opened?.type === 'rows' && opened.items.map((i) => i.id).sort()).toEqual([
      'v1',
      'v2',
      'v3',
    ]);

    // Back online: v2 left the customer, v3 was renamed.
    const renamed = { ...item(3, 0, 3), name: 'Caminhão novo' };
    await engine.handle({ type: 'full', scope, body: body([item(1, 0, 1), renamed]), request: 2 });
    await engine.settled();
    const change = rows().at(-1);
    expect(change?.type === 'rows' && change.items).toEqual([renamed]);
    expect(change?.type === 'rows' && change.removed).toEqual(['v2']);
    expect(
      (await database.lastLocations.where('scope').equals(scope).primaryKeys()).map(([, id]) => id),
    ).toEqual(['v1', 'v3']);
  });

  it('reads ahead quietly at start-up, then answers the page from memory', async () => {
    const seed = harness('engine-quiet');
    await seed.engine.handle({ type: 'open', scope });
    await seed.engine.handle({
      type: 'full',
      scope,
      body: body([item(1, 0, 1), item(2, 0, 2)]),
      request: 1,
    });
    await seed.engine.settled();

    const { database, engine, rows, flushTimers } = harness('engine-quiet');
    await engine.handle({ type: 'open', scope, quiet: true });
    expect(rows()).toEqual([]);
    // Read once: what the mirror holds afterwards is not read again.
    await database.lastLocations.delete([scope, 'v2']);
    await engine.handle({ type: 'open', scope });
    const [opened] = rows();
    expect(opened?.type === 'rows' && opened.reset).toBe(true);
    expect(opened?.type === 'rows' && opened.items.map((i) => i.id)).toEqual(['v1', 'v2']);

    // Live changes are merged in memory too: opening again shows them, an older fix is not
    // written over a newer one, and the watermark moves by every event received.
    await engine.handle({ type: 'stream-start', scope });
    const moved = { ...item(1, 30, 10), latitude: -9 };
    await engine.handle({ type: 'stream', scope, bytes: sse([moved, item(2, -30, 11)]) });
    flushTimers();
    await engine.settled();
    await engine.handle({ type: 'open', scope });
    const again = rows().at(-1);
    expect(again?.type === 'rows' && again.items).toEqual([
      moved,
      expect.objectContaining(item(2, 0, 2)),
    ]);
    expect((await database.lastLocations.get([scope, 'v1']))?.latitude).toBe(-9);
    expect(await database.lastLocations.get([scope, 'v2'])).toBeUndefined();
    expect((await database.syncState.get(locationsKey(scope)))?.watermark).toBe('11');
  });

  it('answers a malformed full read with an error and keeps the mirror', async () => {
    const { engine, events } = harness('engine-bad');
    await engine.handle({ type: 'open', scope });
    await engine.handle({
      type: 'full',
      scope,
      body: new TextEncoder().encode('{"format":"compact"}').buffer as ArrayBuffer,
      request: 3,
    });
    const done = events.find((e) => e.type === 'done');
    expect(done?.type === 'done' && done.error).toBeTruthy();
  });
});

describe('when the mirror is written', () => {
  /** Whether `promise` has settled after a few turns of the event loop (IndexedDB's too). */
  async function settledSoon(promise: Promise<unknown>) {
    let done = false;
    void promise.then(() => {
      done = true;
    });
    for (let turn = 0; turn < 20; turn += 1) await new Promise((r) => setTimeout(r, 0));
    return done;
  }
  const stored = (database: RastroDb) =>
    database.lastLocations.where('scope').equals(scope).count();

  it('writes a full read once the page has shown it and is idle, not before', async () => {
    const { database, engine, events, idle } = harness('write-idle', { busy: true });
    await engine.handle({ type: 'open', scope });
    await idle();
    const all = [item(1, 0, 1), item(2, 0, 2), item(3, 0, 5)];
    await engine.handle({ type: 'full', scope, body: body(all), request: 1 });
    // The page hears of it at once, with the event the stream resumes from…
    expect(events.at(-1)).toEqual({ type: 'done', request: 1, count: 3, watermark: '5' });
    // …and the mirror waits for the page to be idle after showing it.
    expect(await settledSoon(engine.settled())).toBe(false);
    expect(await stored(database)).toBe(0);
    await idle();
    await engine.settled();
    expect(await stored(database)).toBe(3);
    expect((await database.syncState.get(locationsKey(scope)))?.watermark).toBe('5');
  });

  it('writes at the latest WRITE_WAIT_MS later when the page never says', async () => {
    const { database, engine, advance } = harness('write-late', { busy: true });
    await engine.handle({ type: 'open', scope });
    await engine.handle({ type: 'full', scope, body: body([item(1, 0, 1)]), request: 1 });
    advance(WRITE_WAIT_MS - 1);
    expect(await settledSoon(engine.settled())).toBe(false);
    advance(1);
    await engine.settled();
    expect(await stored(database)).toBe(1);
  });

  it('writes what waits at once when another customer is opened, then reads that one', async () => {
    const { database, engine, rows } = harness('write-switch', { busy: true });
    await engine.handle({ type: 'open', scope });
    await engine.handle({ type: 'full', scope, body: body([item(1, 0, 1)]), request: 1 });
    // A second write queued behind the first: it does not wait for the page either.
    await engine.handle({ type: 'stream-start', scope });
    await engine.handle({ type: 'stream', scope, bytes: sse([item(2, 10, 2)]) });
    await engine.handle({ type: 'stream-end', scope });
    await engine.handle({ type: 'open', scope: 'c2' });
    expect(await stored(database)).toBe(2);
    const opened = rows().at(-1);
    expect(opened?.type === 'rows' && [opened.scope, opened.reset, opened.items]).toEqual([
      'c2',
      true,
      [],
    ]);
  });
});

describe('when live changes reach the page', () => {
  async function live(name: string) {
    const h = harness(name);
    await h.engine.handle({ type: 'open', scope });
    await h.engine.handle({ type: 'stream-start', scope });
    const shown = () =>
      h.rows().flatMap((e) => (e.type === 'rows' && !e.reset ? [e.items.map((i) => i.id)] : []));
    const send = (items: LocationItem[]) =>
      h.engine.handle({ type: 'stream', scope, bytes: sse(items) });
    return { ...h, shown, send };
  }

  it('shows a burst of the stream once, when the stream goes quiet', async () => {
    const { advance, shown, send } = await live('flush-burst');
    await send([item(1, 10, 1)]);
    advance(QUIET_MS / 2);
    await send([item(2, 10, 2)]);
    advance(QUIET_MS / 2);
    await send([item(3, 10, 3)]);
    advance(QUIET_MS - 1);
    expect(shown()).toEqual([]);
    advance(1);
    expect(shown()).toEqual([['v1', 'v2', 'v3']]);
  });

  it('shows a steady trickle at the latest FLUSH_MS after the first change waited', async () => {
    const { advance, shown, send } = await live('flush-trickle');
    const step = QUIET_MS / 2;
    let n = 1;
    for (let t = 0; t < FLUSH_MS; t += step) {
      await send([item(n, 10, n)]);
      n += 1;
      advance(step);
    }
    const [first] = shown();
    expect(shown()).toHaveLength(1);
    expect(first?.length).toBe(FLUSH_MS / step);
    // The rest follows once the stream is quiet.
    advance(QUIET_MS);
    expect(shown().flat()).toHaveLength(n - 1);
  });
});

describe('live writes in chunks', () => {
  it('writes a large round in chunks, a task between them, and moves the watermark with the last', async () => {
    const database = new RastroDb('chunks-whole');
    const round = Array.from({ length: WRITE_CHUNK * 2 + 5 }, (_, n) => item(n, 10, n + 1));
    const seen: { rows: number; watermark: string | undefined }[] = [];
    await putNewerLocations(database, scope, round, round, async () => {
      seen.push({
        rows: await database.lastLocations.count(),
        watermark: (await database.syncState.get(locationsKey(scope)))?.watermark,
      });
    });
    expect(seen).toEqual([
      { rows: WRITE_CHUNK, watermark: undefined },
      { rows: WRITE_CHUNK * 2, watermark: undefined },
    ]);
    expect(await database.lastLocations.count()).toBe(round.length);
    expect((await database.syncState.get(locationsKey(scope)))?.watermark).toBe(
      String(round.length),
    );
  });

  it('leaves the watermark where it was when a write is cut short', async () => {
    const database = new RastroDb('chunks-cut');
    const first = [item(0, 1, 1)];
    await putNewerLocations(database, scope, first, first);
    const round = Array.from({ length: WRITE_CHUNK + 1 }, (_, n) => item(n, 10, n + 2));
    await expect(
      putNewerLocations(database, scope, round, round, async () => {
        throw new Error('worker stopped');
      }),
    ).rejects.toThrow('worker stopped');
    // The stream resumes after event 1: every change of the round comes again.
    expect((await database.syncState.get(locationsKey(scope)))?.watermark).toBe('1');
  });
});

describe("the set's snapshot", () => {
  const ids = (items: { id: string }[]) => items.map((i) => i.id).sort();

  it('opens from the snapshot while it is the set as written, from the rows once not', async () => {
    const database = new RastroDb('snapshot-read');
    const version = await replaceLocations(database, scope, [item(1, 0, 1), item(2, 0, 2)]);
    expect(await database.locationSnapshots.get(scope)).toMatchObject({ version });
    // A row gone behind the snapshot's back: the snapshot, current, is what is read.
    await database.lastLocations.delete([scope, 'v2']);
    expect(ids(await readLocations(database, scope))).toEqual(['v1', 'v2']);

    // A live write moves the set's version: the rows are read.
    const moved = { ...item(3, 10, 3), latitude: -9 };
    const after = await putNewerLocations(database, scope, [moved], [moved]);
    expect(after).toBe(version + 1);
    expect(ids(await readLocations(database, scope))).toEqual(['v1', 'v3']);

    // A snapshot taken at the version written is current again…
    const set = [item(1, 0, 1), moved];
    expect(await snapshotLocations(database, scope, set, version + 1)).toBe(true);
    await database.lastLocations.delete([scope, 'v3']);
    expect(ids(await readLocations(database, scope))).toEqual(['v1', 'v3']);
    // …and one taken at a version another writer has moved past is not written.
    await putNewerLocations(database, scope, [item(4, 10, 4)], [item(4, 10, 4)]);
    expect(await snapshotLocations(database, scope, set, version + 1)).toBe(false);
    expect(ids(await readLocations(database, scope))).toEqual(['v1', 'v4']);
  });

  it('is taken again once live writes pause, with what they wrote', async () => {
    const { database, engine, advance } = harness('snapshot-live');
    await engine.handle({ type: 'open', scope });
    await engine.handle({
      type: 'full',
      scope,
      body: body([item(1, 0, 1), item(2, 0, 2)]),
      request: 1,
    });
    await engine.handle({ type: 'stream-start', scope });
    const moved = { ...item(1, 30, 3), latitude: -9 };
    await engine.handle({ type: 'stream', scope, bytes: sse([moved]) });
    advance(QUIET_MS);
    await engine.settled();
    const written = (await database.syncState.get(locationsKey(scope)))?.version;
    expect((await database.locationSnapshots.get(scope))?.version).toBe((written ?? 0) - 1);

    advance(SNAPSHOT_QUIET_MS);
    await engine.settled();
    const snapshot = await database.locationSnapshots.get(scope);
    expect(snapshot?.version).toBe(written);
    expect(snapshot?.items.find((i) => i.id === 'v1')?.latitude).toBe(-9);
  });

  it('is taken at the latest SNAPSHOT_MAX_MS after the first write it lacks', async () => {
    const { database, engine, advance } = harness('snapshot-steady');
    await engine.handle({ type: 'open', scope });
    await engine.handle({ type: 'full', scope, body: body([item(1, 0, 1)]), request: 1 });
    await engine.handle({ type: 'stream-start', scope });
    const first = (await database.locationSnapshots.get(scope))?.version;
    // A round of fixes every second never lets the writes pause.
    const taken: number[] = [];
    for (let second = 1; second * 1000 <= SNAPSHOT_MAX_MS + 2000; second += 1) {
      await engine.handle({ type: 'stream', scope, bytes: sse([item(1, second, second + 1)]) });
      advance(QUIET_MS);
      await engine.settled();
      advance(1000 - QUIET_MS);
      await engine.settled();
      if ((await database.locationSnapshots.get(scope))?.version !== first) taken.push(second);
    }
    // Taken once the first write it lacked (at 0.1 s) is SNAPSHOT_MAX_MS old.
    expect(taken[0]).toBe(SNAPSHOT_MAX_MS / 1000 + 1);
  });
});
