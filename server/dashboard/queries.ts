/**
 * The dashboard's figures (src/contract/dashboard.ts), each one query over the customer ids
 * the caller sees, counted by PostgreSQL (never rows brought to Node): fast on 10,000
 * trackers (bench part 'dashboard'). A vehicle's state now follows src/lib/vehicle-state.ts
 * (the map's), written here in SQL with the same thresholds.
 */
import { sql } from 'drizzle-orm';
import type { ActivityCounts, DashboardActivity } from '../../src/contract';
import { dayStart, reportDay } from '../../src/lib/report-period';
import { TIME_ZONE } from '../../src/lib/schedule';
import {
  MOVING_KMH,
  NO_SIGNAL_MINUTES,
  REPORT_INTERVAL_SECONDS,
  STALE_AFTER_INTERVALS,
} from '../../src/lib/vehicle-state';
import { type Db, rowsOf } from '../platform/db/client';
import { expiringList } from '../upkeep/queries/documents';
import { dueList } from '../upkeep/queries/maintenance';
import { fuelSpent } from '../upkeep/queries/refuels';

const idArray = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;
const n = (value: unknown) => Number(value ?? 0);
export const DASHBOARD_DAYS = 30;

export async function clientCounts(db: Db, ids: string[]) {
  const [row] = rowsOf<{ total: string; active: string }>(
    await db.execute(sql`
      select count(*) as total, count(*) filter (where active) as active
        from clients where id = any(${idArray(ids)}) and canceled_at is null`),
  );
  const total = n(row?.total);
  const active = n(row?.active);
  return { total, active, inactive: total - active };
}

export async function userCounts(db: Db, ids: string[]) {
  const rows = rowsOf<{ role: string; total: string; active: string }>(
    await db.execute(sql`
      select role, count(*) as total, count(*) filter (where active) as active
        from users where client_id = any(${idArray(ids)}) and canceled_at is null
       group by role`),
  );
  const byRole: Record<string, number> = {};
  let total = 0;
  let active = 0;
  for (const row of rows) {
    byRole[row.role] = n(row.total);
    total += n(row.total);
    active += n(row.active);
  }
  return { total, active, inactive: total - active, byRole };
}

export async function trackerCounts(db: Db, ids: string[]) {
  const [trackers] = rowsOf<{ total: string; active: string; open: string; duplicated: string }>(
    await db.execute(sql`
      select count(*) as total, count(*) filter (where active) as active,
             count(*) filter (where active and allow_unauthenticated) as open,
             count(*) filter (where active and exists (select 1 from device_status d
               where d.tracker_id = trackers.id and d.duplicate_since is not null))
               as duplicated
        from trackers where client_id = any(${idArray(ids)}) and canceled_at is null`),
  );
  // A vehicle with several trackers is as its newest fix says.
  const [now] = rowsOf<Record<'total' | 'moving' | 'idle' | 'off' | 'offline' | 'never', string>>(
    await db.execute(sql`
      with mine as (
        select id from vehicles
         where client_id = any(${idArray(ids)}) and canceled_at is null
      ), newest as (
        select distinct on (vehicle_id) vehicle_id, fix_time, speed, ignition
          from last_locations where vehicle_id in (select id from mine)
         order by vehicle_id, fix_time desc
      ), latest as (
        select m.id, n.fix_time, n.speed, n.ignition,
               extract(epoch from (now() - n.fix_time)) as age
          from mine m left join newest n on n.vehicle_id = m.id
      ), states as (
        select case
          when fix_time is null then 'never'
          when age > ${NO_SIGNAL_MINUTES * 60}
            or (coalesce(speed, 0) > ${MOVING_KMH}
                and age > ${STALE_AFTER_INTERVALS * REPORT_INTERVAL_SECONDS}) then 'offline'
          when coalesce(speed, 0) > ${MOVING_KMH} then 'moving'
          when ignition = false then 'off'
          else 'idle' end as state
          from latest
      )
      select count(*) as total,
             count(*) filter (where state = 'moving') as moving,
             count(*) filter (where state = 'idle') as idle,
             count(*) filter (where state = 'off') as off,
             count(*) filter (where state = 'offline') as offline,
             count(*) filter (where state = 'never') as never
        from states`),
  );
  const total = n(trackers?.total);
  const active = n(trackers?.active);
  return {
    trackers: {
      total,
      active,
      inactive: total - active,
      withoutPassword: Number(trackers?.open ?? 0),
      duplicated: Number(trackers?.duplicated ?? 0),
    },
    vehicles: {
      total: n(now?.total),
      now: {
        moving: n(now?.moving),
        idle: n(now?.idle),
        off: n(now?.off),
        offline: n(now?.offline),
        never: n(now?.never),
      },
    },
  };
}

type BucketRow = Record<keyof ActivityCounts, string> & { client_id: string; name: string };

/** Trackers by the age of their last fix, in exclusive buckets, per customer. */
export async function trackerActivity(db: Db, ids: string[]): Promise<DashboardActivity> {
  const rows = rowsOf<BucketRow>(
    await db.execute(sql`
      with ages as (
        select t.client_id, now() - l.fix_time as age
          from trackers t left join last_locations l on l.tracker_id = t.id
         where t.client_id = any(${idArray(ids)}) and t.canceled_at is null
      )
      select a.client_id, c.name,
             count(*) filter (where age <= interval '1 hour') as "lastHour",
             count(*) filter (where age > interval '1 hour' and age <= interval '24 hours') as "last24h",
             count(*) filter (where age > interval '24 hours' and age <= interval '7 days') as "last7d",
             count(*) filter (where age > interval '7 days' and age <= interval '30 days') as "last30d",
             count(*) filter (where age > interval '30 days') as "over30d",
             count(*) filter (where age is null) as "never"
        from ages a join clients c on c.id = a.client_id
       group by a.client_id, c.name
       order by lower(c.name), a.client_id`),
  );
  const zero = (): ActivityCounts => ({
    lastHour: 0,
    last24h: 0,
    last7d: 0,
    last30d: 0,
    over30d: 0,
    never: 0,
  });
  const totals = zero();
  const byClient = rows.map((row) => {
    const counts = zero();
    for (const key of Object.keys(counts) as (keyof ActivityCounts)[]) {
      counts[key] = n(row[key]);
      totals[key] += counts[key];
    }
    return { clientId: row.client_id, name: row.name, ...counts };
  });
  return { totals, byClient };
}

/** The last `days` calendar days in São Paulo, oldest first ('YYYY-MM-DD'). */
export function lastDays(days = DASHBOARD_DAYS, now = new Date()): string[] {
  // The calendar of the reports and of vehicle_days.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(now);
  const base = Date.parse(`${today}T12:00:00Z`);
  return Array.from({ length: days }, (_, i) =>
    new Date(base - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/**
 * Days before today hardly change (a late fix, an old alert acknowledged does not move them),
 * and summing 30 days of a 10,000-vehicle fleet reads ~300,000 rows: the past days of a scope
 * are kept for PAST_DAYS_TTL_MS in this process, today is always counted afresh.
 */
const PAST_DAYS_TTL_MS = 5 * 60_000;
const MAX_CACHED = 500;
const pastDays = new Map<string, { expires: number; rows: unknown[] }>();

async function cachedPast<T>(key: string, load: () => Promise<T[]>): Promise<T[]> {
  const now = Date.now();
  const hit = pastDays.get(key);
  if (hit && hit.expires > now) return hit.rows as T[];
  const rows = await load();
  if (pastDays.size >= MAX_CACHED) {
    for (const [k, entry] of pastDays) if (entry.expires <= now) pastDays.delete(k);
    if (pastDays.size >= MAX_CACHED) pastDays.clear();
  }
  pastDays.set(key, { expires: now + PAST_DAYS_TTL_MS, rows });
  return rows;
}

/** Forgets the kept past days (tests that write history, then read the dashboard). */
export function forgetPastDays(): void {
  pastDays.clear();
}

const scopeKey = (kind: string, ids: string[], days: string[]) =>
  `${kind}:${days[0]}:${[...ids].sort().join(',')}`;

/** Alerts per São Paulo day and type from `from` (inclusive) to `to` (exclusive) days. */
async function alertsPerDay(db: Db, ids: string[], from: string, to: string | null) {
  const start = sql`(${from}::date::timestamp at time zone ${TIME_ZONE})`;
  const end = to ? sql`and created_at < (${to}::date::timestamp at time zone ${TIME_ZONE})` : sql``;
  return rowsOf<{ day: string; type: string; n: string }>(
    await db.execute(sql`
      select to_char(created_at at time zone ${TIME_ZONE}, 'YYYY-MM-DD') as day,
             type, count(*) as n
        from alerts
       where client_id = any(${idArray(ids)}) and created_at >= ${start} ${end}
       group by 1, 2`),
  );
}

export async function alertFigures(db: Db, ids: string[]) {
  const days = lastDays();
  const today = days.at(-1) ?? '';
  const [[open], past, current] = await Promise.all([
    db
      .execute(sql`
        select count(*) as n from alerts
         where client_id = any(${idArray(ids)}) and acknowledged_at is null`)
      .then((r) => rowsOf<{ n: string }>(r)),
    cachedPast(scopeKey('alerts', ids, days), () => alertsPerDay(db, ids, days[0] ?? today, today)),
    alertsPerDay(db, ids, today, null),
  ]);
  const rows = [...past, ...current];
  const perDay = days.map((day) => ({ day, counts: {} as Record<string, number> }));
  const index = new Map(perDay.map((entry) => [entry.day, entry]));
  for (const row of rows) {
    const entry = index.get(row.day);
    if (entry) entry.counts[row.type] = n(row.n);
  }
  return { unacknowledged: n(open?.n), perDay };
}

async function metersPerDay(db: Db, ids: string[], from: string, to: string) {
  return rowsOf<{ day: string; meters: string }>(
    await db.execute(sql`
      select day, sum(distance) as meters from vehicle_days
       where client_id = any(${idArray(ids)}) and day >= ${from} and day <= ${to}
       group by day`),
  );
}

export async function distancePerDay(db: Db, ids: string[]) {
  const days = lastDays();
  const today = days.at(-1) ?? '';
  const yesterday = days.at(-2) ?? today;
  const [past, current] = await Promise.all([
    cachedPast(scopeKey('km', ids, days), () => metersPerDay(db, ids, days[0] ?? today, yesterday)),
    metersPerDay(db, ids, today, today),
  ]);
  const rows = [...past, ...current];
  const meters = new Map(rows.map((row) => [row.day, n(row.meters)]));
  return {
    perDay: days.map((day) => ({ day, km: Math.round((meters.get(day) ?? 0) / 100) / 10 })),
  };
}

/** São Paulo month start of the month `offset` months from the one of `now`. */
function monthStart(now: Date, offset: number): Date {
  const [y = 1970, m = 1] = reportDay(now).split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + offset, 1));
  return dayStart(d.toISOString().slice(0, 10));
}

/** What is overdue or expires soon, and the fuel of this month against the last one. */
export async function upkeepFigures(db: Db, ids: string[], now = new Date()) {
  const [due, expiring, thisMonth, lastMonth] = await Promise.all([
    dueList(db, ids, now),
    expiringList(db, ids, now, 30),
    fuelSpent(db, ids, monthStart(now, 0), monthStart(now, 1)),
    fuelSpent(db, ids, monthStart(now, -1), monthStart(now, 0)),
  ]);
  return {
    maintenanceOverdue: due.filter((d) => d.status === 'overdue').length,
    documentsExpiring: expiring.filter((d) => d.daysLeft >= 0).length,
    documentsExpired: expiring.filter((d) => d.daysLeft < 0).length,
    fuelThisMonth: thisMonth / 100,
    fuelLastMonth: lastMonth / 100,
  };
}
