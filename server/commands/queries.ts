/** The command log: every command sent, by whom, through which integration, and its state. */
import { and, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../platform/db/client';
import { commands, trackers, users } from '../schema';

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
    status?: string;
    detail?: string | null;
    payload?: string | null;
    expiresAt?: Date | null;
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

/**
 * The newest commands of a vehicle (or tracker) sent while it belonged to one of `owners`:
 * a vehicle moved to another customer leaves its commands with the old one.
 */
export async function commandsOf(
  db: Db,
  filter: { vehicleId?: string; trackerId?: string },
  owners: readonly string[],
  limit = 50,
): Promise<CommandRow[]> {
  if (owners.length === 0) return [];
  const where = and(
    filter.vehicleId
      ? eq(commands.vehicleId, filter.vehicleId)
      : eq(commands.trackerId, filter.trackerId ?? ''),
    inArray(commands.clientId, [...owners]),
  );
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

// ── Delivery to our own trackers (Wialon IPS downlink) ────────────────────────────────────

export interface ClaimedCommand {
  id: string;
  trackerId: string;
  payload: string;
}

/**
 * Takes the pending, unexpired commands of these trackers for sending, oldest first, and
 * marks them sent. `skip locked`: when several server processes poll at once, each command
 * is taken by one of them only.
 */
export async function claimPending(
  db: Db,
  trackerIds: string[],
  detail: string,
  now = new Date(),
): Promise<ClaimedCommand[]> {
  if (trackerIds.length === 0) return [];
  const at = now.toISOString();
  const rows = rowsOf<{ id: string; tracker_id: string; payload: string | null }>(
    await db.execute(sql`
      update commands set status = 'sent', sent_at = ${at}::timestamptz,
          updated_at = ${at}::timestamptz, detail = ${detail}
        where id in (
          select id from commands
            where tracker_id in (${sql.join(
              trackerIds.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})
              and integration = 'rastro' and status = 'pending' and payload is not null
              and (expires_at is null or expires_at > ${at}::timestamptz)
            order by created_at
            for update skip locked)
        returning id, tracker_id, payload`),
  );
  return rows.flatMap((row) =>
    row.payload ? [{ id: row.id, trackerId: row.tracker_id, payload: row.payload }] : [],
  );
}

/** A claimed command whose line could not be written (the device left): pending again. */
export async function unclaim(db: Db, id: string, detail: string) {
  await db
    .update(commands)
    .set({ status: 'pending', sentAt: null, detail, updatedAt: new Date() })
    .where(and(eq(commands.id, id), eq(commands.status, 'sent')));
}

/** Sent commands of a tracker still waiting for the device to show them done. */
export async function awaitingConfirmation(db: Db, trackerId: string) {
  return db
    .select({ id: commands.id, payload: commands.payload, sentAt: commands.sentAt })
    .from(commands)
    .where(
      and(
        eq(commands.trackerId, trackerId),
        eq(commands.status, 'sent'),
        eq(commands.integration, 'rastro'),
      ),
    );
}

/** Confirms sent commands; returns those this call confirmed (none twice, any process). */
export async function confirmCommands(db: Db, ids: string[], detail: string) {
  if (ids.length === 0) return [];
  return db
    .update(commands)
    .set({ status: 'confirmed', detail, updatedAt: new Date() })
    .where(and(inArray(commands.id, ids), eq(commands.status, 'sent')))
    .returning({ id: commands.id, vehicleId: commands.vehicleId, kind: commands.kind });
}

/** Fails sent commands the device refused; returns how many this call failed. */
export async function failCommands(db: Db, ids: string[], detail: string) {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(commands)
    .set({ status: 'failed', detail, updatedAt: new Date() })
    .where(and(inArray(commands.id, ids), eq(commands.status, 'sent')))
    .returning({ id: commands.id });
  return rows.length;
}

/**
 * Ends what waited too long: pending commands past their expiry become 'expired', sent ones
 * not confirmed within `confirmTimeoutMs` become 'failed'. Safe to run in every process.
 */
export async function closeOverdue(
  db: Db,
  confirmTimeoutMs: number,
  details: { expired: string; unconfirmed: string },
  now = new Date(),
) {
  const at = now.toISOString();
  const expired = await db
    .update(commands)
    .set({ status: 'expired', detail: details.expired, updatedAt: now })
    .where(
      and(
        eq(commands.integration, 'rastro'),
        eq(commands.status, 'pending'),
        lte(commands.expiresAt, now),
      ),
    )
    .returning({ id: commands.id });
  const failed = await db
    .update(commands)
    .set({ status: 'failed', detail: details.unconfirmed, updatedAt: now })
    .where(
      and(
        eq(commands.integration, 'rastro'),
        eq(commands.status, 'sent'),
        sql`${commands.sentAt} <= ${at}::timestamptz - make_interval(secs => ${confirmTimeoutMs / 1000})`,
      ),
    )
    .returning({ id: commands.id });
  return { expired: expired.length, failed: failed.length };
}

/**
 * How a tracker talks to us, to know whether it can take a command: its type's protocol
 * when it has a type, else the protocol of its last fix; undefined when neither is known.
 */
export async function trackerProtocol(
  db: Db,
  trackerId: string,
): Promise<{ protocol: string | undefined; passwordSet: boolean }> {
  const [row] = rowsOf<{
    protocol: string | null;
    type_protocol: string | null;
    last_protocol: string | null;
    password_set: boolean;
  }>(
    await db.execute(sql`
      select t.protocol, tt.protocol as type_protocol, l.protocol as last_protocol,
             t.wialon_password_hash is not null as password_set
        from trackers t
        left join tracker_types tt on tt.id = t.tracker_type_id
        left join last_locations l on l.tracker_id = t.id
        where t.id = ${trackerId}::uuid`),
  );
  const typed = row?.type_protocol;
  const protocol =
    row?.protocol ?? (typed && typed !== 'other' ? typed : row?.last_protocol) ?? undefined;
  return { protocol, passwordSet: row?.password_set ?? false };
}
