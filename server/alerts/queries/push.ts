/**
 * Push registration tokens: one row a browser, moved to whoever signs in on it. A token is an
 * FCM registration token or a Web Push subscription's JSON (`kind`). Each device (the SHA-256
 * of its token) keeps the alert types it receives. Who receives an alert is decided here with
 * the live stream's audience rule: active users whose customer is the alert's customer or one
 * of its ancestors, a VISITOR only for the vehicles linked to them (so never an alert about a
 * driver, which has no vehicle).
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type AlertType, deviceIdFromDigest } from '../../../src/contract';
import { type Db, rowsOf } from '../../platform/db/client';
import { pushTokens } from '../schema';

export type PushKind = 'fcm' | 'webpush';

export const pushDeviceId = (token: string) =>
  deviceIdFromDigest(createHash('sha256').update(token).digest());

export async function subscribePushToken(db: Db, userId: string, token: string, kind: PushKind) {
  await db
    .insert(pushTokens)
    .values({ token, userId, kind })
    .onConflictDoUpdate({
      target: pushTokens.token,
      // Another user on this browser starts with every type again.
      set: {
        userId,
        kind,
        updatedAt: new Date(),
        alertTypes: sql`case when ${pushTokens.userId} = ${userId} then ${pushTokens.alertTypes} end`,
      },
    });
}

export async function unsubscribePushToken(db: Db, userId: string, token: string) {
  const removed = await db
    .delete(pushTokens)
    .where(and(eq(pushTokens.token, token), eq(pushTokens.userId, userId)))
    .returning({ token: pushTokens.token });
  return removed.length > 0;
}

export async function pushTokensOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ token: pushTokens.token })
    .from(pushTokens)
    .where(eq(pushTokens.userId, userId));
  return rows.map((row) => row.token);
}

export async function pushDevicesOf(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(pushTokens)
    .where(eq(pushTokens.userId, userId))
    .orderBy(pushTokens.createdAt);
  return rows.map((row) => ({
    id: pushDeviceId(row.token),
    token: row.token,
    kind: row.kind,
    alertTypes: (row.alertTypes as AlertType[] | null) ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function setDeviceAlertTypes(db: Db, token: string, alertTypes: AlertType[] | null) {
  await db
    .update(pushTokens)
    .set({ alertTypes, updatedAt: new Date() })
    .where(eq(pushTokens.token, token));
}

export async function removePushTokens(db: Db, tokens: string[]) {
  if (tokens.length === 0) return 0;
  const removed = await db
    .delete(pushTokens)
    .where(inArray(pushTokens.token, tokens))
    .returning({ token: pushTokens.token });
  return removed.length;
}

export interface PushTarget {
  alertId: string;
  token: string;
  kind: PushKind;
}

/**
 * The tokens each alert goes to: every device of every user who sees the alert's customer
 * (its own users and those of its ancestors; a VISITOR only for linked vehicles), whose
 * device takes that alert type. One statement for a whole batch of alerts.
 */
export async function pushTargets(
  db: Db,
  alerts: { id: string; clientId: string; vehicleId: string | null; type: string }[],
): Promise<PushTarget[]> {
  if (alerts.length === 0) return [];
  const input = JSON.stringify(
    alerts.map((a) => ({ id: a.id, client: a.clientId, vehicle: a.vehicleId, type: a.type })),
  );
  const result = await db.execute(sql`
    with recursive input as (
      select * from jsonb_to_recordset(${input}::jsonb)
        as x(id text, client uuid, vehicle uuid, type text)
    ), up(alert_id, client_id) as (
      select i.id, i.client from input i
      union all
      select up.alert_id, c.parent_id from up join clients c on c.id = up.client_id
      where c.parent_id is not null
    )
    select distinct i.id as "alertId", t.token, t.kind
    from input i
    join up on up.alert_id = i.id
    join users u on u.client_id = up.client_id and u.active and u.canceled_at is null
    join push_tokens t on t.user_id = u.id
    where (t.alert_types is null or i.type = any(t.alert_types))
      and (u.role <> 'VISITOR' or exists (
        select 1 from visitor_vehicles vv where vv.user_id = u.id and vv.vehicle_id = i.vehicle
      ))`);
  return rowsOf<PushTarget>(result);
}
