/**
 * The dashboard calls on the seeded demo fleet: every figure checked against the database
 * (counted here another way) and against the lists it links to, the activity buckets with
 * fixes of known ages, vehicle states as the map's own rule says, alerts and km per day,
 * and the tenancy: Norte counts only Norte, a Terceiro gets nothing.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lastDays } from '../../server/dashboard/queries';
import { rowsOf } from '../../server/platform/db/client';
import type {
  ActivityCounts,
  AlertPage,
  CustomerRowPage,
  DashboardActivity,
  DashboardAlerts,
  DashboardDistance,
  LocationItem,
} from '../../src/contract';
import { vehicleState } from '../../src/lib/vehicle-state';
import type {
  DashboardClients,
  DashboardTrackers,
  DashboardUsers,
  TrackerPage,
  VehiclePage,
} from './api-types';
import { as, backends, demoClients, useServer } from './harness';

const MINUTE = 60_000;
/** Tracker → how long ago its last fix was (the rest never reported). */
const AGES: Record<string, number> = {
  'demo-001': 2 * MINUTE,
  'demo-002': 20 * MINUTE,
  'demo-003': 3 * 60 * MINUTE,
  'demo-004': 3 * 24 * 60 * MINUTE,
  'demo-005': 10 * 24 * 60 * MINUTE,
  'demo-006': 40 * 24 * 60 * MINUTE,
};

describe.each(await backends())('dashboard on %s', (backend) => {
  const server = useServer(backend, () => ({
    SEED_DEMO_FLEET: 'true',
    INGEST_MAX_JUMP_KMH: '100000',
  }));

  async function report() {
    const s = server();
    for (const [identifier, age] of Object.entries(AGES)) {
      const at = Date.now() - age;
      await s.deps.pipeline.accept(
        identifier,
        [
          {
            fixTime: new Date(at - 60_000),
            latitude: -8.05,
            longitude: -34.9,
            ignition: true,
            speed: 40,
            attributes: {},
          },
          {
            fixTime: new Date(at),
            latitude: -8.051,
            longitude: -34.9,
            ignition: age <= 10 * MINUTE,
            speed: age < 5 * MINUTE ? 40 : 0,
            attributes: {},
          },
        ],
        'osmand',
      );
    }
  }

  it('counts customers, users, trackers and vehicles as the database and the lists do', async () => {
    const s = server();
    await report();
    const { db } = s.deps.database;
    const admin = await as(s, 'admin@rastro.demo');
    const clients = await admin.call<DashboardClients>('GET', '/registros/dashboard/clients');
    expect(clients.status).toBe(200);
    const list = await admin.call<CustomerRowPage>('GET', '/registros/client?limit=100');
    expect(clients.body.total).toBe(list.body.total);
    const users = await admin.call<DashboardUsers>('GET', '/registros/dashboard/users');
    const [u] = rowsOf<{ n: string }>(
      await db.execute(sql`select count(*) as n from users where canceled_at is null`),
    );
    expect(users.body.total).toBe(Number(u?.n));
    expect(Object.values(users.body.byRole).reduce((a, b) => a + b)).toBe(users.body.total);
    const tracker = await admin.call<DashboardTrackers>('GET', '/registros/dashboard/tracker');
    const { mother } = await demoClients(s);
    const trackers = await admin.call<TrackerPage>(
      'GET',
      `/registros/tracker?clientId=${mother}&limit=1`,
    );
    const vehicles = await admin.call<VehiclePage>(
      'GET',
      `/registros/vehicle?clientId=${mother}&limit=1`,
    );
    expect(tracker.body.trackers.total).toBe(trackers.body.total);
    expect(tracker.body.vehicles.total).toBe(vehicles.body.total);
    // Vehicle states now: the map's rule (src/lib/vehicle-state.ts) over the last locations.
    const last = (await admin.call<LocationItem[]>('GET', '/registros/real-time/lastLocation'))
      .body;
    const expected = { moving: 0, idle: 0, off: 0, offline: 0 };
    for (const item of last) expected[vehicleState(item)] += 1;
    expect(tracker.body.vehicles.now).toEqual({
      ...expected,
      never: vehicles.body.total - last.length,
    });
    expect(expected.moving).toBe(1);
  });

  it('puts each tracker in exactly one activity bucket, per customer', async () => {
    const s = server();
    const admin = await as(s, 'admin@rastro.demo');
    const res = await admin.call<DashboardActivity>(
      'GET',
      '/registros/dashboard/trackers/activity-by-time-range',
    );
    expect(res.status).toBe(200);
    const { totals, byClient } = res.body;
    expect(totals).toEqual({
      lastHour: 2,
      last24h: 1,
      last7d: 1,
      last30d: 1,
      over30d: 1,
      never: 34,
    });
    expect(byClient).toHaveLength(3);
    const sum = (key: keyof ActivityCounts) =>
      byClient.reduce((total, row) => total + (row[key] ?? 0), 0);
    for (const key of Object.keys(totals) as (keyof ActivityCounts)[])
      expect(sum(key)).toBe(totals[key]);
  });

  it('gives 30 days of alerts per type and km per day, from the alerts and vehicle_days', async () => {
    const s = server();
    const { db } = s.deps.database;
    const admin = await as(s, 'admin@rastro.demo');
    const alerts = await admin.call<DashboardAlerts>('GET', '/registros/dashboard/alerts');
    expect(alerts.body.perDay).toHaveLength(30);
    expect(alerts.body.perDay.map((d) => d.day)).toEqual(lastDays());
    const open = await admin.call<AlertPage>('GET', '/registros/alerts?acknowledged=false&limit=1');
    expect(alerts.body.unacknowledged).toBe(open.body.total);
    const distance = await admin.call<DashboardDistance>('GET', '/registros/dashboard/distance');
    expect(distance.body.perDay).toHaveLength(30);
    const [m] = rowsOf<{ meters: string | null }>(
      await db.execute(
        sql`select sum(distance) as meters from vehicle_days where day >= ${lastDays()[0]}`,
      ),
    );
    const km = distance.body.perDay.reduce((a, b) => a + b.km, 0);
    expect(km).toBeCloseTo(Number(m?.meters ?? 0) / 1000, 0);
    expect(km).toBeGreaterThan(0);
  });

  it('counts only the caller’s subtree; a Terceiro gets nothing; a foreign customer is 404', async () => {
    const s = server();
    const ids = await demoClients(s);
    const norte = await as(s, 'gestor.norte@rastro.demo');
    const clients = await norte.call<DashboardClients>('GET', '/registros/dashboard/clients');
    expect(clients.body.total).toBe(1);
    const trackers = await norte.call<DashboardTrackers>('GET', '/registros/dashboard/tracker');
    const list = await norte.call<TrackerPage>(
      'GET',
      `/registros/tracker?clientId=${ids.north}&limit=1`,
    );
    expect(trackers.body.trackers.total).toBe(list.body.total);
    const activity = await norte.call<DashboardActivity>(
      'GET',
      '/registros/dashboard/trackers/activity-by-time-range',
    );
    expect(activity.body.byClient.map((r) => r.clientId)).toEqual([ids.north]);
    const foreign = await norte.call('GET', `/registros/dashboard/tracker?clientId=${ids.south}`);
    expect(foreign.status).toBe(404);
    const admin = await as(s, 'admin@rastro.demo');
    const chosen = await admin.call('GET', `/registros/dashboard/tracker?clientId=${ids.north}`);
    expect(chosen.body).toEqual(trackers.body);
    const visitor = await as(s, 'terceiro@rastro.demo');
    expect((await visitor.call('GET', '/registros/dashboard/clients')).status).toBe(403);
    const bad = await admin.call('GET', '/registros/dashboard/clients?clientId=nope');
    expect(bad.status).toBe(400);
  });
});
