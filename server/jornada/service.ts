/**
 * A driver's working days from the database: the driving the trackers saw (the trips in which
 * the driver's RFID tag was the one read most, and the untagged driving of the vehicles the
 * driver was assigned to, server/reports/attribution.ts), their marks and corrections, run
 * through the engine.
 */
import type { JornadaReport, MarkKind, MarkSource, PeriodKind } from '../../src/contract/jornada';
import { dayStart, nextDay } from '../../src/lib/report-period';
import type { Db } from '../platform/db/client';
import { analyseVehicle } from '../reports/analyse';
import { daysWithDriver } from '../reports/queries/reports';
import { rulesOf } from '../reports/service';
import {
  type DayResult,
  type DrivingSpan,
  drivingOfDriver,
  type EngineInput,
  type EngineSettings,
  jornadaDays,
} from './engine';
import { assignedPeriods } from './queries/assignments';
import { correctionsOf, jornadaSettingsOf, marksOf } from './queries/jornada';

const DAY_MS = 86_400_000;

export interface JornadaDriver {
  id: string;
  clientId: string;
  completName: string;
  rfidCode: string | null;
}

const shiftDay = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * The driving of a driver in [from, to), in the vehicles of these customers: the vehicles that
 * read the driver's tag on those days, and those the driver was assigned to then.
 */
export async function drivingOf(
  db: Db,
  driver: JornadaDriver,
  owners: string[],
  from: Date,
  to: Date,
): Promise<DrivingSpan[]> {
  const [days, assigned] = await Promise.all([
    driver.rfidCode
      ? daysWithDriver(
          db,
          owners,
          driver.rfidCode,
          shiftDay(from.toISOString().slice(0, 10), -1),
          shiftDay(to.toISOString().slice(0, 10), 1),
        )
      : [],
    assignedPeriods(db, { driverIds: [driver.id] }, from, to),
  ]);
  const vehicleIds = [
    ...new Set([...days.map((d) => d.vehicleId), ...assigned.map((p) => p.vehicleId)]),
  ];
  if (vehicleIds.length === 0) return [];
  const rules = await rulesOf(db, driver.clientId);
  const assignment = { driverId: driver.id, periods: assigned };
  const spans: DrivingSpan[] = [];
  for (const id of vehicleIds) {
    // A vehicle of a customer the caller cannot see reads nothing (analyseVehicle's owners).
    const a = await analyseVehicle(db, { id, owners, driverNames: true }, from, to, rules);
    spans.push(
      ...drivingOfDriver(a.samples, a.trips, id, driver.rfidCode, assignment).filter(
        (s) => s.end > from.getTime() && s.start < to.getTime(),
      ),
    );
  }
  return spans.sort((x, y) => x.start - y.start);
}

/** What the engine needs of a driver over [from, until). */
export async function inputOf(
  db: Db,
  driver: JornadaDriver,
  owners: string[],
  from: Date,
  until: Date,
  known?: EngineSettings,
): Promise<EngineInput> {
  const [driving, marks, corrections, settings] = await Promise.all([
    drivingOf(db, driver, owners, from, until),
    marksOf(db, driver.id, from, until),
    correctionsOf(db, driver.id, from, until),
    known ?? jornadaSettingsOf(db, driver.clientId),
  ]);
  return {
    from: from.getTime(),
    until: until.getTime(),
    driving,
    marks: marks.map((m) => ({
      kind: m.kind as MarkKind,
      at: m.at.getTime(),
      source: m.source as MarkSource,
    })),
    corrections: corrections.map((c) => ({
      kind: c.kind as PeriodKind,
      start: c.startAt.getTime(),
      end: c.endAt.getTime(),
    })),
    settings,
  };
}

/**
 * The days [fromDay, toDay] of a driver, read from two days before (the rest before the first
 * journey) to a day after (a journey that crosses midnight), never past `now`.
 */
export async function jornadaOf(
  db: Db,
  driver: JornadaDriver,
  owners: string[],
  fromDay: string,
  toDay: string,
  now: Date,
): Promise<{ settings: Awaited<ReturnType<typeof jornadaSettingsOf>>; days: DayResult[] }> {
  const from = dayStart(shiftDay(fromDay, -2));
  const until = new Date(Math.min(dayStart(nextDay(nextDay(toDay))).getTime(), now.getTime()));
  const settings = await jornadaSettingsOf(db, driver.clientId);
  if (until <= from) return { settings, days: [] };
  const days = jornadaDays(
    await inputOf(db, driver, owners, from, until, settings),
    fromDay,
    toDay,
  ).filter((d) => dayStart(d.day).getTime() < now.getTime());
  return { settings, days };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The API's shape of a driver's days. */
export function jornadaReport(
  driver: JornadaDriver,
  settings: Awaited<ReturnType<typeof jornadaSettingsOf>>,
  days: DayResult[],
): JornadaReport {
  return {
    driverId: driver.id,
    driverName: driver.completName,
    regime: settings.regime,
    overtimeLimitMinutes: settings.overtimeLimitMinutes,
    days: days.map((d) => ({
      day: d.day,
      start: iso(d.start),
      end: iso(d.end),
      periods: d.periods.map((p) => ({
        kind: p.kind,
        source: p.source,
        start: new Date(p.start).toISOString(),
        end: new Date(p.end).toISOString(),
        vehicleId: p.vehicleId,
      })),
      totals: d.totals,
      violations: d.violations.map((v) => ({
        rule: v.rule,
        start: new Date(v.start).toISOString(),
        end: new Date(v.end).toISOString(),
        minutes: v.minutes,
      })),
    })),
  };
}
