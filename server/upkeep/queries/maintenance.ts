/**
 * What maintenance is due: each live plan, for each vehicle it covers (its vehicle, or every
 * live vehicle of its fleet), counts from the newest service record of that vehicle naming
 * the plan, else from the plan's start, and ends at whichever of its km, hours or days comes
 * first. The km now are the tracked odometer (the sum of the vehicle's daily distances); the
 * hours now are the `hours` reading of the vehicle's newest position when its device sends
 * one, else the time with the ignition on (vehicleReadings).
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DueItem, DueStatus } from '../../../src/contract';
import { reportDay } from '../../../src/lib/report-period';
import { containsAny, type Filter } from '../../owned/queries';
import { type Db, rowsOf } from '../../platform/db/client';
import { fleets, maintenancePlans, serviceRecords, vehicles } from '../../schema';

type PlanRow = typeof maintenancePlans.$inferSelect;
type RecordRow = typeof serviceRecords.$inferSelect;

interface BaseQuery {
  search: string;
  active?: boolean | undefined;
}

export const planQueries = {
  table: maintenancePlans,
  sorts: {
    name: sql`lower(${maintenancePlans.name})`,
    createdAt: maintenancePlans.createdAt,
    updatedAt: maintenancePlans.updatedAt,
  },
  filters: (q: BaseQuery): Filter[] => [
    containsAny(q.search, [maintenancePlans.name]),
    q.active === undefined ? undefined : sql`${maintenancePlans.active} = ${q.active}`,
  ],
};

export const serviceRecordQueries = {
  table: serviceRecords,
  sorts: {
    date: serviceRecords.date,
    createdAt: serviceRecords.createdAt,
    updatedAt: serviceRecords.updatedAt,
  },
  filters: (q: BaseQuery): Filter[] => [
    containsAny(q.search, [serviceRecords.workshop, serviceRecords.notes]),
    q.active === undefined ? undefined : sql`${serviceRecords.active} = ${q.active}`,
  ],
};

/**
 * Tracked km and engine hours of each vehicle now: the device's hour meter (`hours` of its
 * newest position) when it sends one, else the hours with the ignition on that ingest adds up
 * in the daily rollup (null when the vehicle has neither).
 */
export async function vehicleReadings(
  db: Db,
  vehicleIds: string[],
): Promise<Map<string, { km: number; hours: number | null }>> {
  const out = new Map<string, { km: number; hours: number | null }>();
  if (vehicleIds.length === 0) return out;
  const ids = `{${vehicleIds.join(',')}}`;
  const rows = rowsOf<{
    id: string;
    metres: number | string | null;
    engine: number | string | null;
    hours: string | null;
  }>(
    await db.execute(sql`
      select v.id, totals.metres, totals.engine,
             (select p.attributes->>'hours' from last_locations l
                join positions p on p.tracker_id = l.tracker_id and p.fix_time = l.fix_time
               where l.vehicle_id = v.id order by l.fix_time desc limit 1) as hours
        from vehicles v,
        lateral (select coalesce(sum(d.distance), 0) as metres,
                        coalesce(sum(d.engine_seconds), 0) as engine
                   from vehicle_days d where d.vehicle_id = v.id) totals
       where v.id = any(${ids}::uuid[])`),
  );
  for (const row of rows) {
    const device = row.hours === null ? Number.NaN : Number(row.hours);
    const engine = Number(row.engine ?? 0) / 3600;
    out.set(row.id, {
      km: Number(row.metres ?? 0) / 1000,
      hours: Number.isFinite(device) ? device : engine > 0 ? engine : null,
    });
  }
  return out;
}

/** The tracked km of one vehicle now (what a service record without an odometer takes). */
export async function vehicleKm(db: Db, vehicleId: string): Promise<number> {
  return (await vehicleReadings(db, [vehicleId])).get(vehicleId)?.km ?? 0;
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const addDays = (day: string, n: number) =>
  new Date((dayNumber(day) + n) * DAY_MS).toISOString().slice(0, 10);
const round1 = (n: number) => Math.round(n * 10) / 10;

/** One plan on one vehicle, from its cycle's start to today. */
export function dueOf(
  plan: PlanRow,
  vehicle: { id: string; plate: string; name: string },
  last: RecordRow | undefined,
  reading: { km: number; hours: number | null } | undefined,
  today: string,
): DueItem {
  const startDate = last?.date ?? plan.startDate;
  const startKm = last ? (last.odometerKm ?? plan.startKm) : plan.startKm;
  const startHours = last ? (last.hours ?? plan.startHours) : plan.startHours;
  const stages: DueStatus[] = [];
  // Past a limit is overdue; a due day is overdue only once it is over.
  const stage = (left: number, warn: number, last = 0) =>
    stages.push(left < last ? 'overdue' : left <= warn ? 'soon' : 'ok');
  let km: DueItem['km'] = null;
  if (plan.everyKm) {
    const now = reading ? round1(reading.km) : null;
    const due = startKm + plan.everyKm;
    const left = now === null ? null : round1(due - now);
    if (left !== null) stage(left, plan.warnKm, Number.MIN_VALUE);
    km = { every: plan.everyKm, start: round1(startKm), due: round1(due), now, left };
  }
  let hours: DueItem['hours'] = null;
  if (plan.everyHours) {
    const now = reading?.hours ?? null;
    const due = startHours + plan.everyHours;
    const left = now === null ? null : round1(due - now);
    if (left !== null) stage(left, plan.warnHours, Number.MIN_VALUE);
    hours = { every: plan.everyHours, start: startHours, due, now, left };
  }
  let days: DueItem['days'] = null;
  if (plan.everyDays) {
    const due = addDays(startDate, plan.everyDays);
    const left = dayNumber(due) - dayNumber(today);
    stage(left, plan.warnDays);
    days = { every: plan.everyDays, start: startDate, due, left };
  }
  const status: DueStatus = stages.includes('overdue')
    ? 'overdue'
    : stages.includes('soon')
      ? 'soon'
      : 'ok';
  return {
    planId: plan.id,
    planName: plan.name,
    vehicleId: vehicle.id,
    plate: vehicle.plate,
    vehicleName: vehicle.name,
    status,
    cycle: last?.id ?? 'start',
    lastServiceDate: last?.date ?? null,
    km,
    hours,
    days,
  };
}

const RANK: Record<DueStatus, number> = { overdue: 0, soon: 1, ok: 2 };

/**
 * What is due for the customers given (their live, active plans), optionally only on some
 * vehicles, most urgent first. `now` decides today's São Paulo day.
 */
export async function dueList(
  db: Db,
  clientIds: string[],
  now: Date,
  onlyVehicles?: Set<string>,
): Promise<DueItem[]> {
  if (clientIds.length === 0) return [];
  const plans = await db
    .select()
    .from(maintenancePlans)
    .where(
      and(
        inArray(maintenancePlans.clientId, clientIds),
        isNull(maintenancePlans.canceledAt),
        sql`${maintenancePlans.active}`,
      ),
    );
  if (plans.length === 0) return [];
  const fleetIds = plans.flatMap((p) => (p.fleetId ? [p.fleetId] : []));
  const fleetRows = fleetIds.length
    ? await db
        .select({ id: fleets.id, vehicleIds: fleets.vehicleIds })
        .from(fleets)
        .where(and(inArray(fleets.id, fleetIds), isNull(fleets.canceledAt)))
    : [];
  const fleetVehicles = new Map(fleetRows.map((f) => [f.id, f.vehicleIds]));
  // Plans by vehicle type cover the live vehicles of that type of the plan's own customer.
  const typed = plans.filter((p) => p.vehicleType);
  const typeRows = typed.length
    ? await db
        .select({ id: vehicles.id, clientId: vehicles.clientId, type: vehicles.type })
        .from(vehicles)
        .where(
          and(
            inArray(vehicles.clientId, [...new Set(typed.map((p) => p.clientId))]),
            inArray(vehicles.type, [...new Set(typed.map((p) => p.vehicleType ?? ''))]),
            isNull(vehicles.canceledAt),
          ),
        )
    : [];
  const covered = (plan: (typeof plans)[number]) =>
    plan.vehicleId
      ? [plan.vehicleId]
      : plan.fleetId
        ? (fleetVehicles.get(plan.fleetId) ?? [])
        : typeRows
            .filter((v) => v.clientId === plan.clientId && v.type === plan.vehicleType)
            .map((v) => v.id);
  const pairs = plans.flatMap((plan) =>
    covered(plan)
      .filter((id) => !onlyVehicles || onlyVehicles.has(id))
      .map((vehicleId) => ({ plan, vehicleId })),
  );
  const vehicleIds = [...new Set(pairs.map((p) => p.vehicleId))];
  if (vehicleIds.length === 0) return [];
  const [vehicleRows, records, readings] = await Promise.all([
    db
      .select({ id: vehicles.id, plate: vehicles.plate, name: vehicles.name })
      .from(vehicles)
      .where(
        and(
          inArray(vehicles.id, vehicleIds),
          inArray(vehicles.clientId, clientIds),
          isNull(vehicles.canceledAt),
        ),
      ),
    db
      .select()
      .from(serviceRecords)
      .where(
        and(
          inArray(serviceRecords.vehicleId, vehicleIds),
          isNull(serviceRecords.canceledAt),
          sql`cardinality(${serviceRecords.planIds}) > 0`,
        ),
      ),
    vehicleReadings(db, vehicleIds),
  ]);
  const byId = new Map(vehicleRows.map((row) => [row.id, row]));
  const today = reportDay(now);
  const items: DueItem[] = [];
  for (const { plan, vehicleId } of pairs) {
    const vehicle = byId.get(vehicleId);
    if (!vehicle) continue;
    // The newest service of this vehicle that names the plan (a later entry of the same day
    // wins).
    let last: RecordRow | undefined;
    for (const r of records) {
      if (r.vehicleId !== vehicleId || !r.planIds.includes(plan.id)) continue;
      if (
        !last ||
        r.date > last.date ||
        (r.date === last.date && r.createdAt.getTime() > last.createdAt.getTime())
      )
        last = r;
    }
    items.push(dueOf(plan, vehicle, last, readings.get(vehicleId), today));
  }
  const leftRatio = (item: DueItem) =>
    Math.min(
      item.km?.left != null ? item.km.left / item.km.every : 1,
      item.hours?.left != null ? item.hours.left / item.hours.every : 1,
      item.days ? item.days.left / item.days.every : 1,
    );
  return items.sort((a, b) => RANK[a.status] - RANK[b.status] || leftRatio(a) - leftRatio(b));
}

/** The customer of each vehicle (an alert belongs to its vehicle's customer). */
export async function vehicleClients(db: Db, vehicleIds: string[]): Promise<Map<string, string>> {
  if (vehicleIds.length === 0) return new Map();
  const rows = await db
    .select({ id: vehicles.id, clientId: vehicles.clientId })
    .from(vehicles)
    .where(inArray(vehicles.id, vehicleIds));
  return new Map(rows.map((row) => [row.id, row.clientId]));
}

/** Live plans among the ids that belong to the customer. */
export async function plansOfClient(db: Db, clientId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: maintenancePlans.id })
    .from(maintenancePlans)
    .where(
      and(
        inArray(maintenancePlans.id, ids),
        eq(maintenancePlans.clientId, clientId),
        isNull(maintenancePlans.canceledAt),
      ),
    );
  return rows.map((row) => row.id);
}
