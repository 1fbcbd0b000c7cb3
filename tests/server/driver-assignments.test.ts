/**
 * Drivers assigned to vehicles for a period ('designação') through the real API: periods that
 * overlap (same vehicle, same driver) or run backwards are refused in pt-BR and change nothing,
 * another company's ids answer 404, changes are audited; and a vehicle with no RFID reader has
 * its driving worked out as the assigned driver's, exactly the part the assignment covers, in
 * the working day, its alert, the driving score and the driver's page, while a tag read always
 * wins.
 */
import { describe, expect, it } from 'vitest';
import type { Fix } from '../../server/ingest/queries/positions';
import { jornadaAlertItems } from '../../server/jornada/alerts';
import { vehicleOfDriver } from '../../server/jornada/queries/driver-page';
import { type DrivingFix, drivingEvents } from '../../server/reports/driving';
import { monthOf } from '../../server/reports/driving-report';
import type {
  Assignment,
  AssignmentPage,
  AuditPage,
  Driver,
  DrivingReport,
  JornadaReport,
} from '../../src/contract';
import { dayStart, reportDay } from '../../src/lib/report-period';
import {
  as,
  backends,
  cpfSequence,
  demoClients,
  type ErrorBody,
  type TestServer,
  useServer,
} from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';

const MIN = 60_000;
const PATH = '/registros/driver-assignments';

/** A valid CPF, a new one each call (the server is shared by the tests of a file). */
const nextCpf = cpfSequence(420_000_000);

async function newDriver(s: TestServer, clientId: string, name: string, rfidCode?: string) {
  const admin = await as(s, 'admin@rastro.demo');
  const res = await admin.call<Driver>('POST', '/registros/driver', {
    clientId,
    completName: name,
    cpf: nextCpf(),
    ...(rfidCode ? { rfidCode } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** Fixes each minute from `from`: standing (ignition off) or moving at `kmh`, maybe tagged. */
function fixes(from: number, plan: { minutes: number; kmh: number; tag?: string }[]): Fix[] {
  const out: Fix[] = [];
  let t = from;
  let lon = -46.6;
  for (const p of plan)
    for (let i = 0; i < p.minutes; i += 1, t += MIN) {
      if (p.kmh > 0) lon += p.kmh / 6000;
      out.push({
        fixTime: new Date(t),
        latitude: -23.5,
        longitude: lon,
        speed: p.kmh,
        ignition: p.kmh > 0,
        driverRfid: p.kmh > 0 ? p.tag : undefined,
        attributes: {},
      });
    }
  return out;
}

describe('the driving events of an untagged vehicle', () => {
  const fix = (minute: number, speed: number, rfid: string | null = null): DrivingFix => ({
    at: minute * MIN,
    speed,
    ignition: speed > 0,
    rfid,
    alarm: null,
    odometer: minute * 1000,
  });

  it('are the assigned driver’s only where no tag is read nor carried', () => {
    // A tag at the start carries while the engine runs; after a stop, nothing is read.
    const run = [
      fix(0, 100, 'TAG'),
      fix(1, 100),
      fix(2, 50),
      fix(3, 0),
      fix(4, 100),
      fix(5, 100),
      fix(6, 50),
    ];
    const { events, metres, assignedMetres } = drivingEvents(run, {
      speedLimit: 80,
      idleMinutes: 5,
      assignedAt: (at) => (at >= 4 * MIN ? 'driver-z' : null),
    });
    const speeding = events.filter((e) => e.kind === 'speedingSerious');
    expect(speeding.map((e) => [e.at, e.rfid, e.assigned])).toEqual([
      [0, 'TAG', null],
      [4 * MIN, null, 'driver-z'],
    ]);
    // 3 km with the tag (carried to the stop); the untagged 3 km after it, the assignment's.
    expect(metres.get('TAG')).toBe(3000);
    expect(metres.get('')).toBe(3000);
    expect(assignedMetres.get('driver-z')).toBe(3000);
  });
});

describe.each(await backends())('driver assignments on %s', (backend) => {
  const server = useServer(backend);

  it('refuses overlaps and backwards periods, hides them from others, audits', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const ana = await newDriver(s, north, 'Ana Designada');
    const bia = await newDriver(s, north, 'Bia Designada');
    const v1 = (await vehicleWithTracker(s, north)).vehicleId;
    const v2 = (await vehicleWithTracker(s, north)).vehicleId;
    const southVehicle = (await vehicleWithTracker(s, south)).vehicleId;
    const t = (hours: number) => new Date(Date.UTC(2026, 9, 1, hours)).toISOString();

    const made = await manager.call<Assignment>('POST', PATH, {
      clientId: north,
      driverId: ana,
      vehicleId: v1,
      start: t(8),
      end: t(18),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ driverName: 'Ana Designada', start: t(8), end: t(18) });

    const refused = async (body: object, status: number, message: string) => {
      const res = await manager.call<ErrorBody>('POST', PATH, { clientId: north, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.message).toContain(message);
    };
    // Another driver in the same vehicle, overlapping: the clash is named.
    await refused(
      { driverId: bia, vehicleId: v1, start: t(17), end: null },
      409,
      'Este veículo já tem motorista designado em 01/10/2026, 05:00 – 01/10/2026, 15:00 (Ana Designada)',
    );
    // The same driver in another vehicle, overlapping.
    await refused(
      { driverId: ana, vehicleId: v2, start: t(6), end: t(9) },
      409,
      'Este motorista já está designado a outro veículo',
    );
    await refused(
      { driverId: bia, vehicleId: v2, start: t(12), end: t(10) },
      400,
      'A data final deve ser posterior',
    );
    await refused(
      { driverId: bia, vehicleId: southVehicle, start: t(20) },
      400,
      'Veículo não encontrado neste cliente',
    );
    // Back to back is no overlap; open-ended after it is fine.
    const next = await manager.call<Assignment>('POST', PATH, {
      clientId: north,
      driverId: bia,
      vehicleId: v1,
      start: t(18),
    });
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    expect(next.body.end).toBeNull();
    // Stretching the first one into the second is a clash too.
    const stretch = await manager.call<ErrorBody>('PATCH', `${PATH}/${made.body.id}`, {
      end: t(19),
    });
    expect(stretch.status).toBe(409);
    // "Encerrar agora": the open one gets an end.
    const ended = await manager.call<Assignment>('PATCH', `${PATH}/${next.body.id}`, {
      end: t(20),
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.end).toBe(t(20));

    const list = await manager.call<AssignmentPage>('GET', `${PATH}?vehicleId=${v1}&sort=start`);
    expect(list.body.assignments.map((a) => [a.driverName, a.start, a.end])).toEqual([
      ['Ana Designada', t(8), t(18)],
      ['Bia Designada', t(18), t(20)],
    ]);

    const other = await as(s, 'gestor.sul@rastro.demo');
    const id = made.body.id;
    expect((await other.call('GET', `${PATH}/${id}`)).status).toBe(404);
    expect((await other.call('PATCH', `${PATH}/${id}`, { end: t(9) })).status).toBe(404);
    expect((await other.call('DELETE', `${PATH}/${id}`)).status).toBe(404);
    expect(
      (
        await other.call('POST', PATH, {
          clientId: north,
          driverId: ana,
          vehicleId: v2,
          start: t(22),
        })
      ).status,
    ).toBe(404);
    // Their own company with our driver: refused, nothing stored.
    const foreign = await other.call<ErrorBody>('POST', PATH, {
      clientId: south,
      driverId: ana,
      vehicleId: southVehicle,
      start: t(22),
    });
    expect(foreign.status).toBe(400);
    const theirs = await other.call<AssignmentPage>('GET', PATH);
    expect(theirs.body.assignments.map((a) => a.driverId)).not.toContain(ana);
    const unchanged = await manager.call<Assignment>('GET', `${PATH}/${id}`);
    expect(unchanged.body.end).toBe(t(18));

    // Two overlapping periods sent at once for a fresh vehicle: one is stored, one refused.
    const v3 = (await vehicleWithTracker(s, north)).vehicleId;
    const cleo = await newDriver(s, north, 'Cleo Designada');
    const dora = await newDriver(s, north, 'Dora Designada');
    const both = await Promise.all(
      [cleo, dora].map((driverId) =>
        manager.call('POST', PATH, { clientId: north, driverId, vehicleId: v3, start: t(2) }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const stored = await manager.call<AssignmentPage>('GET', `${PATH}?vehicleId=${v3}`);
    expect(stored.body.assignments).toHaveLength(1);

    const audit = await manager.call<AuditPage>(
      'GET',
      `/registros/audit?entity=driver_assignment&clientId=${north}`,
    );
    expect(audit.body.events.map((a) => a.entityId)).toEqual(
      expect.arrayContaining([made.body.id, next.body.id]),
    );
  });

  it('gives an untagged vehicle’s driving to the assigned driver, a tag read wins', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const xavier = await newDriver(s, north, 'Xavier Sem Etiqueta');
    const yara = await newDriver(s, north, 'Yara Com Etiqueta', 'A55B0001');
    const v = await vehicleWithTracker(s, north);
    // Two days ago (São Paulo): standing from 07:00, driving 08:00–12:00 with no tag read,
    // standing, then 14:00–15:00 with Yara's tag read.
    const day = reportDay(Date.now() - 2 * 86_400_000);
    const at = (hour: number) => dayStart(day).getTime() + hour * 3600_000;
    await ingest(
      s.deps,
      v.identifier,
      fixes(at(7), [
        { minutes: 61, kmh: 0 },
        { minutes: 239, kmh: 60 },
        { minutes: 121, kmh: 0 },
        { minutes: 59, kmh: 60, tag: 'A55B0001' },
        { minutes: 60, kmh: 0 },
      ]),
    );
    // Xavier has the vehicle from 10:00, until further notice.
    const assigned = await manager.call<Assignment>('POST', PATH, {
      clientId: north,
      driverId: xavier,
      vehicleId: v.vehicleId,
      start: new Date(at(10)).toISOString(),
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);

    const dayOf = async (driverId: string) => {
      const res = await manager.call<JornadaReport>(
        'GET',
        `/registros/jornada/drivers/${driverId}/days?from=${day}&to=${day}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const result = res.body.days[0];
      return {
        driving: result?.totals.driving,
        periods: result?.periods
          .filter((p) => p.kind === 'driving')
          .map((p) => [p.start, p.end, p.source, p.vehicleId]),
      };
    };
    const iso = (hour: number) => new Date(at(hour)).toISOString();
    // Exactly 10:00–12:00: before 10:00 the trip is nobody's; 14:00–15:00 was Yara's tag.
    expect(await dayOf(xavier)).toEqual({
      driving: 120,
      periods: [[iso(10), iso(12), 'designacao', v.vehicleId]],
    });
    expect(await dayOf(yara)).toEqual({
      driving: 60,
      periods: [[iso(14), iso(15), 'rastreador', v.vehicleId]],
    });
  });

  it('watches, scores and shows the assigned driver of a vehicle with no reader', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const zeca = await newDriver(s, north, 'Zeca Designado');
    const v = await vehicleWithTracker(s, north);
    const now = Date.now();
    // 5 h 10 of driving at 100 km/h (over the default 80) up to now, with no tag read.
    const from = now - 5 * 3600_000 - 12 * MIN;
    await ingest(
      s.deps,
      v.identifier,
      fixes(from, [
        { minutes: 2, kmh: 0 },
        { minutes: 310, kmh: 100 },
      ]),
    );
    expect(
      (
        await manager.call('POST', PATH, {
          clientId: north,
          driverId: zeca,
          vehicleId: v.vehicleId,
          start: new Date(now - 6 * 3600_000).toISOString(),
        })
      ).status,
    ).toBe(201);
    const { db } = s.deps.database;

    // The working-day alert: 5 h of continuous driving.
    const items = await jornadaAlertItems(
      db,
      { id: 'rule', type: 'JORNADA_DRIVING_LIMIT' },
      { clientIds: [north], vehicleIds: new Set([v.vehicleId]) },
      new Date(now),
    );
    expect(items.map((i) => [i.type, i.vehicleId, i.details.driverId])).toEqual([
      ['JORNADA_DRIVING_LIMIT', v.vehicleId, zeca],
    ]);

    // The driving score: his km and his speeding, and nothing left on the vehicle.
    const month = monthOf(from + 3 * MIN);
    const report = await manager.call<DrivingReport>(
      'GET',
      `/registros/reports/v2/driving?month=${month}&clientId=${north}`,
    );
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    const row = report.body.drivers.find((d) => d.driverId === zeca);
    expect(row?.km).toBeGreaterThan(400);
    expect(row?.counts.speedingSerious).toBe(1);
    expect(row?.events.every((e) => e.vehicleId === v.vehicleId)).toBe(true);
    expect(report.body.unassigned.map((r) => r.name)).not.toContain(v.plate);

    // The driver's page: the vehicle he is assigned to now.
    const vehicle = await vehicleOfDriver(
      db,
      { clientId: north, driverId: zeca, driverRfid: null },
      new Date(now),
    );
    expect(vehicle?.plate).toBe(v.plate);
  });
});
