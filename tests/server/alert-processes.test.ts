import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/platform/db/client';
import type { RunningServer } from '../../server/start';
import {
  alertsOf,
  createRule,
  customers,
  epoch,
  KNOTS,
  osmand,
  signIn,
  startReal,
  vehicleWithTracker,
  WialonDevice,
  wialonStamp,
} from './alert-fixtures';
import { type SecondProcess, startSecondProcess } from './fixtures/second-process';
import { backends, databaseFor, everyBackend, postgresAvailable } from './harness';

const HOME = { lat: -8.0539, lon: -34.8811 };

describe.each(await everyBackend())('a restart inside an overspeed episode on %s', (backend) => {
  it('raises nothing new, and the next episode once', async () => {
    const database = await databaseFor(backend);
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000;
    const at = (s: number) => epoch(new Date(t0 + s * 1000));
    let server: RunningServer = await startReal(database.env);
    try {
      const admin = await signIn(server.url, 'admin@rastro.demo');
      const { north } = await customers(admin);
      const v = await vehicleWithTracker(admin, north, 'RST1A11', 'trk-restart');
      await createRule(admin, {
        clientId: north,
        name: 'Velocidade',
        type: 'OVERSPEED',
        vehicleIds: [v.vehicleId],
        params: { speedLimit: 80, minDurationSeconds: 20 },
      });
      const send = (s: number, kmh: number) =>
        osmand(server.osmandPort ?? 0, {
          id: 'trk-restart',
          lat: HOME.lat,
          lon: HOME.lon,
          timestamp: at(s),
          speed: kmh / KNOTS,
        });
      await send(0, 100);
      await send(10, 100);
      expect(await alertsOf(admin, v.vehicleId)).toEqual([]);
      await server.close();

      server = await startReal(database.env);
      const again = await signIn(server.url, 'admin@rastro.demo');
      // The episode began before the restart: 20 s after its start, raised once.
      await send(20, 100);
      await send(30, 100);
      await send(40, 100);
      expect((await alertsOf(again, v.vehicleId)).map((a) => a.fixTime)).toEqual([
        new Date(at(20) * 1000).toISOString(),
      ]);
      await server.close();

      server = await startReal(database.env);
      const third = await signIn(server.url, 'admin@rastro.demo');
      await send(50, 100);
      await send(60, 60);
      await send(70, 100);
      await send(90, 100);
      expect((await alertsOf(third, v.vehicleId)).map((a) => a.fixTime)).toEqual([
        new Date(at(20) * 1000).toISOString(),
        new Date(at(90) * 1000).toISOString(),
      ]);
    } finally {
      await server.close();
      await database.drop();
    }
  }, 60_000);
});

describe.runIf(await postgresAvailable())('two server processes on one PostgreSQL', () => {
  let drop: () => Promise<void>;
  let a: RunningServer;
  let b: SecondProcess;

  beforeAll(async () => {
    const database = await databaseFor('postgres');
    drop = database.drop;
    a = await startReal(database.env);
    b = await startSecondProcess(database.env.DATABASE_URL, {
      ALERT_TIMEOUT_CHECK_SECONDS: '3600',
    });
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.close();
    await drop?.();
  });

  const timeoutsOnB = (at: number) =>
    new Promise<number>((resolve) => {
      b.child.once('message', (m) => resolve((m as { count: number }).count));
      b.child.send({ timeouts: at });
    });

  it('raises each alert once when both receive the same fixes at once', async () => {
    const admin = await signIn(a.url, 'admin@rastro.demo');
    const { north } = await customers(admin);
    const v = await vehicleWithTracker(admin, north, 'TWO1A11', 'trk-two');
    for (const type of ['IGNITION_ON', 'IGNITION_OFF'] as const)
      await createRule(admin, { clientId: north, name: type, type, vehicleIds: [v.vehicleId] });
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 10 * 60_000;
    const ignition = [false, true, true, false, true, false, false, true];
    for (const [i, on] of ignition.entries()) {
      const fix = {
        id: 'trk-two',
        lat: HOME.lat,
        lon: HOME.lon,
        timestamp: epoch(new Date(t0 + i * 10_000)),
        ignition: on,
      };
      // The same fix to both processes at the same moment (a device retrying elsewhere).
      const codes = await Promise.all([osmand(a.osmandPort ?? 0, fix), osmand(b.port, fix)]);
      expect(codes).toEqual([200, 200]);
    }
    const list = await alertsOf(admin, v.vehicleId);
    expect(list.map((x) => x.type)).toEqual([
      'IGNITION_ON',
      'IGNITION_OFF',
      'IGNITION_ON',
      'IGNITION_OFF',
      'IGNITION_ON',
    ]);
  });

  it('keeps one state when a vehicle alternates between the processes', async () => {
    const admin = await signIn(a.url, 'admin@rastro.demo');
    const { north } = await customers(admin);
    const v = await vehicleWithTracker(admin, north, 'TWO2B22', 'trk-alt');
    await createRule(admin, {
      clientId: north,
      name: 'Ligou',
      type: 'IGNITION_ON',
      vehicleIds: [v.vehicleId],
    });
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 10 * 60_000;
    const ports = [a.osmandPort ?? 0, b.port];
    for (const [i, on] of [false, true, false, true].entries())
      await osmand(ports[i % 2] ?? 0, {
        id: 'trk-alt',
        lat: HOME.lat,
        lon: HOME.lon,
        timestamp: epoch(new Date(t0 + i * 10_000)),
        ignition: on,
      });
    expect((await alertsOf(admin, v.vehicleId)).length).toBe(2);
  });

  it("applies a rule created through one process to the other's next fix", async () => {
    const onB = await signIn(b.url, 'admin@rastro.demo');
    const { north } = await customers(onB);
    const v = await vehicleWithTracker(onB, north, 'TWO3C33', 'trk-new-rule');
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const send = (s: number, on: boolean) =>
      osmand(a.osmandPort ?? 0, {
        id: 'trk-new-rule',
        lat: HOME.lat,
        lon: HOME.lon,
        timestamp: epoch(new Date(t0 + s * 1000)),
        ignition: on,
      });
    await send(0, false);
    await createRule(onB, {
      clientId: north,
      name: 'Ligou',
      type: 'IGNITION_ON',
      vehicleIds: [v.vehicleId],
    });
    // A rule starts from the first fix after it exists (vehicles with no rule keep no state).
    await send(5, false);
    await send(10, true);
    expect((await alertsOf(onB, v.vehicleId)).map((x) => x.type)).toEqual(['IGNITION_ON']);
  });

  it('runs the silence check in both and stores it once', async () => {
    const admin = await signIn(a.url, 'admin@rastro.demo');
    const { north } = await customers(admin);
    const v = await vehicleWithTracker(admin, north, 'TWO4D44', 'trk-silent');
    await createRule(admin, {
      clientId: north,
      name: 'Sem posição',
      type: 'LOCATION_TIMEOUT',
      vehicleIds: [v.vehicleId],
      params: { minutes: 10 },
    });
    const last = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    await osmand(a.osmandPort ?? 0, {
      id: 'trk-silent',
      lat: HOME.lat,
      lon: HOME.lon,
      timestamp: epoch(last),
    });
    const now = last.getTime() + 15 * 60_000;
    const counts = await Promise.all([
      a.deps.alerts.engine.checkTimeouts(new Date(now)),
      timeoutsOnB(now),
    ]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(1);
    expect((await alertsOf(admin, v.vehicleId)).map((x) => x.type)).toEqual(['LOCATION_TIMEOUT']);
  });
});

describe.each(await backends())('a late black box on %s', (backend) => {
  let server: RunningServer;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await databaseFor(backend);
    drop = database.drop;
    server = await startReal(database.env);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it('raises its own edges marked late, e-mails none of them, and leaves the state as it was', async () => {
    const admin = await signIn(server.url, 'admin@rastro.demo');
    const { north } = await customers(admin);
    const v = await vehicleWithTracker(admin, north, 'BBX1A11', 'trk-blackbox');
    for (const type of ['IGNITION_ON', 'IGNITION_OFF'] as const)
      await createRule(admin, {
        clientId: north,
        name: type,
        type,
        vehicleIds: [v.vehicleId],
        emailDelivery: 'central@frota.com.br',
      });
    const device = await WialonDevice.login(server.wialonPort ?? 0, 'trk-blackbox');
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 60 * 60_000;
    const message = (s: number, on: boolean) =>
      `${wialonStamp(new Date(t0 + s * 1000))};0803.2340;S;03452.8660;W;0;0;10;9;1.0;0;0;NA;NA;ign:1:${on ? 1 : 0}`;
    // Live: the engine is on at minute 50 and 51 (nothing raised: no change).
    const live = (s: number, on: boolean) => device.send(`#D#${message(s, on)}`, /^#AD#/);
    expect(await live(3000, true)).toBe('#AD#1');
    expect(await live(3060, true)).toBe('#AD#1');
    // Then the black box of the tunnel, older: on, off at minute 10, on at minute 20.
    const box = [message(0, true), message(600, false), message(1200, true)].join('|');
    expect(await device.send(`#B#${box}`, /^#AB#/)).toBe('#AB#3');
    // And live again: still on, nothing to raise.
    expect(await live(3120, true)).toBe('#AD#1');
    device.close();
    const list = await alertsOf(admin, v.vehicleId);
    expect(list.map((x) => [x.type, x.fixTime, x.late])).toEqual([
      ['IGNITION_OFF', new Date(t0 + 600_000).toISOString(), true],
      ['IGNITION_ON', new Date(t0 + 1_200_000).toISOString(), true],
    ]);
    const [outbox] = rowsOf<{ n: number }>(
      await server.deps.database.db.execute(sql`select count(*)::int as n from alert_mail_outbox`),
    );
    expect(outbox?.n).toBe(0);
  });
});
