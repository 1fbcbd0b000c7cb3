/**
 * The ingest's trackers kept in memory (server/ingest/tracker-cache.ts) always answer what the
 * database holds: after every kind of batch (in order, late, repeated), after tracker edits
 * through the API and by hand, after another writer's storeFixes, and after a write that
 * failed. Each step compares the cache with a fresh read of the database.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createPipeline } from '../../server/ingest/pipeline';
import {
  type Fix,
  storeFixes,
  trackersAndLastFixes,
  trackerVersion,
} from '../../server/ingest/queries/positions';
import { createTrackerCache, type TrackerCache } from '../../server/ingest/tracker-cache';
import { rowsOf } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import type { Tracker, Vehicle } from '../../src/contract';
import { as, demoClients, everyBackend, type TestServer, useServer } from './harness';

const fix = (at: number, latitude: number, longitude = -34.9): Fix => ({
  fixTime: new Date(at),
  latitude,
  longitude,
  speed: 40,
  attributes: {},
});

describe.each(await everyBackend())('the ingest tracker cache on %s', (backend) => {
  const server = useServer(backend);
  const caches: TrackerCache[] = [];
  afterEach(() => {
    for (const cache of caches.splice(0)) cache.close();
  });

  async function setup(s: TestServer, prefix: string) {
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const ids: { identifier: string; tracker: string; vehicle: string }[] = [];
    for (const [i, plate] of ['CAC1A11', 'CAC2B22'].entries()) {
      const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
        clientId: north,
        name: `Cache ${i}`,
        plate: `${plate.slice(0, 3)}${prefix}${plate.slice(4)}`,
        type: 'truck',
      });
      const identifier = `cache-${prefix}-${i}`;
      const tracker = await admin.call<Tracker>('POST', '/registros/tracker', {
        clientId: north,
        identifier,
        provider: 'rastro',
        vehicleId: vehicle.body.id,
      });
      ids.push({ identifier, tracker: tracker.body.id, vehicle: vehicle.body.id });
    }
    const { db } = s.deps.database;
    const cache = createTrackerCache(db);
    caches.push(cache);
    const pipeline = createPipeline(
      db,
      { ingest: { ...s.config.ingest, maxJumpKmh: 100_000 } },
      createLogger('silent'),
      undefined,
      { trackerCache: cache },
    );
    const identifiers = [...ids.map((x) => x.identifier), `cache-${prefix}-unknown`];
    /** The cache answers as the database does. */
    const same = async () =>
      expect(await cache.lookup(identifiers)).toEqual(await trackersAndLastFixes(db, identifiers));
    const [a, b] = ids;
    if (!a || !b) throw new Error('setup');
    return { admin, north, a, b, db, cache, pipeline, identifiers, same };
  }

  it('follows every batch: in order, late (the odometer shifts), repeated, unknown', async () => {
    const s = server();
    const { a, b, pipeline, cache, same } = await setup(s, '1');
    const t0 = Date.now() - 3_600_000;
    await same();
    expect(cache.size()).toBe(2);

    expect(
      await pipeline.accept(a.identifier, [fix(t0, -8.05), fix(t0 + 60_000, -8.06)]),
    ).toMatchObject({
      status: 'ok',
      stored: 2,
      rejected: [],
    });
    await same();
    await pipeline.accept(b.identifier, [fix(t0, -8.1)]);
    await pipeline.accept(a.identifier, [fix(t0 + 120_000, -8.07)]);
    await same();
    // A late fix between two stored ones moves the odometer of everything after it.
    expect((await pipeline.accept(a.identifier, [fix(t0 + 90_000, -8.2)])).stored).toBe(1);
    await same();
    // A repeat stores nothing and changes nothing.
    expect(await pipeline.accept(a.identifier, [fix(t0 + 120_000, -8.07)])).toMatchObject({
      status: 'ok',
      stored: 0,
      rejected: ['duplicate'],
    });
    await same();
    expect((await pipeline.accept('cache-1-unknown', [fix(t0, -8)])).status).toBe('unknown_device');
    await same();
    // Several devices in one batch, one of them late.
    await Promise.all([
      pipeline.accept(a.identifier, [fix(t0 + 180_000, -8.08)]),
      pipeline.accept(b.identifier, [fix(t0 - 60_000, -8.12), fix(t0 + 60_000, -8.11)]),
    ]);
    await same();
  });

  it('sees tracker edits at the next batch: through the API and by hand', async () => {
    const s = server();
    const { admin, a, b, pipeline, db, same } = await setup(s, '2');
    const t0 = Date.now() - 3_600_000;
    await pipeline.accept(a.identifier, [fix(t0, -8.05)]);
    await same();
    const before = await trackerVersion(db);

    // The tracker moves to the other vehicle: the next fix is stored with it.
    expect(
      (await admin.call('PATCH', `/registros/tracker/${b.tracker}`, { vehicleId: null })).status,
    ).toBe(200);
    expect(
      (await admin.call('PATCH', `/registros/tracker/${a.tracker}`, { vehicleId: b.vehicle }))
        .status,
    ).toBe(200);
    expect(await trackerVersion(db)).toBeGreaterThan(before ?? Number.POSITIVE_INFINITY);
    await same();
    await pipeline.accept(a.identifier, [fix(t0 + 60_000, -8.06)]);
    const stored = rowsOf<{ vehicle_id: string }>(
      await db.execute(
        sql`select vehicle_id from positions where tracker_id = ${a.tracker} order by fix_time`,
      ),
    );
    expect(stored.map((r) => r.vehicle_id)).toEqual([a.vehicle, b.vehicle]);
    await same();

    // Turned off by hand in SQL: unknown at once.
    await db.execute(sql`update trackers set active = false where id = ${a.tracker}`);
    expect((await pipeline.accept(a.identifier, [fix(t0 + 120_000, -8.07)])).status).toBe(
      'unknown_device',
    );
    await same();
    await db.execute(sql`update trackers set active = true where id = ${a.tracker}`);
    expect((await pipeline.accept(a.identifier, [fix(t0 + 120_000, -8.07)])).stored).toBe(1);
    await same();

    // Canceled through the API: unknown.
    expect((await admin.call('DELETE', `/registros/tracker/${a.tracker}`)).status).toBe(200);
    expect((await pipeline.accept(a.identifier, [fix(t0 + 180_000, -8.08)])).status).toBe(
      'unknown_device',
    );
    await same();

    // Its identifier registered again for another customer: the next fix is that customer's.
    const { south } = await demoClients(s);
    const again = await admin.call<Tracker>('POST', '/registros/tracker', {
      clientId: south,
      identifier: a.identifier,
      provider: 'rastro',
    });
    expect(again.status).toBe(201);
    expect((await pipeline.accept(a.identifier, [fix(t0 + 240_000, -8.09)])).stored).toBe(1);
    const owner = rowsOf<{ client_id: string }>(
      await db.execute(sql`select client_id from positions where tracker_id = ${again.body.id}`),
    );
    expect(owner.map((r) => r.client_id)).toEqual([south]);
    await same();
  });

  it('answers for the trackers it held when they are dropped while it reads others', async () => {
    const s = server();
    const { a, b, db, same, identifiers } = await setup(s, '5');
    // The real database, with a moment to act on: while the cache reads what it does not hold,
    // another batch drops everything (it found trackers changed, or its write failed).
    let onRead: (() => void) | undefined;
    const watched = new Proxy(db, {
      get(target, key, receiver) {
        if (key !== 'execute') return Reflect.get(target, key, receiver);
        return (query: Parameters<typeof db.execute>[0]) => {
          const answer = target.execute(query);
          onRead?.();
          return answer;
        };
      },
    });
    const cache = createTrackerCache(watched);
    caches.push(cache);
    expect((await cache.lookup([a.identifier])).trackers.has(a.identifier)).toBe(true);
    let reads = 0;
    onRead = () => {
      reads += 1;
      // The first read is the counter; the second, the identifiers not held.
      if (reads === 2) cache.clear();
    };
    const answer = await cache.lookup([a.identifier, b.identifier, 'cache-5-unknown']);
    onRead = undefined;
    expect(reads).toBeGreaterThanOrEqual(2);
    expect([...answer.trackers.keys()].sort()).toEqual([a.identifier, b.identifier].sort());
    expect(answer).toEqual(await trackersAndLastFixes(db, identifiers));
    await same();
  });

  it("follows another writer's storeFixes, and one that found a newer last location", async () => {
    const s = server();
    const { a, pipeline, db, same } = await setup(s, '3');
    const t0 = Date.now() - 3_600_000;
    await pipeline.accept(a.identifier, [fix(t0, -8.05)]);
    await same();
    const ref = (await trackersAndLastFixes(db, [a.identifier])).trackers.get(a.identifier);
    if (!ref) throw new Error('tracker');
    // Another writer (the demo's history) stores newer fixes.
    await storeFixes(db, [{ tracker: ref, fix: fix(t0 + 60_000, -8.1) }]);
    await same();
    // A writer that read the last location before that one: its fix is stored, the last
    // location stays where the newer fix put it, and the cache reads it again.
    const stale = new Map([
      [ref.id, { ...fix(t0, -8.05), odometer: 0, vehicleId: ref.vehicleId, lastReportAt: null }],
    ]);
    await storeFixes(db, [{ tracker: ref, fix: fix(t0 + 30_000, -8.07) }], stale);
    await same();
    expect((await pipeline.accept(a.identifier, [fix(t0 + 90_000, -8.11)])).rejected).toEqual([]);
    await same();
    // A write the database refuses (a NUL in a text) rolls back: nothing is told.
    await expect(
      storeFixes(db, [
        { tracker: ref, fix: { ...fix(t0 + 120_000, -8.2), driverRfid: 'a\u0000b' } },
      ]),
    ).rejects.toThrow();
    await same();
  });

  it('stays right when a transaction rolls back (a failing engine: the fixes stored again alone)', async () => {
    const s = server();
    const { a, db, cache, same } = await setup(s, '4');
    let fail = true;
    const pipeline = createPipeline(
      db,
      s.config,
      createLogger('silent'),
      {
        async process() {
          if (fail) throw new Error('engine broke');
          return undefined;
        },
      },
      { trackerCache: cache },
    );
    const t0 = Date.now() - 3_600_000;
    expect((await pipeline.accept(a.identifier, [fix(t0, -8.05)])).stored).toBe(1);
    await same();
    fail = false;
    expect((await pipeline.accept(a.identifier, [fix(t0 + 60_000, -8.06)])).stored).toBe(1);
    await same();
  });
});
