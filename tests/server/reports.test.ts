/**
 * The report calls on a synthetic three-day track stored through ingest: the same trips for a
 * one-day and a three-day period, distances per São Paulo day that add up to the odometer,
 * the streamed positions and history, the interval limits and their messages, drivers, the
 * record of report requests, and tenancy.
 */
import { describe, expect, it } from 'vitest';
import { MAIL_NOT_CONFIGURED } from '../../server/reports/files/delivery';
import type {
  DistanceReport,
  Driver,
  DriverReport,
  HistoryReport,
  ReportRequest,
  TripsReport,
} from '../../src/contract';
import { dayStart } from '../../src/lib/report-period';
import type { PositionsReport, ReportRequestPage } from './api-types';
import { as, demoClients, type ErrorBody, everyBackend, present, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';
import { Track } from './tracks';

const RFID = 'A1B2C3D4E5';
const sp = (day: string, hh: number, mm = 0) =>
  new Date(dayStart(day).getTime() + (hh * 60 + mm) * 60_000);

/** Three workdays in São Paulo: two trips a day, and a night trip across midnight. */
function threeDays() {
  const track = new Track(sp('2026-03-09', 6));
  const until = (at: Date, options: { every: number; ignition: boolean }) =>
    track.park((at.getTime() - track.now) / 1000, options);
  for (const day of ['2026-03-09', '2026-03-10', '2026-03-11']) {
    until(sp(day, 8), { every: 300, ignition: false });
    track.drive(2700, 50, 90, { every: 30, ignition: true, driverRfid: RFID });
    track.park(1800, { every: 60, ignition: false });
    track.drive(1800, 40, 270, { every: 30, ignition: true, driverRfid: RFID });
    until(sp(day, 23, 40), { every: 300, ignition: false });
    track.drive(3000, 30, 0, { every: 30, ignition: true });
    track.drive(1, 30, 0, { every: 30, ignition: true });
    track.park(1200, { every: 60, ignition: false });
  }
  until(sp('2026-03-12', 6), { every: 300, ignition: false });
  return track;
}

const period = (from: Date, to: Date) =>
  `beginAt=${encodeURIComponent(from.toISOString())}&endAt=${encodeURIComponent(to.toISOString())}`;

describe.each(await everyBackend())('reports on %s', (backend) => {
  const server = useServer(backend);
  let setup: Promise<Awaited<ReturnType<typeof vehicleWithTracker>>> | undefined;
  const vehicle = () => {
    setup ??= (async () => {
      const v = await vehicleWithTracker(server());
      await ingest(server().deps, v.identifier, threeDays().fixes);
      return v;
    })();
    return setup;
  };

  it('gives the same trips and stops for a one-day and a three-day period', async () => {
    const v = await vehicle();
    const day2 = period(sp('2026-03-10', 0), sp('2026-03-11', 0));
    const all = period(sp('2026-03-09', 0), sp('2026-03-12', 0));
    const one = await v.admin.call<TripsReport>(
      'GET',
      `/registros/reports/trips/${v.vehicleId}?${day2}`,
    );
    const three = await v.admin.call<TripsReport>(
      'GET',
      `/registros/reports/trips/${v.vehicleId}?${all}`,
    );
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(three.status).toBe(200);
    const inDay2 = <T extends { startTime: string }>(list: T[]) =>
      list.filter(
        (x) =>
          x.startTime >= sp('2026-03-10', 0).toISOString() &&
          x.startTime < sp('2026-03-11', 0).toISOString(),
      );
    // 08:00, 09:15 and the night trip from 23:40 that ends after midnight, whole.
    expect(one.body.trips).toHaveLength(3);
    expect(three.body.trips).toHaveLength(9);
    expect(inDay2(three.body.trips)).toEqual(one.body.trips);
    expect(inDay2(three.body.stops)).toEqual(one.body.stops);
    const night = present(one.body.trips[2], 'night trip');
    expect(night.startTime).toBe(sp('2026-03-10', 23, 40).toISOString());
    expect(night.endTime > sp('2026-03-11', 0).toISOString()).toBe(true);
    // Known answers: 45 min at 50 km/h, with the driver read by RFID; the engine went off
    // before the first fix after arrival (a minute later), which ends the trip.
    const first = present(one.body.trips[0], 'first trip');
    expect(first.startTime).toBe(sp('2026-03-10', 8).toISOString());
    expect(first.endTime).toBe(sp('2026-03-10', 8, 46).toISOString());
    expect(first.duration).toBe(2760);
    expect(Math.abs(first.distance - 37_500) / 37_500).toBeLessThan(0.005);
    expect(first.maxSpeed).toBe(50);
    expect(first.driverRfid).toBe(RFID);
    expect(one.body.totals.trips).toBe(3);
  });

  it('answers dailyResults by São Paulo day, adding up to the odometer', async () => {
    const v = await vehicle();
    const res = await v.admin.call<DistanceReport>(
      'GET',
      `/registros/reports/distance/${v.vehicleId}?${period(sp('2026-03-09', 0), sp('2026-03-12', 0))}`,
    );
    expect(res.status).toBe(200);
    const days = Object.keys(res.body.dailyResults);
    expect(days).toEqual(['2026-03-09', '2026-03-10', '2026-03-11']);
    const trips = await v.admin.call<TripsReport>(
      'GET',
      `/registros/reports/trips/${v.vehicleId}?${period(sp('2026-03-09', 0), sp('2026-03-13', 0))}`,
    );
    const driven = trips.body.trips.reduce((s, t) => s + t.distance, 0);
    // 3 × (37.5 + 20 + 25) km, the last night trip partly after the period.
    const sum = days.reduce((s, d) => s + present(res.body.dailyResults[d], d).distance, 0);
    expect(res.body.distance).toBeCloseTo(sum, 1);
    const lastNight = present(trips.body.trips.at(-1), 'last trip');
    const afterMidnight = (lastNight.distance * 30) / 50;
    expect(Math.abs(sum + afterMidnight - driven)).toBeLessThan(300);
    // The night trip crosses midnight: its first 20 minutes count on the day it started.
    expect(res.body.dailyResults['2026-03-09']?.distance).toBeGreaterThan(82_500 - 25_000 + 9_000);

    // A period that cuts a day is measured from the odometer at its ends.
    const cut = await v.admin.call<DistanceReport>(
      'GET',
      `/registros/reports/distance/${v.vehicleId}?${period(sp('2026-03-10', 8), sp('2026-03-10', 8, 46))}`,
    );
    const cutDay = present(cut.body.dailyResults['2026-03-10'], '2026-03-10');
    expect(Math.abs(cutDay.distance - 37_500) / 37_500).toBeLessThan(0.005);
  });

  it('streams positions and the history of a period', async () => {
    const v = await vehicle();
    const day = period(sp('2026-03-10', 8), sp('2026-03-10', 9));
    const positions = await v.admin.call<PositionsReport>(
      'GET',
      `/registros/reports/positions/${v.vehicleId}?${day}`,
    );
    expect(positions.status).toBe(200);
    // Parked at 08:00 (engine off), 90 fixes under way with the driver's tag, 14 parked.
    expect(positions.body.positions).toHaveLength(1 + 90 + 14);
    expect(positions.body.positions[0]).toMatchObject({
      speed: 0,
      ignition: false,
      driverRfid: null,
    });
    expect(positions.body.positions[1]).toMatchObject({
      speed: 50,
      ignition: true,
      driverRfid: RFID,
    });
    expect(positions.body.positions[1]?.fixTime).toBe(sp('2026-03-10', 8, 0.5).toISOString());
    const history = await v.admin.call<HistoryReport>(
      'GET',
      `/registros/reports/history/${v.vehicleId}?${day}`,
    );
    expect(history.status).toBe(200);
    expect(history.body.positions).toHaveLength(105);
    expect(history.body.stops).toHaveLength(1);
    expect(history.body.alerts).toEqual([]);
    const empty = await v.admin.call<PositionsReport>(
      'GET',
      `/registros/reports/positions/${v.vehicleId}?${period(sp('2026-01-01', 0), sp('2026-01-02', 0))}`,
    );
    expect(empty.body.positions).toEqual([]);
  });

  it('refuses periods past the limits with the limit in the message', async () => {
    const v = await vehicle();
    const from = sp('2026-03-01', 0);
    const plus = (minutes: number) => new Date(from.getTime() + minutes * 60_000);
    const call = <T = unknown>(path: string, minutes: number) =>
      v.admin.call<T>(
        'GET',
        `/registros/reports/${path}/${v.vehicleId}?${period(from, plus(minutes))}`,
      );
    expect((await call('history', 744 * 60)).status).toBe(200);
    const over = await call<ErrorBody>('history', 745 * 60);
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('O período máximo deste relatório é de 31 dias (744 horas)');
    // 744 h 20 min rounds to 744 h: the check in minutes refuses it.
    const minutes = await call<ErrorBody>('positions', 744 * 60 + 20);
    expect(minutes.status).toBe(400);
    expect(minutes.body.message).toBe('O período máximo deste relatório é de 31 dias (744 horas)');
    expect((await call('distance', 93 * 24 * 60)).status).toBe(200);
    const long = await call<ErrorBody>('distance', 94 * 24 * 60);
    expect(long.body.message).toBe('O período máximo deste relatório é de 93 dias (2232 horas)');
    const backwards = await call<ErrorBody>('trips', -60);
    expect(backwards.body.message).toBe('A data final deve ser posterior à data inicial');
  });

  it("reports a driver's trips and the vehicles they drove", async () => {
    const v = await vehicle();
    const driver = await v.admin.call<Driver>('POST', '/registros/driver', {
      clientId: v.admin.user.clientId,
      completName: 'Rita Relatório',
      cpf: '529.982.247-25',
      rfidCode: RFID,
    });
    expect(driver.status, JSON.stringify(driver.body)).toBe(201);
    const res = await v.admin.call<DriverReport>(
      'GET',
      `/registros/reports/v2/drivers/${driver.body.id}?${period(sp('2026-03-10', 0), sp('2026-03-11', 0))}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.trips).toHaveLength(2);
    expect(res.body.trips[0]?.driverName).toBe('Rita Relatório');
    expect(res.body.vehicles).toEqual([
      expect.objectContaining({ vehicleId: v.vehicleId, trips: 2, drivingTime: 2760 + 2100 }),
    ]);
    const summary = await v.admin.call(
      'GET',
      `/registros/reports/light_final_report/${v.vehicleId}?${period(sp('2026-03-10', 0), sp('2026-03-11', 0))}`,
    );
    expect(summary.body).toMatchObject({ trips: 3, stops: 3, maxSpeed: 50, alertsByType: {} });
  });

  it('records report requests, sortable, and refuses files until they exist', async () => {
    const v = await vehicle();
    const ask = <T = ReportRequest>(body: Record<string, unknown>) =>
      v.admin.call<T>('POST', '/registros/reports', {
        reportType: 'TRIPS',
        vehicleIds: [v.vehicleId],
        beginAt: sp('2026-03-10', 0).toISOString(),
        endAt: sp('2026-03-11', 0).toISOString(),
        ...body,
      });
    const made = await ask({});
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      status: 'done',
      name: 'Jornadas de 10/03/2026 a 10/03/2026',
    });
    await ask({ name: 'A primeira', reportType: 'DISTANCE' });
    const sorted = await v.admin.call<ReportRequestPage>(
      'GET',
      '/registros/reports?sort=name&order=asc',
    );
    expect(sorted.body.reports.map((r) => r.name).slice(0, 2)).toEqual([
      'A primeira',
      'Jornadas de 10/03/2026 a 10/03/2026',
    ]);
    // A file by e-mail is made in the background; without SMTP it fails, and says why.
    const file = await ask({ format: 'pdf', deliveryMethod: 'email' });
    expect(file.status).toBe(201);
    expect(file.body).toMatchObject({ status: 'pending', format: 'pdf', deliveryMethod: 'email' });
    await server().deps.reportFiles.idle();
    const after = await v.admin.call('GET', `/registros/reports/${file.body.id}`);
    expect(after.body).toMatchObject({ status: 'failed', error: MAIL_NOT_CONFIGURED });
    const long = await ask<ErrorBody>({
      reportType: 'POSITIONS',
      endAt: sp('2026-05-01', 0).toISOString(),
    });
    expect(long.body.message).toContain('744 horas');
    // A vehicle named twice is asked once (it was a 404 'Veículo não encontrado').
    const twice = await ask({ vehicleIds: [v.vehicleId, v.vehicleId] });
    expect(twice.status, JSON.stringify(twice.body)).toBe(201);
    expect(twice.body.vehicleIds).toEqual([v.vehicleId]);
    // KML is the history's only, to download as by e-mail.
    const kml = await ask<ErrorBody>({ format: 'kml' });
    expect([kml.status, kml.body.message]).toEqual([
      400,
      'KML só para o histórico: use pdf ou excel',
    ]);
    const removed = await v.admin.call('DELETE', `/registros/reports/${made.body.id}`);
    expect(removed.status).toBe(200);
  });

  it("answers 404 for another company's vehicle", async () => {
    const s = server();
    const { south } = await demoClients(s);
    const theirs = await vehicleWithTracker(s, south);
    const north = await as(s, 'gestor.norte@rastro.demo');
    const day = period(sp('2026-03-10', 0), sp('2026-03-11', 0));
    for (const path of ['history', 'positions', 'trips', 'distance', 'light_final_report']) {
      const res = await north.call('GET', `/registros/reports/${path}/${theirs.vehicleId}?${day}`);
      expect(res.status, path).toBe(404);
    }
    const many = await north.call(
      'GET',
      `/registros/reports/v2/distance?vehicleIds=${theirs.vehicleId}&${day}`,
    );
    expect(many.status).toBe(404);
  });
});
