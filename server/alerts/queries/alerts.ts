/**
 * Alerts as the API shows them: scoped to the customers (and, for a Terceiro, the vehicles)
 * the caller sees, with the vehicle's (or, for an alert about a driver, the driver's) and
 * rule's names and who acknowledged. Acknowledging sets who and when once: an alert
 * acknowledged stays as it was.
 */
import { and, asc, count, desc, eq, gte, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { type Alert, type AlertType, alertDocument } from '../../../src/contract';
import type { Db } from '../../platform/db/client';
import { bareArray, textArray } from '../../platform/db/pg-arrays';
import { drivers, users, vehicles } from '../../schema';
import { alertRules, alerts } from '../schema';

export interface AlertScope {
  clientIds: string[];
  /**
   * A Terceiro's linked vehicles; undefined for everyone else. Whoever is limited to some
   * vehicles sees no alert about a driver (a driver's document): a driver belongs to no
   * vehicle, and a Terceiro sees nobody's drivers.
   */
  vehicleIds?: string[] | undefined;
}

export interface AlertFilter {
  vehicleId?: string | undefined;
  type?: string | undefined;
  acknowledged?: boolean | undefined;
  beginAt?: Date | undefined;
  endAt?: Date | undefined;
}

function where(scope: AlertScope, filter: AlertFilter = {}): SQL | undefined {
  if (scope.clientIds.length === 0 || scope.vehicleIds?.length === 0) return sql`false`;
  return and(
    inArray(alerts.clientId, scope.clientIds),
    // `in` is never true of a null vehicle: the alerts about drivers stay out.
    scope.vehicleIds ? inArray(alerts.vehicleId, scope.vehicleIds) : undefined,
    filter.vehicleId ? eq(alerts.vehicleId, filter.vehicleId) : undefined,
    filter.type ? eq(alerts.type, filter.type) : undefined,
    filter.acknowledged === undefined
      ? undefined
      : filter.acknowledged
        ? sql`${alerts.acknowledgedAt} is not null`
        : isNull(alerts.acknowledgedAt),
    filter.beginAt ? gte(alerts.createdAt, filter.beginAt) : undefined,
    filter.endAt ? lte(alerts.createdAt, filter.endAt) : undefined,
  );
}

const columns = {
  id: alerts.id,
  type: alerts.type,
  vehicleId: alerts.vehicleId,
  plate: vehicles.plate,
  vehicleName: vehicles.name,
  driverId: alerts.driverId,
  driverName: drivers.completName,
  details: alerts.details,
  ruleId: alerts.ruleId,
  ruleName: alertRules.name,
  latitude: alerts.latitude,
  longitude: alerts.longitude,
  speed: alerts.speed,
  fixTime: alerts.fixTime,
  createdAt: alerts.createdAt,
  updatedAt: alerts.updatedAt,
  acknowledgedAt: alerts.acknowledgedAt,
  acknowledgedBy: users.name,
  late: alerts.late,
};

function joined(db: Db) {
  return db
    .select(columns)
    .from(alerts)
    .leftJoin(vehicles, eq(vehicles.id, alerts.vehicleId))
    .leftJoin(drivers, eq(drivers.id, alerts.driverId))
    .leftJoin(alertRules, eq(alertRules.id, alerts.ruleId))
    .leftJoin(users, eq(users.id, alerts.acknowledgedBy));
}
export type AlertRow = Awaited<ReturnType<ReturnType<typeof joined>['execute']>>[number];

const SORTS = {
  // An alert about a driver sorts by the driver's name.
  name: sql`lower(coalesce(${vehicles.name}, ${drivers.completName}))`,
  createdAt: alerts.createdAt,
  updatedAt: alerts.updatedAt,
};

export async function listAlerts(
  db: Db,
  scope: AlertScope,
  filter: AlertFilter,
  page: { page: number; limit: number; sort: keyof typeof SORTS; order: 'asc' | 'desc' },
) {
  const condition = where(scope, filter);
  const direction = page.order === 'desc' ? desc : asc;
  const [rows, totals] = await Promise.all([
    joined(db)
      .where(condition)
      .orderBy(direction(SORTS[page.sort]), direction(alerts.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(alerts).where(condition),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function alertById(db: Db, scope: AlertScope, id: string) {
  const [row] = await joined(db).where(and(where(scope), eq(alerts.id, id)));
  return row;
}

/** How many of these ids the scope holds. */
export async function countVisible(db: Db, scope: AlertScope, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(alerts)
    .where(and(where(scope), inArray(alerts.id, ids)));
  return row?.n ?? 0;
}

/** Acknowledges the open alerts among `ids` (or all in scope); returns how many it did. */
export async function acknowledge(
  db: Db,
  scope: AlertScope,
  userId: string,
  ids?: string[],
): Promise<number> {
  const now = new Date();
  const rows = await db
    .update(alerts)
    .set({ acknowledgedAt: now, acknowledgedBy: userId, updatedAt: now })
    .where(
      and(where(scope), ids ? inArray(alerts.id, ids) : undefined, isNull(alerts.acknowledgedAt)),
    )
    .returning({ id: alerts.id });
  return rows.length;
}

/**
 * The channel of the notice "these alerts were raised" (their ids), for
 * server/realtime/feed.ts.
 */
export const ALERTS_CHANNEL = 'rastro_alerts';
/** Ids per notice: 200 ids are ~7.4 KB, under PostgreSQL's 8,000-byte payload. */
const IDS_PER_NOTICE = 200;

/**
 * Tells every process (at the commit of `tx`) that these alerts were raised: one notice per
 * IDS_PER_NOTICE ids, all sent by one statement (a batch raising 1,000 alerts made five
 * round trips inside its transaction).
 */
export async function notifyAlerts(tx: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const notices: string[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_NOTICE)
    notices.push(ids.slice(i, i + IDS_PER_NOTICE).join(','));
  await tx.execute(
    sql`select pg_notify(${ALERTS_CHANNEL}, notice)
          from unnest(${textArray(notices)}::text[]) as notice`,
  );
}

/** Alerts by id, in the order given, with their customer (the live stream scopes them). */
export async function alertsByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ ...columns, clientId: alerts.clientId })
    .from(alerts)
    .leftJoin(vehicles, eq(vehicles.id, alerts.vehicleId))
    .leftJoin(drivers, eq(drivers.id, alerts.driverId))
    .leftJoin(alertRules, eq(alertRules.id, alerts.ruleId))
    .leftJoin(users, eq(users.id, alerts.acknowledgedBy))
    // One array parameter, not one parameter per id (up to IDS_PER_NOTICE of them).
    .where(sql`${alerts.id} = any(${bareArray(ids)}::uuid[])`);
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/**
 * The alerts of these vehicles in [from, to) by the time of their fix (or of raising), raised
 * while the vehicle belonged to one of `owners`.
 */
export async function alertsOfVehicles(
  db: Db,
  vehicleIds: string[],
  owners: readonly string[],
  from: Date,
  to: Date,
) {
  if (vehicleIds.length === 0 || owners.length === 0) return [];
  const time = sql<Date>`coalesce(${alerts.fixTime}, ${alerts.createdAt})`;
  const rows = await db
    .select({
      id: alerts.id,
      vehicleId: alerts.vehicleId,
      type: alerts.type,
      time,
      latitude: alerts.latitude,
      longitude: alerts.longitude,
    })
    .from(alerts)
    .where(
      and(
        inArray(alerts.vehicleId, vehicleIds),
        inArray(alerts.clientId, [...owners]),
        sql`${time} >= ${from.toISOString()}::timestamptz`,
        sql`${time} < ${to.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(time), asc(alerts.id));
  // Every row has a vehicle (chosen by it); the filter tells the type so.
  return rows.flatMap(({ vehicleId, ...row }) =>
    vehicleId ? [{ ...row, vehicleId, time: new Date(row.time).toISOString() }] : [],
  );
}

/** An alert row in its wire shape (SPEC §7), for the API and the live stream alike. */
export function alertOut(row: AlertRow): Alert {
  return {
    id: row.id,
    type: row.type as AlertType,
    vehicleId: row.vehicleId,
    plate: row.plate,
    vehicleName: row.vehicleName,
    driverId: row.driverId,
    driverName: row.driverName,
    document: alertDocument(row.type, row.details),
    ruleId: row.ruleId,
    ruleName: row.ruleName,
    latitude: row.latitude,
    longitude: row.longitude,
    speed: row.speed,
    fixTime: row.fixTime?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: row.acknowledgedBy,
    late: row.late,
  };
}
