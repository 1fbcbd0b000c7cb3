/**
 * Turns the analysis of a vehicle's fixes into what the API answers: trips and stops in their
 * wire shape (src/contract/reports.ts), their totals, and the one-page summary.
 */
import type { Stop, Summary, Trip, TripTotals } from '../../src/contract';
import { reportDay } from '../../src/lib/report-period';
import type { Analysis } from './analyse';
import {
  driverBetween,
  maxSpeedBetween,
  metresBetween,
  type Samples,
  type StopSpan,
  type TripSpan,
} from './motion';
import type { TaggedDriver } from './queries/reports';

const iso = (ms: number | undefined) => new Date(ms ?? 0).toISOString();
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function tripOf(
  s: Samples,
  span: TripSpan,
  vehicleId: string,
  names: Map<string, TaggedDriver>,
): Trip {
  const { start, end } = span;
  const distance = metresBetween(s, start, end);
  const duration = ((s.time[end] ?? 0) - (s.time[start] ?? 0)) / 1000;
  const rfid = driverBetween(s, start, end);
  const driver = rfid ? names.get(rfid) : undefined;
  return {
    vehicleId,
    startTime: iso(s.time[start]),
    endTime: iso(s.time[end]),
    startLatitude: s.lat[start] ?? 0,
    startLongitude: s.lon[start] ?? 0,
    endLatitude: s.lat[end] ?? 0,
    endLongitude: s.lon[end] ?? 0,
    distance: round(distance),
    duration,
    maxSpeed: round(maxSpeedBetween(s, start, end)),
    averageSpeed: duration > 0 ? round((distance / duration) * 3.6) : 0,
    startOdometer: round(s.odometer[start] ?? 0),
    endOdometer: round(s.odometer[end] ?? 0),
    driverRfid: rfid,
    driverName: driver?.name ?? null,
    // Driven after the CNH's last valid day (São Paulo): only said when so.
    ...(driver?.licenseExpiry && driver.licenseExpiry < reportDay(s.time[start] ?? 0)
      ? { driverLicenseExpired: true as const }
      : {}),
  };
}

export function stopOf(s: Samples, span: StopSpan, vehicleId: string): Stop {
  return {
    vehicleId,
    startTime: iso(s.time[span.start]),
    endTime: iso(s.time[span.end]),
    latitude: s.lat[span.start] ?? 0,
    longitude: s.lon[span.start] ?? 0,
    duration: ((s.time[span.end] ?? 0) - (s.time[span.start] ?? 0)) / 1000,
    idleTime: span.idle === null ? null : Math.round(span.idle),
  };
}

/** The driver tags an analysis met (to name them in one query). */
export function tagsOf(analysis: Analysis): string[] {
  return analysis.trips.flatMap((t) => driverBetween(analysis.samples, t.start, t.end) ?? []);
}

export function journeysOf(
  analysis: Analysis,
  vehicleId: string,
  names: Map<string, TaggedDriver>,
) {
  const trips = analysis.trips.map((t) => tripOf(analysis.samples, t, vehicleId, names));
  const stops = analysis.stops.map((s) => stopOf(analysis.samples, s, vehicleId));
  return { trips, stops, totals: totalsOf(trips, stops) };
}

export function totalsOf(trips: Trip[], stops: Stop[]): TripTotals {
  return {
    trips: trips.length,
    distance: round(trips.reduce((sum, t) => sum + t.distance, 0)),
    drivingTime: trips.reduce((sum, t) => sum + t.duration, 0),
    stops: stops.length,
    stopTime: stops.reduce((sum, s) => sum + s.duration, 0),
    idleTime: stops.reduce((sum, s) => sum + (s.idleTime ?? 0), 0),
    maxSpeed: trips.reduce((max, t) => Math.max(max, t.maxSpeed), 0),
  };
}

export function summaryOf(
  header: { vehicleId: string; plate: string; name: string; beginAt: string; endAt: string },
  totals: TripTotals,
  distance: number,
  alertsByType: Record<string, number>,
): Summary {
  return {
    ...header,
    distance: round(distance),
    drivingTime: totals.drivingTime,
    idleTime: totals.idleTime,
    stopTime: totals.stopTime,
    stops: totals.stops,
    trips: totals.trips,
    maxSpeed: totals.maxSpeed,
    averageSpeed: totals.drivingTime > 0 ? round((totals.distance / totals.drivingTime) * 3.6) : 0,
    alertsByType,
  };
}
