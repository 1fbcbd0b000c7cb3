/**
 * The odometer written at ingest: cumulative metres per tracker, the same whatever order the
 * fixes arrive in (a black box emptied after live fixes), continuing across a restart of the
 * server, deaf to GPS jitter while parked; and the per-day rollup split at São Paulo midnight.
 */

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../server/deps';
import { rowsOf } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import { prepare } from '../../server/start';
import { backends, databaseFor, everyBackend, testConfig, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';
import { Track } from './tracks';

async function odometers(deps: Deps, trackerId: string) {
  return rowsOf<{ t: string | Date; odometer: number }>(
    await deps.database.db.execute(
      sql`select fix_time as t, odometer from positions where tracker_id = ${trackerId} order by fix_time`,
    ),
  ).map((r) => Number(r.odometer));
}

async function days(deps: Deps, vehicleId: string) {
  return rowsOf<{ day: string; distance: number; fixes: number }>(
    await deps.database.db.execute(
      sql`select day, distance, fixes from vehicle_days where vehicle_id = ${vehicleId} order by day`,
    ),
  ).map((r) => ({ day: r.day, distance: Number(r.distance), fixes: Number(r.fixes) }));
}

const trip = () =>
  new Track('2026-03-10T12:00:00Z')
    .park(120)
    .drive(600, 60)
    .park(300, { jitter: 20 })
    .drive(300, 40, 0)
    .park(60);

describe.each(await backends())('odometer on %s', (backend) => {
  const server = useServer(backend);

  it('adds the metres between fixes and ignores jitter while parked', async () => {
    const s = server();
    const v = await vehicleWithTracker(s);
    const track = trip();
    await ingest(s.deps, v.identifier, track.fixes);
    const odo = await odometers(s.deps, v.trackerId);
    const driven = track.truth.trips.reduce((sum, t) => sum + t.metres, 0);
    expect(odo).toHaveLength(track.fixes.length);
    expect(odo[0]).toBe(0);
    // Great-circle against the builder's flat steps: well within 0.5 %.
    expect(Math.abs((odo.at(-1) ?? 0) - driven) / driven).toBeLessThan(0.005);
    for (let i = 1; i < odo.length; i += 1) expect(odo[i]).toBeGreaterThanOrEqual(odo[i - 1] ?? 0);
    const [last] = rowsOf<{ odometer: number }>(
      await s.deps.database.db.execute(
        sql`select odometer from last_locations where tracker_id = ${v.trackerId}`,
      ),
    );
    expect(Number(last?.odometer)).toBeCloseTo(odo.at(-1) ?? 0, 6);
  });

  it('gives fixes that arrive late the odometer they would have had in order', async () => {
    const s = server();
    const inOrder = await vehicleWithTracker(s);
    const late = await vehicleWithTracker(s);
    const track = trip();
    await ingest(s.deps, inOrder.identifier, track.fixes);
    // Live fixes first (the newest third), then the black box, oldest chunk last, and a
    // repeat of some already stored.
    const third = Math.floor(track.fixes.length / 3);
    const [a, b, c] = [
      track.fixes.slice(0, third),
      track.fixes.slice(third, 2 * third),
      track.fixes.slice(2 * third),
    ];
    await ingest(s.deps, late.identifier, c);
    await ingest(s.deps, late.identifier, b, 37);
    await ingest(s.deps, late.identifier, [...a.filter((_, i) => i % 2 === 1), ...c.slice(0, 5)]);
    await ingest(
      s.deps,
      late.identifier,
      a.filter((_, i) => i % 2 === 0),
    );
    const expected = await odometers(s.deps, inOrder.trackerId);
    const got = await odometers(s.deps, late.trackerId);
    expect(got).toHaveLength(expected.length);
    got.forEach((value, i) => {
      expect(value).toBeCloseTo(expected[i] ?? Number.NaN, 6);
    });
    const want = await days(s.deps, inOrder.vehicleId);
    const have = await days(s.deps, late.vehicleId);
    expect(have.map((d) => d.fixes)).toEqual(want.map((d) => d.fixes));
    have.forEach((d, i) => {
      expect(d.distance).toBeCloseTo(want[i]?.distance ?? Number.NaN, 6);
    });
  });

  it('splits the daily distance at midnight in São Paulo, not UTC', async () => {
    const s = server();
    const v = await vehicleWithTracker(s);
    // 23:50 to 00:10 in São Paulo (UTC−3): 02:50Z to 03:10Z.
    const track = new Track('2026-03-11T02:50:00Z').drive(1200, 36);
    await ingest(s.deps, v.identifier, track.fixes);
    const rows = await days(s.deps, v.vehicleId);
    expect(rows.map((r) => r.day)).toEqual(['2026-03-10', '2026-03-11']);
    // 100 m per fix: 02:50:10–02:59:50 (59 fixes, 58 steps) before midnight, 03:00:00–03:10:00
    // (61 fixes, 61 steps: the one across midnight counts on the day it ends) after.
    expect(rows.map((r) => r.fixes)).toEqual([59, 61]);
    expect(Math.abs((rows[0]?.distance ?? 0) - 5800) / 5800).toBeLessThan(0.005);
    expect(Math.abs((rows[1]?.distance ?? 0) - 6100) / 6100).toBeLessThan(0.005);
  });
});

describe.each(await everyBackend())('odometer across a restart on %s', (backend) => {
  it('continues from where the last run stopped', async () => {
    // A database that outlives the first server: a copy of the seeded one, on disk for PGlite.
    const database = await databaseFor(backend);
    const config = testConfig(database.env);
    try {
      const track = trip();
      const half = Math.floor(track.fixes.length / 2);
      const first = await prepare(config, createLogger('silent'));
      const { createApp } = await import('../../server/app');
      const app = createApp(first, { serveStatic: false });
      const request = (p: string, init: RequestInit & { json?: unknown; token?: string } = {}) => {
        const headers = new Headers(init.headers);
        if (init.json !== undefined) headers.set('content-type', 'application/json');
        if (init.token) headers.set('authorization', `Bearer ${init.token}`);
        return Promise.resolve(
          app.request(p, {
            ...init,
            headers,
            ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
          }),
        );
      };
      const v = await vehicleWithTracker({
        deps: first,
        app,
        config,
        request,
        nativePorts: {},
        nativeListeners: {},
      });
      await ingest(first, v.identifier, track.fixes.slice(0, half));
      const before = await odometers(first, v.trackerId);
      await first.database.close();

      const second = await prepare(config, createLogger('silent'));
      await ingest(second, v.identifier, track.fixes.slice(half));
      const after = await odometers(second, v.trackerId);
      await second.database.close();
      expect(after.slice(0, half)).toEqual(before);
      const driven = track.truth.trips.reduce((sum, t) => sum + t.metres, 0);
      expect(Math.abs((after.at(-1) ?? 0) - driven) / driven).toBeLessThan(0.005);
    } finally {
      await database.drop();
    }
  });
});
