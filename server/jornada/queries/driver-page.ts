/** Drivers' personal links, the sessions opened through them, and the problems drivers report. */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import {
  driverLinks,
  driverReports,
  driverSessions,
  drivers,
  lastLocations,
  vehicles,
} from '../../schema';
import { assignedPeriods } from './assignments';

export type DriverLinkRow = typeof driverLinks.$inferSelect;

/** Each this many wrong PINs in a row lock the link for DRIVER_PIN_LOCK_MS. */
export const DRIVER_PIN_TRIES = 5;
export const DRIVER_PIN_LOCK_MS = 15 * 60_000;

export async function insertDriverLink(db: Db, values: typeof driverLinks.$inferInsert) {
  const [row] = await db.insert(driverLinks).values(values).returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

export function driverLinksOf(db: Db, driverId: string) {
  return db
    .select()
    .from(driverLinks)
    .where(eq(driverLinks.driverId, driverId))
    .orderBy(desc(driverLinks.createdAt));
}

export async function driverLinkById(db: Db, id: string, clientIds: string[]) {
  if (clientIds.length === 0) return undefined;
  const [row] = await db
    .select()
    .from(driverLinks)
    .where(and(eq(driverLinks.id, id), inArray(driverLinks.clientId, clientIds)));
  return row;
}

export async function revokeDriverLink(db: Db, id: string, now = new Date()) {
  const [row] = await db
    .update(driverLinks)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(eq(driverLinks.id, id), isNull(driverLinks.revokedAt)))
    .returning();
  // Sessions opened through it end with it.
  await db.delete(driverSessions).where(eq(driverSessions.linkId, id));
  return row;
}

/** A link by its token's hash, with what the PIN check and the session need of its driver. */
export async function driverLinkByToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      link: driverLinks,
      driverName: drivers.completName,
      driverLive: sql<boolean>`${drivers.active} and ${drivers.canceledAt} is null`,
    })
    .from(driverLinks)
    .innerJoin(drivers, eq(drivers.id, driverLinks.driverId))
    .where(eq(driverLinks.tokenHash, tokenHash));
  return row;
}

/**
 * Counts a wrong PIN in one statement (two wrong PINs at once both count) and, at each
 * DRIVER_PIN_TRIES-th in a row, locks the link until DRIVER_PIN_LOCK_MS from now.
 */
export async function countWrongPin(db: Db, linkId: string, now = new Date()) {
  const lockUntil = new Date(now.getTime() + DRIVER_PIN_LOCK_MS);
  const [row] = await db
    .update(driverLinks)
    .set({
      failedPins: sql`${driverLinks.failedPins} + 1`,
      lockedUntil: sql`case when (${driverLinks.failedPins} + 1) % ${DRIVER_PIN_TRIES} = 0
        then ${lockUntil.toISOString()}::timestamptz else ${driverLinks.lockedUntil} end`,
      updatedAt: now,
    })
    .where(eq(driverLinks.id, linkId))
    .returning();
  return row;
}

/** A right PIN: the count of wrong ones starts again, and a session is opened. */
export async function openDriverSession(db: Db, linkId: string, tokenHash: string) {
  const now = new Date();
  await db
    .update(driverLinks)
    .set({ failedPins: 0, lockedUntil: null, lastUsedAt: now, updatedAt: now })
    .where(eq(driverLinks.id, linkId));
  await db.insert(driverSessions).values({ linkId, tokenHash });
}

/** The session of a token, with its link and driver, whatever their state (the caller decides). */
export async function driverSessionByToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      sessionId: driverSessions.id,
      linkId: driverLinks.id,
      driverId: driverLinks.driverId,
      clientId: driverLinks.clientId,
      expiresAt: driverLinks.expiresAt,
      revokedAt: driverLinks.revokedAt,
      driverName: drivers.completName,
      driverRfid: drivers.rfidCode,
      driverLive: sql<boolean>`${drivers.active} and ${drivers.canceledAt} is null`,
    })
    .from(driverSessions)
    .innerJoin(driverLinks, eq(driverLinks.id, driverSessions.linkId))
    .innerJoin(drivers, eq(drivers.id, driverLinks.driverId))
    .where(eq(driverSessions.tokenHash, tokenHash));
  return row;
}

export async function closeDriverSession(db: Db, sessionId: string) {
  await db.delete(driverSessions).where(eq(driverSessions.id, sessionId));
}

export async function touchDriverSession(db: Db, sessionId: string) {
  await db
    .update(driverSessions)
    .set({ lastSeenAt: new Date() })
    .where(eq(driverSessions.id, sessionId));
}

/**
 * The vehicle a driver is in now: the one of their company whose tracker last read the
 * driver's RFID tag (the newest such last location); with none, the vehicle the driver is
 * assigned to now (server/reports/attribution.ts: a tag read wins over the assignment).
 */
export async function vehicleOfDriver(
  db: Db,
  driver: { clientId: string; driverId: string; driverRfid: string | null },
  now: Date,
) {
  const columns = { id: vehicles.id, plate: vehicles.plate, name: vehicles.name };
  if (driver.driverRfid) {
    const [row] = await db
      .select(columns)
      .from(lastLocations)
      .innerJoin(vehicles, eq(vehicles.id, lastLocations.vehicleId))
      .where(
        and(
          eq(lastLocations.clientId, driver.clientId),
          eq(lastLocations.driverRfid, driver.driverRfid),
          isNull(vehicles.canceledAt),
        ),
      )
      .orderBy(desc(lastLocations.fixTime))
      .limit(1);
    if (row) return row;
  }
  const [period] = await assignedPeriods(
    db,
    { driverIds: [driver.driverId] },
    now,
    new Date(now.getTime() + 1),
  );
  if (!period) return undefined;
  const [assigned] = await db
    .select(columns)
    .from(vehicles)
    .where(
      and(
        eq(vehicles.id, period.vehicleId),
        eq(vehicles.clientId, driver.clientId),
        isNull(vehicles.canceledAt),
      ),
    );
  return assigned;
}

/** Stores a driver's report once: the same id sent again changes nothing. True if new. */
export async function insertDriverReport(db: Db, values: typeof driverReports.$inferInsert) {
  const rows = await db
    .insert(driverReports)
    .values(values)
    .onConflictDoNothing({ target: driverReports.id })
    .returning({ id: driverReports.id });
  return rows.length > 0;
}

/** Whose report an id is (undefined: none). */
export async function driverOfReport(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ driverId: driverReports.driverId })
    .from(driverReports)
    .where(eq(driverReports.id, id));
  return row?.driverId;
}

const reportColumns = {
  id: driverReports.id,
  clientId: driverReports.clientId,
  driverId: driverReports.driverId,
  driverName: drivers.completName,
  vehicleId: driverReports.vehicleId,
  plate: vehicles.plate,
  text: driverReports.text,
  photoType: driverReports.photoType,
  reportedAt: driverReports.reportedAt,
  resolvedAt: driverReports.resolvedAt,
};

/** The reports of these companies, open ones first, newest first; at most `limit`. */
export function driverReportsOf(db: Db, clientIds: string[], limit = 200) {
  if (clientIds.length === 0) return Promise.resolve([]);
  return db
    .select(reportColumns)
    .from(driverReports)
    .innerJoin(drivers, eq(drivers.id, driverReports.driverId))
    .leftJoin(vehicles, eq(vehicles.id, driverReports.vehicleId))
    .where(inArray(driverReports.clientId, clientIds))
    .orderBy(sql`${driverReports.resolvedAt} is not null`, desc(driverReports.reportedAt))
    .limit(limit);
}

export async function driverReportById(db: Db, id: string, clientIds: string[]) {
  if (clientIds.length === 0) return undefined;
  const [row] = await db
    .select(reportColumns)
    .from(driverReports)
    .innerJoin(drivers, eq(drivers.id, driverReports.driverId))
    .leftJoin(vehicles, eq(vehicles.id, driverReports.vehicleId))
    .where(and(eq(driverReports.id, id), inArray(driverReports.clientId, clientIds)));
  return row;
}

export async function resolveDriverReport(db: Db, id: string, userId: string) {
  const [row] = await db
    .update(driverReports)
    .set({ resolvedAt: new Date(), resolvedBy: userId })
    .where(and(eq(driverReports.id, id), isNull(driverReports.resolvedAt)))
    .returning({ id: driverReports.id });
  return row;
}
