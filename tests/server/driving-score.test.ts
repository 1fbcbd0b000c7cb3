/**
 * "How they drive": the events told from fixes (harsh driving from the speed only with fixes
 * close together, the CTB speeding bands at their boundaries, idling past its threshold), the
 * score of a known set of events, and the report through the API: ranked, scoped to the
 * company, refused to a Terceiro.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedAlerts } from '../../server/reports/alerts';
import {
  type DrivingEvent,
  type DrivingFix,
  drivingEvents,
  drivingScore,
  speedingGrade,
} from '../../server/reports/driving';
import { monthOf } from '../../server/reports/driving-report';
import { documentFor } from '../../server/reports/files/documents';
import { rowsOf } from '../../server/reports/files/model';
import type { RunningServer } from '../../server/start';
import type { DrivingReport } from '../../src/contract';
import {
  type Caller,
  customers,
  driveThenBrake,
  signIn,
  startReal,
  vehicleWithTracker,
} from './alert-fixtures';
import { backends, databaseFor } from './harness';
import { reportText } from './report-readers';

const T0 = Date.parse('2026-11-02T12:00:00Z');
const options = { speedLimit: 80, idleMinutes: 5 };

/** Fixes every `everyS` seconds at these speeds, the odometer following the speed. */
function track(speeds: number[], everyS: number, extra: Partial<DrivingFix> = {}): DrivingFix[] {
  let odometer = 0;
  return speeds.map((speed, i) => {
    if (i > 0) odometer += ((speed + (speeds[i - 1] ?? 0)) / 2 / 3.6) * everyS;
    return {
      at: T0 + i * everyS * 1000,
      speed,
      ignition: true,
      rfid: 'TAG1',
      alarm: null,
      odometer,
      ...extra,
    };
  });
}

const kinds = (events: DrivingEvent[]) => events.map((e) => e.kind);

describe('harsh driving from the speed', () => {
  it('sees a hard stop and a hard start in 1 s fixes, once per run', () => {
    // 60 → 44 → 30 → 30: 4.4 and 3.9 m/s², one braking; then 30 → 42: 3.3 m/s² up.
    const { events } = drivingEvents(track([60, 44, 30, 30, 42, 42], 1), options);
    expect(kinds(events)).toEqual(['harshBraking', 'harshAcceleration']);
    expect(events[0]?.rfid).toBe('TAG1');
    expect(events[0]?.value).toBe(4.4);
  });

  it('sees nothing below the thresholds', () => {
    // 12 km/h lost in a second is 3.33 m/s²: under 3.5. 10 km/h gained: 2.78 m/s², under 3.
    const { events } = drivingEvents(track([60, 48, 48, 58], 1), options);
    expect(events).toEqual([]);
  });

  it('tells nothing from 5 s fixes, however steep the change', () => {
    const { events } = drivingEvents(track([70, 0, 0, 70, 70], 5, { ignition: false }), options);
    expect(events).toEqual([]);
  });

  it('counts a harsh braking the device reported once, not again from the speed', () => {
    const fixes = track([60, 40, 40], 1);
    if (fixes[1]) fixes[1].alarm = 'hardBraking';
    const { events } = drivingEvents(fixes, options);
    expect(events.map((e) => [e.kind, e.source])).toEqual([['harshBraking', 'device']]);
  });

  it('counts device cornering alarms whatever the fix rate', () => {
    const fixes = track([50, 50, 50], 30);
    if (fixes[1]) fixes[1].alarm = 'hardCornering';
    expect(kinds(drivingEvents(fixes, options).events)).toEqual(['harshCornering']);
  });
});

describe('speeding by the CTB bands (art. 218)', () => {
  it('grades exactly 20 % over as média ("até 20%") and exactly 50 % over as grave', () => {
    expect(speedingGrade(80, 80)).toBeNull();
    expect(speedingGrade(80.5, 80)).toBe('speedingMedium');
    expect(speedingGrade(96, 80)).toBe('speedingMedium');
    expect(speedingGrade(96.1, 80)).toBe('speedingSerious');
    expect(speedingGrade(120, 80)).toBe('speedingSerious');
    expect(speedingGrade(120.1, 80)).toBe('speedingVerySerious');
    expect(speedingGrade(72, 60)).toBe('speedingMedium');
  });

  it('makes one episode per stretch over the limit, graded by its peak', () => {
    const { events } = drivingEvents(track([70, 85, 97, 90, 70, 70, 125, 70], 30), options);
    expect(events.map((e) => [e.kind, e.value, e.limit])).toEqual([
      ['speedingSerious', 97, 80],
      ['speedingVerySerious', 125, 80],
    ]);
  });
});

describe('idling', () => {
  const idleFor = (minutes: number) => {
    // Still from 0 s to its last still fix, `minutes` later; then it moves on.
    const speeds = Array.from({ length: minutes * 2 + 1 }, () => 0);
    return drivingEvents(track([...speeds, 30], 30), options).events;
  };

  it('is an event past the threshold, with its length', () => {
    expect(idleFor(5).map((e) => [e.kind, e.value])).toEqual([]);
    expect(idleFor(6).map((e) => [e.kind, e.value])).toEqual([['idling', 360]]);
  });

  it('is not idling with the engine off', () => {
    const speeds = Array.from({ length: 40 }, () => 0);
    expect(drivingEvents(track(speeds, 30, { ignition: false }), options).events).toEqual([]);
  });

  it('follows the configured time', () => {
    const speeds = Array.from({ length: 8 }, () => 0);
    const { events } = drivingEvents(track(speeds, 30), { ...options, idleMinutes: 3 });
    expect(kinds(events)).toEqual(['idling']);
  });
});

describe('who drove', () => {
  it('keeps the tag while the engine runs and loses it when it stops', () => {
    const fixes = track([30, 30, 30, 30], 60);
    fixes.forEach((f, i) => {
      f.rfid = i === 0 ? 'TAG9' : null;
    });
    if (fixes[2]) fixes[2].ignition = false;
    const { metres } = drivingEvents(fixes, options);
    expect([...metres.keys()].sort()).toEqual(['', 'TAG9']);
    // The step into the fix with the engine off is still his; the next one is no one's.
    expect(Math.round(metres.get('TAG9') ?? 0)).toBe(1000);
    expect(Math.round(metres.get('') ?? 0)).toBe(500);
  });
});

describe('the score', () => {
  const event = (kind: DrivingEvent['kind'], value: number | null = null): DrivingEvent => ({
    kind,
    at: T0,
    rfid: 'TAG1',
    value,
    limit: null,
    source: 'speed',
  });

  it('takes the weighted events per 100 km from 100', () => {
    // 10 + 5 + 2 + 3 + 2 + 2 + 1.5 (15 min idling) = 25.5 points on 150 km: 17 per 100 km.
    const events = [
      event('speedingVerySerious'),
      event('speedingSerious'),
      event('speedingMedium'),
      event('harshBraking'),
      event('harshAcceleration'),
      event('harshCornering'),
      event('idling', 900),
    ];
    expect(drivingScore(events, 150)).toBe(83);
    expect(drivingScore([], 150)).toBe(100);
    expect(drivingScore([event('harshBraking')], 45)).toBe(93.3);
  });

  it('never goes below zero, and has no score under 20 km', () => {
    const many = Array.from({ length: 30 }, () => event('speedingVerySerious'));
    expect(drivingScore(many, 100)).toBe(0);
    expect(drivingScore([], 19.9)).toBeNull();
    expect(drivingScore([], 20)).toBe(100);
  });
});

describe.each(await backends())('the driving report through the API on %s', (backend) => {
  let server: RunningServer;
  let drop: () => Promise<void>;
  let admin: Caller;
  const month = monthOf(Date.now());
  const NORTH_DRIVER = 'Motorista Pesado do Norte';
  const SOUTH_DRIVER = 'Motorista Cuidadoso do Sul';
  const TAG = '00FA11CE22';
  let northVehicle = '';
  let northId = '';

  beforeAll(async () => {
    const database = await databaseFor(backend);
    drop = database.drop;
    server = await startReal(database.env);
    admin = await signIn(server.url, 'admin@rastro.demo');
    const { north, south } = await customers(admin);
    for (const [clientId, name, cpf] of [
      [north, NORTH_DRIVER, '52998224725'],
      [south, SOUTH_DRIVER, '11144477735'],
    ] as const) {
      const res = await admin.call('POST', '/registros/driver', {
        clientId,
        completName: name,
        cpf,
        rfidCode: TAG,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    northVehicle = (await vehicleWithTracker(admin, north, 'DRV1N11', 'trk-driving-north'))
      .vehicleId;
    northId = north;
    await vehicleWithTracker(admin, south, 'DRV2S22', 'trk-driving-south');
    const from = Date.now() - 50 * 60_000;
    await driveThenBrake(server.osmandPort ?? 0, 'trk-driving-north', TAG, from, 100);
    await driveThenBrake(server.osmandPort ?? 0, 'trk-driving-south', TAG, from, 60);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it('ranks the drivers by score, each with the events of his own company', async () => {
    const res = await admin.call<DrivingReport>(
      'GET',
      `/registros/reports/v2/driving?month=${month}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const names = res.body.drivers.map((d) => d.name);
    // A driver without a score (too few km) comes after every scored one.
    expect(names.indexOf(NORTH_DRIVER)).toBeLessThan(names.indexOf(SOUTH_DRIVER));
    const north = res.body.drivers.find((d) => d.name === NORTH_DRIVER);
    const south = res.body.drivers.find((d) => d.name === SOUTH_DRIVER);
    // 100 km/h on the default 80 is 25 % over: one 'grave' episode; 100 → 80 in 1 s brakes hard.
    expect(north?.counts.speedingSerious).toBe(1);
    expect(north?.counts.harshBraking).toBe(1);
    expect(north?.km).toBeGreaterThan(20);
    // 5 + 3 points on about 25 km.
    expect(north?.score).toBeGreaterThan(60);
    expect(north?.score).toBeLessThan(75);
    // 60 → 48 in 1 s is 3.3 m/s²: not harsh; and no speeding. But under 20 km: no score.
    expect(south?.counts.harshBraking).toBe(0);
    expect(south?.km).toBeLessThan(20);
    expect(south?.score).toBeNull();
    expect(north?.previousScore).toBeNull();
  });

  it('never shows another company its drivers', async () => {
    const south = await signIn(server.url, 'gestor.sul@rastro.demo');
    const own = await south.call<DrivingReport>(
      'GET',
      `/registros/reports/v2/driving?month=${month}`,
    );
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).not.toContain(NORTH_DRIVER);
    expect(own.body.drivers.map((d) => d.name)).toEqual([SOUTH_DRIVER]);
    const { north } = await customers(admin);
    const other = await south.call(
      'GET',
      `/registros/reports/v2/driving?month=${month}&clientId=${north}`,
    );
    expect(other.status).toBe(404);
    const bad = await south.call('GET', '/registros/reports/v2/driving?month=2026-13');
    expect(bad.status).toBe(400);
  });

  it('goes in automated reports as the month so far, never to a Terceiro', async () => {
    const manager = await signIn(server.url, 'gestor.norte@rastro.demo');
    const rule = await manager.call('POST', '/registros/crud-reports-processor', {
      clientId: northId,
      name: 'Ranking semanal',
      reportType: 'DRIVING',
      periodicity: 'WEEKLY',
      vehicleIds: [northVehicle],
      emailDelivery: 'gestor@rastro.demo',
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    // What the scheduler makes of a week ending now: this month's ranking of Norte's drivers.
    const doc = await documentFor(
      'DRIVING',
      {
        db: server.deps.database.db,
        alerts: storedAlerts,
        customer: 'Transportes Norte',
        beginAt: new Date(Date.now() - 7 * 86_400_000),
        endAt: new Date(),
        generatedAt: new Date(),
      },
      { vehicles: [], drivers: [], clientIds: [northId] },
      'pdf',
    );
    const rows = [];
    for await (const row of rowsOf(doc.tables[0]?.rows ?? [])) rows.push(row);
    expect(rows.map((row) => row[1])).toEqual([NORTH_DRIVER]);

    const visitor = await signIn(server.url, 'terceiro@rastro.demo');
    const asked = await visitor.call('POST', '/registros/reports', {
      reportType: 'DRIVING',
      vehicleIds: [northVehicle],
      beginAt: new Date(Date.now() - 86_400_000).toISOString(),
      endAt: new Date().toISOString(),
    });
    expect(asked.status).toBe(403);
  });

  it('writes the ranking to XLSX and PDF', async () => {
    for (const format of ['excel', 'pdf'] as const) {
      const res = await fetch(
        `${server.url}/registros/reports/v2/download/driving?month=${month}&format=${format}`,
        { headers: { authorization: `Bearer ${admin.token}` } },
      );
      expect(res.status).toBe(200);
      const text = await reportText(await res.arrayBuffer(), format);
      expect(text).toContain(NORTH_DRIVER);
      expect(text).toContain('Excesso grave');
    }
  });
});
