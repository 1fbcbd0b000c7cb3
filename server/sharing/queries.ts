/** Visitor vehicle links and temporary shared links. */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { vehicles } from '../schema';
import { temporaryUsers, visitorVehicles } from './schema';

export async function linkedVehicleIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: visitorVehicles.vehicleId })
    .from(visitorVehicles)
    .where(eq(visitorVehicles.userId, userId));
  return rows.map((row) => row.id);
}

export async function linkVehicle(db: Db, userId: string, vehicleId: string) {
  await db.insert(visitorVehicles).values({ userId, vehicleId }).onConflictDoNothing();
}

export async function unlinkVehicle(db: Db, userId: string, vehicleId: string): Promise<boolean> {
  const rows = await db
    .delete(visitorVehicles)
    .where(and(eq(visitorVehicles.userId, userId), eq(visitorVehicles.vehicleId, vehicleId)))
    .returning({ id: visitorVehicles.vehicleId });
  return rows.length > 0;
}

export async function liveVehicles(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(vehicles)
    .where(and(inArray(vehicles.id, ids), isNull(vehicles.canceledAt)))
    .orderBy(vehicles.plate);
}

export type TemporaryUserRow = typeof temporaryUsers.$inferSelect;

export async function insertTemporaryUser(db: Db, values: typeof temporaryUsers.$inferInsert) {
  const [row] = await db.insert(temporaryUsers).values(values).returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

export async function temporaryUsersOf(db: Db, clientIds: string[]) {
  if (clientIds.length === 0) return [];
  return db
    .select()
    .from(temporaryUsers)
    .where(inArray(temporaryUsers.clientId, clientIds))
    .orderBy(desc(temporaryUsers.createdAt));
}

export async function temporaryUserById(db: Db, id: string, clientIds: string[]) {
  if (clientIds.length === 0) return undefined;
  const [row] = await db
    .select()
    .from(temporaryUsers)
    .where(and(eq(temporaryUsers.id, id), inArray(temporaryUsers.clientId, clientIds)));
  return row;
}

export async function temporaryUserByToken(db: Db, token: string) {
  const [row] = await db.select().from(temporaryUsers).where(eq(temporaryUsers.token, token));
  return row;
}

export async function updateTemporaryUser(
  db: Db,
  id: string,
  values: Partial<typeof temporaryUsers.$inferInsert>,
) {
  const [row] = await db
    .update(temporaryUsers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(temporaryUsers.id, id))
    .returning();
  return row;
}
