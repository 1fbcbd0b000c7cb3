/**
 * Drivers assigned to vehicles for a period ('designação'): the list the routes page through,
 * the clashes a new period would make, and the periods that cover a time (who drove an
 * untagged vehicle, server/reports/attribution.ts).
 */
import { and, eq, gt, inArray, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Filter } from '../../owned/queries';
import type { Db } from '../../platform/db/client';
import type { AssignedPeriod } from '../../reports/attribution';
import { driverAssignments as a, drivers, vehicles } from '../../schema';

interface AssignmentListQuery {
  search: string;
  active?: boolean | undefined;
  driverId?: string | undefined;
  vehicleId?: string | undefined;
}

export const assignmentQueries = {
  table: a,
  sorts: { start: a.startAt, createdAt: a.createdAt, updatedAt: a.updatedAt },
  filters: (q: AssignmentListQuery): Filter[] => [
    // The panel lists one driver's or one vehicle's periods: there is nothing to search.
    q.active === undefined ? undefined : sql`${a.active} = ${q.active}`,
    q.driverId ? eq(a.driverId, q.driverId) : undefined,
    q.vehicleId ? eq(a.vehicleId, q.vehicleId) : undefined,
  ],
};

/** The live periods (not removed, not switched off) that overlap [from, to); to null: ever. */
function overlapping(from: Date, to: Date | null): SQL | undefined {
  return and(
    isNull(a.canceledAt),
    eq(a.active, true),
    to ? lt(a.startAt, to) : undefined,
    or(isNull(a.endAt), gt(a.endAt, from)),
  );
}

export interface Clash {
  id: string;
  plate: string;
  driverName: string;
  startAt: Date;
  endAt: Date | null;
}

/**
 * The first live period that a period of this driver in this vehicle would overlap, of the
 * same vehicle or of the same driver (`except`: the period being changed).
 */
export async function assignmentClash(
  db: Db,
  p: { driverId: string; vehicleId: string; startAt: Date; endAt: Date | null; except?: string },
): Promise<(Clash & { of: 'vehicle' | 'driver' }) | undefined> {
  const rows = await db
    .select({
      id: a.id,
      driverId: a.driverId,
      vehicleId: a.vehicleId,
      plate: vehicles.plate,
      driverName: drivers.completName,
      startAt: a.startAt,
      endAt: a.endAt,
    })
    .from(a)
    .innerJoin(vehicles, eq(vehicles.id, a.vehicleId))
    .innerJoin(drivers, eq(drivers.id, a.driverId))
    .where(
      and(
        overlapping(p.startAt, p.endAt),
        or(eq(a.vehicleId, p.vehicleId), eq(a.driverId, p.driverId)),
        p.except ? ne(a.id, p.except) : undefined,
      ),
    )
    .orderBy(a.startAt)
    .limit(2);
  const vehicle = rows.find((r) => r.vehicleId === p.vehicleId);
  if (vehicle) return { ...vehicle, of: 'vehicle' };
  const driver = rows.find((r) => r.driverId === p.driverId);
  return driver ? { ...driver, of: 'driver' } : undefined;
}

/** Locks the driver's and the vehicle's rows until the transaction ends (see the routes). */
export async function lockAssignmentSubjects(tx: Db, driverId: string, vehicleId: string) {
  await tx.select({ id: drivers.id }).from(drivers).where(eq(drivers.id, driverId)).for('update');
  await tx
    .select({ id: vehicles.id })
    .from(vehicles)
    .where(eq(vehicles.id, vehicleId))
    .for('update');
}

/** Plates and drivers' names of assignments, for the list. */
export async function assignmentLabels(db: Db, driverIds: string[], vehicleIds: string[]) {
  const [people, cars] = await Promise.all([
    driverIds.length === 0
      ? []
      : db
          .select({ id: drivers.id, name: drivers.completName })
          .from(drivers)
          .where(inArray(drivers.id, driverIds)),
    vehicleIds.length === 0
      ? []
      : db
          .select({ id: vehicles.id, plate: vehicles.plate })
          .from(vehicles)
          .where(inArray(vehicles.id, vehicleIds)),
  ]);
  return {
    names: new Map(people.map((p) => [p.id, p.name])),
    plates: new Map(cars.map((c) => [c.id, c.plate])),
  };
}

/** The live periods of these drivers, or of these vehicles, that overlap [from, to). */
export async function assignedPeriods(
  db: Db,
  of: { driverIds?: string[]; vehicleIds?: string[] },
  from: Date,
  to: Date,
): Promise<AssignedPeriod[]> {
  const by = of.driverIds
    ? of.driverIds.length > 0 && inArray(a.driverId, of.driverIds)
    : of.vehicleIds && of.vehicleIds.length > 0 && inArray(a.vehicleId, of.vehicleIds);
  if (!by) return [];
  const rows = await db
    .select({ driverId: a.driverId, vehicleId: a.vehicleId, start: a.startAt, end: a.endAt })
    .from(a)
    .where(and(by, overlapping(from, to)))
    .orderBy(a.startAt);
  return rows.map((r) => ({
    driverId: r.driverId,
    vehicleId: r.vehicleId,
    start: r.start.getTime(),
    end: r.end ? r.end.getTime() : null,
  }));
}

/**
 * The live drivers of these customers assigned to one of their vehicles at some time in
 * [from, to) (with the drivers seen by tag, the candidates of the working-day alerts).
 */
export async function driversAssignedIn(db: Db, clientIds: string[], from: Date, to: Date) {
  if (clientIds.length === 0) return [];
  return db
    .selectDistinct({
      id: drivers.id,
      clientId: drivers.clientId,
      completName: drivers.completName,
      rfidCode: drivers.rfidCode,
    })
    .from(a)
    .innerJoin(drivers, eq(drivers.id, a.driverId))
    .where(
      and(
        inArray(a.clientId, clientIds),
        overlapping(from, to),
        isNull(drivers.canceledAt),
        eq(drivers.active, true),
      ),
    );
}

/** The live drivers of these ids, by id (the assigned drivers of the driving score). */
export async function liveDrivers(
  db: Db,
  ids: string[],
): Promise<Map<string, { id: string; clientId: string; name: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: drivers.id, clientId: drivers.clientId, name: drivers.completName })
    .from(drivers)
    .where(and(inArray(drivers.id, ids), isNull(drivers.canceledAt)));
  return new Map(rows.map((r) => [r.id, r]));
}
