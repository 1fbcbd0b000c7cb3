/**
 * What the driving-behaviour report reads (server/reports/driving-report.ts): a company's
 * vehicles with the speed limit of their overspeed rules, their drivers by tag, and one
 * vehicle's fixes of a period with only the columns the events need.
 */
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { alertRules, drivers, fleets, positions, vehicles } from '../../schema';
import type { DrivingFix } from '../driving';

export interface DrivingVehicle {
  id: string;
  clientId: string;
  plate: string;
  /** The lowest limit of the overspeed rules that watch it, if any. */
  speedLimit: number | null;
}

/** The live vehicles of these customers, each with its overspeed rules' lowest limit. */
export async function drivingVehicles(db: Db, clientIds: string[]): Promise<DrivingVehicle[]> {
  if (clientIds.length === 0) return [];
  const rows = await db
    .select({ id: vehicles.id, clientId: vehicles.clientId, plate: vehicles.plate })
    .from(vehicles)
    .where(and(inArray(vehicles.clientId, clientIds), isNull(vehicles.canceledAt)))
    .orderBy(asc(vehicles.plate));
  const rules = await db
    .select({
      clientId: alertRules.clientId,
      vehicleIds: alertRules.vehicleIds,
      fleetIds: alertRules.fleetIds,
      params: alertRules.params,
    })
    .from(alertRules)
    .where(
      and(
        inArray(alertRules.clientId, clientIds),
        eq(alertRules.type, 'OVERSPEED'),
        eq(alertRules.active, true),
        isNull(alertRules.canceledAt),
      ),
    );
  const fleetIds = [...new Set(rules.flatMap((r) => r.fleetIds))];
  const fleetRows =
    fleetIds.length === 0
      ? []
      : await db
          .select({ id: fleets.id, vehicleIds: fleets.vehicleIds })
          .from(fleets)
          .where(inArray(fleets.id, fleetIds));
  const fleetVehicles = new Map(fleetRows.map((f) => [f.id, f.vehicleIds]));
  return rows.map((vehicle) => {
    let limit: number | null = null;
    for (const rule of rules) {
      const value = rule.params.speedLimit;
      if (typeof value !== 'number' || !(value > 0)) continue;
      // A rule of the company (or of one above it, which watches those below it too).
      const everyone = rule.vehicleIds.length === 0 && rule.fleetIds.length === 0;
      const named =
        rule.vehicleIds.includes(vehicle.id) ||
        rule.fleetIds.some((f) => fleetVehicles.get(f)?.includes(vehicle.id));
      if ((everyone || named) && (limit === null || value < limit)) limit = value;
    }
    return { ...vehicle, speedLimit: limit };
  });
}

export interface TaggedDriver {
  id: string;
  clientId: string;
  name: string;
  rfid: string;
}

/** The live drivers of these customers that have a tag. */
export async function taggedDrivers(db: Db, clientIds: string[]): Promise<TaggedDriver[]> {
  if (clientIds.length === 0) return [];
  const rows = await db
    .select({
      id: drivers.id,
      clientId: drivers.clientId,
      name: drivers.completName,
      rfid: drivers.rfidCode,
    })
    .from(drivers)
    .where(
      and(
        inArray(drivers.clientId, clientIds),
        isNull(drivers.canceledAt),
        isNotNull(drivers.rfidCode),
      ),
    );
  return rows.flatMap((r) => (r.rfid ? [{ ...r, rfid: r.rfid }] : []));
}

/**
 * One vehicle's fixes in [from, to), in time order, recorded while it belonged to `clientId`
 * (a vehicle sold on keeps its old fixes with its old owner).
 */
export async function drivingFixes(
  db: Db,
  vehicleId: string,
  clientId: string,
  from: Date,
  to: Date,
): Promise<DrivingFix[]> {
  const rows = await db
    .select({
      at: positions.fixTime,
      speed: positions.speed,
      ignition: positions.ignition,
      rfid: positions.driverRfid,
      alarm: sql<string | null>`${positions.attributes}->>'alarm'`,
      odometer: positions.odometer,
      valid: positions.valid,
    })
    .from(positions)
    .where(
      and(
        eq(positions.vehicleId, vehicleId),
        eq(positions.clientId, clientId),
        gte(positions.fixTime, from),
        lt(positions.fixTime, to),
      ),
    )
    .orderBy(asc(positions.fixTime));
  return rows.map((r) => ({ ...r, at: r.at.getTime() }));
}
