/**
 * Geofences and their vehicle associations. Geofences are customer-owned records (the shared
 * helpers of ../owned/queries.ts scope them by customer and soft-delete them); the mirror sync
 * reads what changed since an instant plus the ids of every live one, so a device drops removed
 * geofences without tombstones in the wire shape.
 */
import { and, asc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { containsAny } from '../owned/queries';
import { type Db, rowsOf } from '../platform/db/client';
import { bareArray } from '../platform/db/pg-arrays';
import { vehicles } from '../schema';
import { geofences, geofenceVehicles } from './schema';

export type GeofenceRow = typeof geofences.$inferSelect;
export type AssociationRow = typeof geofenceVehicles.$inferSelect;

export const geofenceQueries = {
  table: geofences,
  sorts: {
    name: sql`lower(${geofences.name})`,
    createdAt: geofences.createdAt,
    updatedAt: geofences.updatedAt,
  },
  filters: (q: { search: string }) => [
    containsAny(q.search, [geofences.name, geofences.description]),
  ],
};

/** Live geofences changed at or after `since` (to the millisecond), oldest change first. */
export async function geofencesChangedSince(
  db: Db,
  clientIds: string[],
  since: Date,
  limit: number,
): Promise<GeofenceRow[]> {
  if (clientIds.length === 0) return [];
  return db
    .select()
    .from(geofences)
    .where(
      and(
        inArray(geofences.clientId, clientIds),
        isNull(geofences.canceledAt),
        gte(
          sql`date_trunc('milliseconds', ${geofences.updatedAt})`,
          sql`${since.toISOString()}::timestamptz`,
        ),
      ),
    )
    .orderBy(asc(geofences.updatedAt), asc(geofences.id))
    .limit(limit);
}

export async function liveGeofenceIds(db: Db, clientIds: string[]): Promise<string[]> {
  if (clientIds.length === 0) return [];
  const rows = await db
    .select({ id: geofences.id })
    .from(geofences)
    .where(and(inArray(geofences.clientId, clientIds), isNull(geofences.canceledAt)));
  return rows.map((row) => row.id);
}

/** Live geofences among these ids, within the customers given. */
export async function geofencesIn(db: Db, ids: string[], clientIds: string[]) {
  if (ids.length === 0 || clientIds.length === 0) return [];
  return db
    .select({ id: geofences.id, clientId: geofences.clientId })
    .from(geofences)
    .where(
      and(
        inArray(geofences.id, ids),
        inArray(geofences.clientId, clientIds),
        isNull(geofences.canceledAt),
      ),
    );
}

/** Live vehicles among these ids, within the customers given, with their customer. */
export async function vehiclesIn(db: Db, ids: string[], clientIds: string[]) {
  if (ids.length === 0 || clientIds.length === 0) return [];
  return db
    .select({ id: vehicles.id, clientId: vehicles.clientId })
    .from(vehicles)
    .where(
      and(
        inArray(vehicles.id, ids),
        inArray(vehicles.clientId, clientIds),
        isNull(vehicles.canceledAt),
      ),
    );
}

export async function associationsOf(
  db: Db,
  filter: { geofenceIds?: string[]; vehicleIds?: string[] },
): Promise<AssociationRow[]> {
  const where = and(
    filter.geofenceIds ? inArray(geofenceVehicles.geofenceId, filter.geofenceIds) : undefined,
    filter.vehicleIds ? inArray(geofenceVehicles.vehicleId, filter.vehicleIds) : undefined,
  );
  if (filter.geofenceIds?.length === 0 || filter.vehicleIds?.length === 0) return [];
  return db
    .select()
    .from(geofenceVehicles)
    .where(where)
    .orderBy(asc(geofenceVehicles.createdAt), asc(geofenceVehicles.id));
}

export interface AssociationValues {
  vehicleId: string;
  restrictionType: string;
  startTime: string | null;
  endTime: string | null;
  weekdays: number[];
}

/** Associates vehicles with a geofence; a vehicle already associated gets the new rule. */
export async function upsertAssociations(
  db: Db,
  geofenceId: string,
  list: AssociationValues[],
): Promise<void> {
  if (list.length === 0) return;
  const now = new Date();
  await db
    .insert(geofenceVehicles)
    .values(list.map((a) => ({ ...a, geofenceId, createdAt: now, updatedAt: now })))
    .onConflictDoUpdate({
      target: [geofenceVehicles.geofenceId, geofenceVehicles.vehicleId],
      set: {
        restrictionType: sql`excluded.restriction_type`,
        startTime: sql`excluded.start_time`,
        endTime: sql`excluded.end_time`,
        weekdays: sql`excluded.weekdays`,
        updatedAt: now,
      },
    });
}

export async function associationById(db: Db, id: string): Promise<AssociationRow | undefined> {
  const [row] = await db.select().from(geofenceVehicles).where(eq(geofenceVehicles.id, id));
  return row;
}

export async function deleteAssociation(db: Db, id: string): Promise<void> {
  await db.delete(geofenceVehicles).where(eq(geofenceVehicles.id, id));
}

/** Live geofences of these customers with their geometry (the geofence reports). */
export async function geofenceShapes(db: Db, clientIds: string[]) {
  if (clientIds.length === 0) return [];
  return db
    .select({
      id: geofences.id,
      name: geofences.name,
      speedLimit: geofences.speedLimit,
      geometry: geofences.geometry,
    })
    .from(geofences)
    .where(and(inArray(geofences.clientId, clientIds), isNull(geofences.canceledAt)));
}

/** Live vehicles of these customers, by plate (the vehicles one geofence's report covers). */
export async function vehiclesOfClients(db: Db, clientIds: string[]) {
  if (clientIds.length === 0) return [];
  return db
    .select({ id: vehicles.id, plate: vehicles.plate })
    .from(vehicles)
    .where(and(inArray(vehicles.clientId, clientIds), isNull(vehicles.canceledAt)))
    .orderBy(asc(vehicles.plate));
}

/**
 * The fixes of these vehicles in [from, to), by vehicle and time, that a geofence report
 * needs: those inside any of the boxes ([minLon, minLat, maxLon, maxLat]), each vehicle's
 * first and last, and the first outside after each run inside. Without boxes, every fix.
 * Only fixes recorded while the vehicle belonged to one of `owners` (the reader's customers).
 */
export async function fixesAroundBoxes(
  db: Db,
  vehicleIds: string[],
  owners: readonly string[],
  boxes: (readonly [number, number, number, number])[] | undefined,
  from: Date,
  to: Date,
) {
  if (vehicleIds.length === 0 || owners.length === 0) return [];
  const inBox =
    boxes === undefined
      ? sql`true`
      : boxes.length === 0
        ? sql`false`
        : sql.join(
            boxes.map(
              ([minX, minY, maxX, maxY]) =>
                sql`(longitude between ${minX} and ${maxX} and latitude between ${minY} and ${maxY})`,
            ),
            sql` or `,
          );
  return rowsOf<{
    vehicle_id: string;
    fix_time: string | Date;
    latitude: number;
    longitude: number;
  }>(
    await db.execute(sql`
      select vehicle_id, fix_time, latitude, longitude from (
        select vehicle_id, fix_time, latitude, longitude, inbox,
          lag(inbox) over (partition by vehicle_id order by fix_time) as previous,
          row_number() over (partition by vehicle_id order by fix_time desc) as from_end
        from (
          select vehicle_id, fix_time, latitude, longitude, (${inBox}) as inbox
          from positions
          where vehicle_id in (${sql.join(
            vehicleIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
            and client_id = any(${bareArray([...owners])}::uuid[])
            and fix_time >= ${from.toISOString()}::timestamptz
            and fix_time < ${to.toISOString()}::timestamptz
        ) boxed
      ) marked
      where inbox or previous is null or previous or from_end = 1
      order by vehicle_id, fix_time`),
  );
}
