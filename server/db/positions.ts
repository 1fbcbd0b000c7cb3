/**
 * Positions and last locations. A batch of fixes of one tracker is stored in one
 * transaction: the fixes (a repeated fix is ignored by its key) and the tracker's last
 * location, moved forward only when a newer fix arrives.
 */
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from './client';
import { drivers, fleets, lastLocations, positions, trackers, vehicles } from './schema';

export interface TrackerRef {
  id: string;
  clientId: string;
  vehicleId: string | null;
}

export interface Fix {
  fixTime: Date;
  latitude: number;
  longitude: number;
  speed?: number | undefined;
  course?: number | undefined;
  altitude?: number | undefined;
  accuracy?: number | undefined;
  ignition?: boolean | undefined;
  battery?: number | undefined;
  driverRfid?: string | undefined;
  attributes: Record<string, unknown>;
}

export async function trackerByIdentifier(
  db: Db,
  identifier: string,
): Promise<TrackerRef | undefined> {
  const [row] = await db
    .select({ id: trackers.id, clientId: trackers.clientId, vehicleId: trackers.vehicleId })
    .from(trackers)
    .where(
      and(
        eq(trackers.identifier, identifier),
        isNull(trackers.canceledAt),
        eq(trackers.active, true),
      ),
    );
  return row;
}

export async function lastFixOf(db: Db, trackerId: string) {
  const [row] = await db.select().from(lastLocations).where(eq(lastLocations.trackerId, trackerId));
  return row;
}

/** Stores the fixes and moves the last location; returns how many fixes were new. */
export async function storeFixes(db: Db, tracker: TrackerRef, fixes: Fix[]): Promise<number> {
  if (fixes.length === 0) return 0;
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(positions)
      .values(
        fixes.map((f) => ({
          trackerId: tracker.id,
          vehicleId: tracker.vehicleId,
          clientId: tracker.clientId,
          fixTime: f.fixTime,
          latitude: f.latitude,
          longitude: f.longitude,
          speed: f.speed,
          course: f.course,
          altitude: f.altitude,
          accuracy: f.accuracy,
          ignition: f.ignition,
          battery: f.battery,
          attributes: f.attributes,
        })),
      )
      .onConflictDoNothing()
      .returning({ fixTime: positions.fixTime });
    const newest = fixes.reduce((a, b) => (b.fixTime > a.fixTime ? b : a));
    const values = {
      trackerId: tracker.id,
      vehicleId: tracker.vehicleId,
      clientId: tracker.clientId,
      fixTime: newest.fixTime,
      receivedAt: new Date(),
      latitude: newest.latitude,
      longitude: newest.longitude,
      speed: newest.speed ?? null,
      course: newest.course ?? null,
      ignition: newest.ignition ?? null,
      battery: newest.battery ?? null,
      driverRfid: newest.driverRfid ?? null,
    };
    await tx
      .insert(lastLocations)
      .values(values)
      .onConflictDoUpdate({
        target: lastLocations.trackerId,
        set: values,
        setWhere: sql`${lastLocations.fixTime} < excluded.fix_time`,
      });
    return inserted.length;
  });
}

/** Only these ids, or nothing at all for an empty list; no filter when undefined. */
function within(
  column: typeof lastLocations.vehicleId | typeof lastLocations.trackerId,
  ids: string[] | undefined,
) {
  if (!ids) return undefined;
  return ids.length ? inArray(column, ids) : sql`false`;
}

export async function lastLocationsOf(
  db: Db,
  clientIds: string[],
  filter: {
    vehicleIds?: string[] | undefined;
    trackerIds?: string[] | undefined;
    receivedAfter?: Date | undefined;
  } = {},
) {
  if (clientIds.length === 0) return [];
  return db
    .select()
    .from(lastLocations)
    .where(
      and(
        inArray(lastLocations.clientId, clientIds),
        within(lastLocations.vehicleId, filter.vehicleIds),
        within(lastLocations.trackerId, filter.trackerIds),
        filter.receivedAfter ? gt(lastLocations.receivedAt, filter.receivedAfter) : undefined,
      ),
    );
}

/** Names shown with last locations: vehicles (name, plate, type) and drivers by RFID. */
export async function vehiclesAndDrivers(db: Db, vehicleIds: string[], rfids: string[]) {
  const [vehicleRows, driverRows] = await Promise.all([
    vehicleIds.length
      ? db
          .select({
            id: vehicles.id,
            name: vehicles.name,
            plate: vehicles.plate,
            type: vehicles.type,
          })
          .from(vehicles)
          .where(inArray(vehicles.id, vehicleIds))
      : Promise.resolve([]),
    rfids.length
      ? db
          .select({ rfid: drivers.rfidCode, name: drivers.completName })
          .from(drivers)
          .where(and(inArray(drivers.rfidCode, rfids), isNull(drivers.canceledAt)))
      : Promise.resolve([]),
  ]);
  return { vehicles: vehicleRows, drivers: driverRows };
}

export async function fleetVehicleIds(
  db: Db,
  fleetIds: string[],
  clientIds: string[],
): Promise<string[]> {
  if (fleetIds.length === 0 || clientIds.length === 0) return [];
  const rows = await db
    .select({ ids: fleets.vehicleIds })
    .from(fleets)
    .where(
      and(
        inArray(fleets.id, fleetIds),
        inArray(fleets.clientId, clientIds),
        isNull(fleets.canceledAt),
      ),
    );
  return rows.flatMap((row) => row.ids);
}
