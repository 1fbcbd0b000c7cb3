/** The command log: every command sent, by whom, through which integration, and its state. */
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from './client';
import { commands, trackers, users } from './schema';

export type CommandRow = typeof commands.$inferSelect & { userName: string | null };

export async function insertCommand(
  db: Db,
  values: {
    clientId: string;
    vehicleId: string | null;
    trackerId: string | null;
    kind: string;
    integration: string;
    userId: string;
  },
) {
  const [row] = await db.insert(commands).values(values).returning({ id: commands.id });
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

export async function setCommandStatus(db: Db, id: string, status: string, detail: string | null) {
  await db
    .update(commands)
    .set({ status, detail, updatedAt: new Date() })
    .where(eq(commands.id, id));
}

export async function commandsOf(
  db: Db,
  filter: { vehicleId?: string; trackerId?: string },
  limit = 50,
): Promise<CommandRow[]> {
  const where = filter.vehicleId
    ? eq(commands.vehicleId, filter.vehicleId)
    : eq(commands.trackerId, filter.trackerId ?? '');
  const rows = await db
    .select({ command: commands, userName: users.name })
    .from(commands)
    .leftJoin(users, eq(users.id, commands.userId))
    .where(where)
    .orderBy(desc(commands.createdAt))
    .limit(limit);
  return rows.map((row) => ({ ...row.command, userName: row.userName }));
}

export async function commandById(db: Db, id: string): Promise<CommandRow | undefined> {
  const [row] = await db
    .select({ command: commands, userName: users.name })
    .from(commands)
    .leftJoin(users, eq(users.id, commands.userId))
    .where(eq(commands.id, id));
  return row ? { ...row.command, userName: row.userName } : undefined;
}

/** The live, enabled trackers installed in a vehicle, newest first. */
export async function trackersOfVehicle(db: Db, vehicleId: string) {
  return db
    .select()
    .from(trackers)
    .where(
      and(
        eq(trackers.vehicleId, vehicleId),
        isNull(trackers.canceledAt),
        eq(trackers.enabled, true),
      ),
    )
    .orderBy(desc(trackers.createdAt));
}

export async function setTrackerFlags(
  db: Db,
  id: string,
  values: { enabled?: boolean; activatedAt?: Date; active?: boolean },
) {
  await db
    .update(trackers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(trackers.id, id));
}
