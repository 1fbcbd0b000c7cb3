/**
 * The reports themselves, over vehicles the caller may see (routes check that): trips and
 * stops, summaries, drivers. Each vehicle is analysed on its own customer's trip rules, one
 * after another, so a report of many vehicles never holds more than one vehicle's fixes.
 */
import type { DriverReport, Summary, TripsReport } from '../../src/contract';
import { reportDay } from '../../src/lib/report-period';
import type { Db } from '../platform/db/client';
import type { ReportAlerts } from './alerts';
import { type Analysis, analyseVehicle } from './analyse';
import { journeysOf, summaryOf, tagsOf, totalsOf, tripOf } from './build';
import { distanceReports } from './distance';
import { DEFAULT_RULES, driverBetween, type MotionRules } from './motion';
import {
  type DriverRow,
  daysWithDriver,
  driverNames,
  type TaggedDriver,
  tripSettingsOf,
  type VehicleRow,
  vehiclesIn,
} from './queries/reports';

export async function rulesOf(db: Db, clientId: string): Promise<MotionRules> {
  const row = await tripSettingsOf(db, clientId);
  return row
    ? {
        minDistance: row.minDistance,
        stopSeconds: row.stopSeconds,
        gapSeconds: row.gapSeconds,
        useIgnition: row.useIgnition,
      }
    : DEFAULT_RULES;
}

export async function analyse(db: Db, vehicle: VehicleRow, beginAt: Date, endAt: Date) {
  return analyseVehicle(db, vehicle, beginAt, endAt, await rulesOf(db, vehicle.clientId));
}

const header = (vehicle: VehicleRow, beginAt: Date, endAt: Date) => ({
  vehicleId: vehicle.id,
  plate: vehicle.plate,
  name: vehicle.name,
  beginAt: beginAt.toISOString(),
  endAt: endAt.toISOString(),
});

async function namesFor(db: Db, vehicle: VehicleRow, analysis: Analysis) {
  if (!vehicle.driverNames) return new Map<string, TaggedDriver>();
  return driverNames(db, vehicle.clientId, [...new Set(tagsOf(analysis))]);
}

export async function tripsReport(
  db: Db,
  vehicle: VehicleRow,
  beginAt: Date,
  endAt: Date,
): Promise<TripsReport> {
  const analysis = await analyse(db, vehicle, beginAt, endAt);
  const names = await namesFor(db, vehicle, analysis);
  return { ...header(vehicle, beginAt, endAt), ...journeysOf(analysis, vehicle.id, names) };
}

export async function summaryReport(
  db: Db,
  alerts: ReportAlerts,
  vehicle: VehicleRow,
  beginAt: Date,
  endAt: Date,
): Promise<Summary> {
  const analysis = await analyse(db, vehicle, beginAt, endAt);
  const { trips, stops } = journeysOf(analysis, vehicle.id, new Map());
  const [distance] = await distanceReports(db, [vehicle], beginAt, endAt);
  const byType: Record<string, number> = {};
  for (const alert of await alerts.of(db, vehicle, beginAt, endAt))
    byType[alert.type] = (byType[alert.type] ?? 0) + 1;
  return summaryOf(
    header(vehicle, beginAt, endAt),
    totalsOf(trips, stops),
    distance?.distance ?? 0,
    byType,
  );
}

/**
 * A driver's trips: the vehicles and days on which the rollup saw their tag (in their
 * customer's vehicles), analysed, keeping the trips in which theirs was the tag read most.
 */
export async function driverReport(
  db: Db,
  driver: DriverRow,
  clientIds: string[],
  beginAt: Date,
  endAt: Date,
): Promise<DriverReport> {
  const base = {
    driverId: driver.id,
    name: driver.completName,
    rfid: driver.rfidCode,
    beginAt: beginAt.toISOString(),
    endAt: endAt.toISOString(),
  };
  const rfid = driver.rfidCode;
  if (!rfid) return { ...base, trips: [], distance: 0, drivingTime: 0, vehicles: [] };
  const seen = await daysWithDriver(
    db,
    [driver.clientId],
    rfid,
    reportDay(beginAt),
    reportDay(endAt.getTime() - 1),
  );
  const vehicles = await vehiclesIn(db, [...new Set(seen.map((s) => s.vehicleId))], clientIds);
  const trips: DriverReport['trips'] = [];
  const perVehicle: DriverReport['vehicles'] = [];
  const names = new Map([
    [rfid, { name: driver.completName, licenseExpiry: driver.licenseExpiry }],
  ]);
  for (const vehicle of vehicles) {
    const analysis = await analyse(db, vehicle, beginAt, endAt);
    const own = analysis.trips
      .filter((t) => driverBetween(analysis.samples, t.start, t.end) === rfid)
      .map((t) => ({
        ...tripOf(analysis.samples, t, vehicle.id, names),
        plate: vehicle.plate,
        vehicleName: vehicle.name,
      }));
    if (own.length === 0) continue;
    trips.push(...own);
    perVehicle.push({
      vehicleId: vehicle.id,
      plate: vehicle.plate,
      name: vehicle.name,
      trips: own.length,
      distance: own.reduce((sum, t) => sum + t.distance, 0),
      drivingTime: own.reduce((sum, t) => sum + t.duration, 0),
    });
  }
  trips.sort((a, b) => (a.startTime < b.startTime ? -1 : 1));
  return {
    ...base,
    trips,
    distance: Math.round(trips.reduce((sum, t) => sum + t.distance, 0) * 10) / 10,
    drivingTime: trips.reduce((sum, t) => sum + t.duration, 0),
    vehicles: perVehicle,
  };
}
