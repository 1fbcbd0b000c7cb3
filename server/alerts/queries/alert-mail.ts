/**
 * The alert e-mail outbox (server/alerts/mail.ts): claims of ended minutes with a lease (`for
 * update skip locked`, so two processes never take the same rows, and a claim whose process
 * died expires), the alerts of a claim with what the message shows, and the end of a claim.
 */
import { inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../platform/db/client';
import { alertMailOutbox } from '../schema';

export interface ClaimedMail {
  id: string;
  alertId: string;
  ruleId: string;
  minute: Date;
  attempts: number;
}

/** Claims up to `limit` rows of minutes that ended before `cutoff`, until `leaseUntil`. */
export async function claimMail(
  db: Db,
  cutoff: Date,
  now: Date,
  leaseUntil: Date,
  limit = 2000,
): Promise<ClaimedMail[]> {
  const rows = rowsOf<{
    id: string;
    alert_id: string;
    rule_id: string;
    minute: string | Date;
    attempts: number;
  }>(
    await db.execute(sql`
      update alert_mail_outbox as o set claimed_until = ${leaseUntil.toISOString()}::timestamptz
       where o.id in (
         select id from alert_mail_outbox
          where minute < ${cutoff.toISOString()}::timestamptz
            and (claimed_until is null or claimed_until < ${now.toISOString()}::timestamptz)
          order by rule_id, minute
          limit ${limit}
          for update skip locked)
      returning o.id, o.alert_id, o.rule_id, o.minute, o.attempts`),
  );
  return rows.map((row) => ({
    id: row.id,
    alertId: row.alert_id,
    ruleId: row.rule_id,
    minute: new Date(row.minute),
    attempts: Number(row.attempts),
  }));
}

export interface MailAlertRow {
  id: string;
  type: string;
  ruleId: string | null;
  ruleName: string | null;
  emailDelivery: string | null;
  plate: string | null;
  vehicleName: string | null;
  /** Null for an alert about a driver (a driver's document expiring). */
  vehicleId: string | null;
  driverId: string | null;
  driverName: string | null;
  latitude: number | null;
  longitude: number | null;
  speed: number | null;
  fixTime: Date | null;
  createdAt: Date;
  details: Record<string, unknown>;
}

export async function alertsForMail(db: Db, alertIds: string[]): Promise<MailAlertRow[]> {
  if (alertIds.length === 0) return [];
  const rows = rowsOf<{
    id: string;
    type: string;
    rule_id: string | null;
    rule_name: string | null;
    email_delivery: string | null;
    plate: string | null;
    vehicle_name: string | null;
    vehicle_id: string | null;
    driver_id: string | null;
    driver_name: string | null;
    latitude: number | null;
    longitude: number | null;
    speed: number | null;
    fix_time: string | Date | null;
    created_at: string | Date;
    details: Record<string, unknown> | null;
  }>(
    await db.execute(sql`
      select a.id, a.type, a.rule_id, r.name as rule_name, r.email_delivery, v.plate,
             v.name as vehicle_name, a.vehicle_id, a.driver_id, d.complet_name as driver_name,
             a.latitude, a.longitude, a.speed, a.fix_time, a.created_at, a.details
        from alerts a
        left join alert_rules r on r.id = a.rule_id
        left join vehicles v on v.id = a.vehicle_id
        left join drivers d on d.id = a.driver_id
       where a.id = any(${`{${alertIds.join(',')}}`}::uuid[])
       order by a.fix_time nulls last, a.created_at`),
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    emailDelivery: row.email_delivery,
    plate: row.plate,
    vehicleName: row.vehicle_name,
    vehicleId: row.vehicle_id,
    driverId: row.driver_id,
    driverName: row.driver_name,
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    speed: row.speed === null ? null : Number(row.speed),
    fixTime: row.fix_time ? new Date(row.fix_time) : null,
    createdAt: new Date(row.created_at),
    details: row.details ?? {},
  }));
}

export async function finishMail(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(alertMailOutbox).where(inArray(alertMailOutbox.id, ids));
}

/** A failed send: tried again after `retryAt`. */
export async function retryMail(db: Db, ids: string[], retryAt: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(alertMailOutbox)
    .set({ claimedUntil: retryAt, attempts: sql`${alertMailOutbox.attempts} + 1` })
    .where(inArray(alertMailOutbox.id, ids));
}
