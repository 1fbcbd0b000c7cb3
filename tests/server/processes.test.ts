import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyAlerts } from '../../server/alerts/queries/alerts';
import { type Db, rowsOf } from '../../server/platform/db/client';
import { leaseOf } from '../../server/platform/db/leases';
import type { RunningServer } from '../../server/start';
import {
  createRule,
  customers,
  epoch,
  osmand,
  signIn,
  startReal,
  vehicleWithTracker,
} from './alert-fixtures';
import { openStream } from './fixtures/live-stream';
import { type SecondProcess, startSecondProcess } from './fixtures/second-process';
import { databaseFor, postgresAvailable } from './harness';

const HOME = { lat: -8.0539, lon: -34.8811 };
const TIMEOUT_JOB = 'alerts:location-timeouts';

describe.runIf(await postgresAvailable())('two server processes on one PostgreSQL', () => {
  let drop: () => Promise<void>;
  let a: RunningServer;
  let b: SecondProcess;
  // Both processes run the silence check every second (the periodic job under test).
  const periodic = { ALERT_TIMEOUT_CHECK_SECONDS: '1' };

  beforeAll(async () => {
    const database = await databaseFor('postgres');
    drop = database.drop;
    a = await startReal({ ...database.env, ...periodic });
    b = await startSecondProcess(database.env.DATABASE_URL, periodic);
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.close();
    await drop?.();
  });

  it("shows a fix sent to A's OsmAnd port on a stream open on B", async () => {
    const onA = await signIn(a.url, 'admin@rastro.demo');
    const { north } = await customers(onA);
    const v = await vehicleWithTracker(onA, north, 'PRC1A11', 'trk-fanout');
    const stream = await openStream(b.url, await signIn(b.url, 'admin@rastro.demo'));
    try {
      const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 5000);
      expect(
        await osmand(a.osmandPort ?? 0, {
          id: 'trk-fanout',
          lat: HOME.lat,
          lon: HOME.lon,
          timestamp: epoch(at),
        }),
      ).toBe(200);
      const { id, data } = await stream.next(
        (e) => e.event === 'location' && e.data.trackerId === v.trackerId,
      );
      expect(data).toMatchObject({
        id: v.vehicleId,
        plate: 'PRC1A11',
        latitude: HOME.lat,
        longitude: HOME.lon,
        fixTime: at.toISOString(),
      });
      expect(id).toBe(data.eventId);
    } finally {
      stream.close();
    }
  });

  it('keeps fanning out after the LISTEN connections are cut, with what changed meanwhile', async () => {
    const onA = await signIn(a.url, 'admin@rastro.demo');
    const { north } = await customers(onA);
    const v = await vehicleWithTracker(onA, north, 'PRC3C33', 'trk-fanout-cut');
    const stream = await openStream(b.url, await signIn(b.url, 'admin@rastro.demo'));
    try {
      // The database drops every listening connection (a restart or failover would).
      const { db } = a.deps.database;
      const cut = rowsOf<{ pid: number }>(
        await db.execute(sql`
          select pg_terminate_backend(pid) as done, pid from pg_stat_activity
           where datname = current_database() and query like 'listen %'`),
      );
      expect(cut.length).toBeGreaterThanOrEqual(2);
      const pids = cut.map((c) => c.pid);
      for (;;) {
        const left = rowsOf<{ n: number }>(
          await db.execute(
            sql`select count(*)::int as n from pg_stat_activity where pid = any(${`{${pids.join(',')}}`}::int[])`,
          ),
        );
        if (left[0]?.n === 0) break;
      }
      // A fix stored while nobody listens reaches B once it listens again.
      const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 3000);
      expect(
        await osmand(a.osmandPort ?? 0, {
          id: 'trk-fanout-cut',
          lat: HOME.lat,
          lon: HOME.lon,
          timestamp: epoch(at),
        }),
      ).toBe(200);
      const { data } = await stream.next(
        (e) => e.event === 'location' && e.data.trackerId === v.trackerId,
      );
      expect(data.fixTime).toBe(at.toISOString());
    } finally {
      stream.close();
    }
  });

  it('shows an alert raised on A on a stream open on B', async () => {
    const onA = await signIn(a.url, 'admin@rastro.demo');
    const { north } = await customers(onA);
    const v = await vehicleWithTracker(onA, north, 'PRC2B22', 'trk-fanout-alert');
    await createRule(onA, {
      clientId: north,
      name: 'Ignição ligada',
      type: 'IGNITION_ON',
      vehicleIds: [v.vehicleId],
    });
    const stream = await openStream(b.url, await signIn(b.url, 'operador@rastro.demo'));
    try {
      const t0 = Math.floor(Date.now() / 1000) * 1000 - 60_000;
      for (const [i, ignition] of [false, true].entries())
        await osmand(a.osmandPort ?? 0, {
          id: 'trk-fanout-alert',
          lat: HOME.lat,
          lon: HOME.lon,
          timestamp: epoch(new Date(t0 + i * 10_000)),
          ignition,
        });
      const { data } = await stream.next((e) => e.event === 'alert');
      expect(data).toMatchObject({
        type: 'IGNITION_ON',
        vehicleId: v.vehicleId,
        plate: 'PRC2B22',
        ruleName: 'Ignição ligada',
        fixTime: new Date(t0 + 10_000).toISOString(),
        acknowledgedAt: null,
      });
      expect(data.clientId).toBeUndefined();
    } finally {
      stream.close();
    }
  });

  it('delivers every alert of a transaction that raised more than one notice holds', async () => {
    const onA = await signIn(a.url, 'admin@rastro.demo');
    const { north } = await customers(onA);
    const v = await vehicleWithTracker(onA, north, 'PRC9Z99', 'trk-many-alerts');
    // 450 ids: three notices (200 ids each at most), sent by one statement at the commit.
    const count = 450;
    const heard = new Set<string>();
    let enough: () => void = () => {};
    const all = new Promise<void>((resolve) => {
      enough = resolve;
    });
    const stop = a.deps.live.alerts.subscribe((raised) => {
      for (const alert of raised) if (alert.vehicleId === v.vehicleId) heard.add(alert.id);
      if (heard.size >= count) enough();
    });
    try {
      const ids = await a.deps.database.db.transaction(async (tx) => {
        const made = rowsOf<{ id: string }>(
          await tx.execute(sql`
            insert into alerts (client_id, vehicle_id, type, dedupe_key)
            select ${north}::uuid, ${v.vehicleId}::uuid, 'IGNITION_ON', 'many-' || n
              from generate_series(1, ${count}) as n
            returning id`),
        ).map((row) => row.id);
        await notifyAlerts(tx as unknown as Db, made);
        return made;
      });
      await all;
      expect([...heard].sort()).toEqual([...ids].sort());
    } finally {
      stop();
    }
  }, 15_000);

  it('keeps every stream in event-id order while both processes ingest at once', async () => {
    const onA = await signIn(a.url, 'admin@rastro.demo');
    const { south } = await customers(onA);
    const count = 12;
    const trackerIds = new Map<string, string>();
    for (let i = 0; i < count; i += 1) {
      const v = await vehicleWithTracker(
        onA,
        south,
        `ORD${i % 10}${String.fromCharCode(65 + i)}00`,
        `trk-ord-${i}`,
      );
      trackerIds.set(v.trackerId, `trk-ord-${i}`);
    }
    const streams = [
      await openStream(a.url, onA),
      await openStream(b.url, await signIn(b.url, 'admin@rastro.demo')),
    ];
    try {
      const t0 = Math.floor(Date.now() / 1000) * 1000 - 120_000;
      const rounds = 8;
      const lat = (i: number, round: number) => -8 - i / 100 - round / 10_000;
      // Each tracker's fixes in order; trackers alternate between the processes per round.
      await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          for (let round = 0; round < rounds; round += 1)
            expect(
              await osmand((i + round) % 2 ? b.port : (a.osmandPort ?? 0), {
                id: `trk-ord-${i}`,
                lat: lat(i, round),
                lon: HOME.lon,
                timestamp: epoch(new Date(t0 + round * 10_000)),
              }),
            ).toBe(200);
        }),
      );
      const last = new Date(t0 + (rounds - 1) * 10_000).toISOString();
      for (const stream of streams) {
        // Every tracker's last fix arrives…
        for (const trackerId of trackerIds.keys())
          await stream.next(
            (e) =>
              e.event === 'location' && e.data.trackerId === trackerId && e.data.fixTime === last,
          );
        // …and the ids only grew on the way.
        const ids = stream.events.filter((e) => e.event === 'location').map((e) => Number(e.id));
        expect(ids.length).toBeGreaterThanOrEqual(count);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
        expect(new Set(ids).size).toBe(ids.length);
      }
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('runs a periodic job that both processes schedule every second about once a second', async () => {
    const before = await leaseOf(a.deps.database.db, TIMEOUT_JOB);
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const after = await leaseOf(a.deps.database.db, TIMEOUT_JOB);
    const seconds = (performance.now() - t0) / 1000;
    const runs = (after?.runs ?? 0) - (before?.runs ?? 0);
    // Each process alone would run it every second: twice that if both did.
    expect(runs).toBeGreaterThanOrEqual(2);
    // Once across both: one claim per lease (0.95 s) at most.
    expect(runs).toBeLessThanOrEqual(Math.ceil(seconds / 0.95) + 1);
  }, 15_000);
});
