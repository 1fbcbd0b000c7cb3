/**
 * Refuels and expenses: list filters, the history consumption is computed from, the fuel
 * sensor's readings around a refuel, and what a fuel card's file refers to (plates, drivers).
 */
import { and, asc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FuelReading, RefuelFacts } from '../../../src/lib/fuel';
import { PARKED_KMH } from '../../alerts/evaluate';
import { containsAny, type Filter } from '../../owned/queries';
import type { Db } from '../../platform/db/client';
import { drivers, positions, refuels, vehicleExpenses, vehicles } from '../../schema';

interface RefuelListQuery {
  search: string;
  active?: boolean | undefined;
  vehicleId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const refuelQueries = {
  table: refuels,
  sorts: { at: refuels.at, createdAt: refuels.createdAt, updatedAt: refuels.updatedAt },
  filters: (q: RefuelListQuery): Filter[] => [
    containsAny(q.search, [refuels.station, refuels.notes]),
    q.active === undefined ? undefined : sql`${refuels.active} = ${q.active}`,
    q.vehicleId ? eq(refuels.vehicleId, q.vehicleId) : undefined,
    q.from ? gte(refuels.at, new Date(q.from)) : undefined,
    q.to ? lte(refuels.at, new Date(q.to)) : undefined,
  ],
};

interface ExpenseListQuery {
  search: string;
  active?: boolean | undefined;
  vehicleId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const expenseQueries = {
  table: vehicleExpenses,
  sorts: {
    date: vehicleExpenses.date,
    createdAt: vehicleExpenses.createdAt,
    updatedAt: vehicleExpenses.updatedAt,
  },
  filters: (q: ExpenseListQuery): Filter[] => [
    containsAny(q.search, [vehicleExpenses.description]),
    q.active === undefined ? undefined : sql`${vehicleExpenses.active} = ${q.active}`,
    q.vehicleId ? eq(vehicleExpenses.vehicleId, q.vehicleId) : undefined,
    q.from ? gte(vehicleExpenses.date, q.from) : undefined,
    q.to ? lte(vehicleExpenses.date, q.to) : undefined,
  ],
};

export interface VehicleFacts {
  id: string;
  clientId: string;
  plate: string;
  name: string;
  fuelTankLiters: number | null;
}

/** Live vehicles by id, with their tank. */
export async function vehicleFacts(db: Db, ids: string[]): Promise<Map<string, VehicleFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: vehicles.id,
      clientId: vehicles.clientId,
      plate: vehicles.plate,
      name: vehicles.name,
      fuelTankLiters: vehicles.fuelTankLiters,
    })
    .from(vehicles)
    .where(inArray(vehicles.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Live vehicles of these customers (all, or these ids), by plate. */
export async function vehiclesOf(db: Db, clientIds: string[], ids?: string[]) {
  if (clientIds.length === 0 || ids?.length === 0) return [];
  return db
    .select({
      id: vehicles.id,
      clientId: vehicles.clientId,
      plate: vehicles.plate,
      name: vehicles.name,
      fuelTankLiters: vehicles.fuelTankLiters,
    })
    .from(vehicles)
    .where(
      and(
        inArray(vehicles.clientId, clientIds),
        isNull(vehicles.canceledAt),
        ids ? inArray(vehicles.id, ids) : undefined,
      ),
    )
    .orderBy(asc(vehicles.plate));
}

/** Every live refuel of these vehicles up to `to`, the facts consumption needs. */
export async function refuelHistory(
  db: Db,
  vehicleIds: string[],
  to?: Date,
): Promise<Map<string, RefuelFacts[]>> {
  const out = new Map<string, RefuelFacts[]>();
  if (vehicleIds.length === 0) return out;
  const rows = await db
    .select({
      id: refuels.id,
      vehicleId: refuels.vehicleId,
      at: refuels.at,
      liters: refuels.liters,
      totalCents: refuels.totalCents,
      odometerKm: refuels.odometerKm,
      fullTank: refuels.fullTank,
    })
    .from(refuels)
    .where(
      and(
        inArray(refuels.vehicleId, [...new Set(vehicleIds)]),
        isNull(refuels.canceledAt),
        to ? lte(refuels.at, to) : undefined,
      ),
    )
    .orderBy(asc(refuels.at), asc(refuels.id));
  for (const r of rows) {
    const list = out.get(r.vehicleId) ?? [];
    list.push({ ...r, at: r.at.getTime() });
    out.set(r.vehicleId, list);
  }
  return out;
}

/** Drivers' names by id. */
export async function driverNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: drivers.id, name: drivers.completName })
    .from(drivers)
    .where(inArray(drivers.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Live drivers of a customer, to match a file's CPF or name. */
export async function driversOfClient(db: Db, clientId: string) {
  return db
    .select({ id: drivers.id, cpf: drivers.cpf, name: drivers.completName })
    .from(drivers)
    .where(and(eq(drivers.clientId, clientId), isNull(drivers.canceledAt)));
}

const num = (x: unknown) => {
  const n = typeof x === 'string' ? Number(x) : x;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/**
 * A vehicle's fuel readings (litres, else percent of the tank) from `from` to `to`, each
 * saying whether the vehicle stood (ignition off or, without ignition, under the parked
 * speed), as FUEL_DROP reads them.
 */
export async function fuelReadings(
  db: Db,
  vehicleId: string,
  from: Date,
  to: Date,
): Promise<FuelReading[]> {
  const rows = await db
    .select({
      at: positions.fixTime,
      speed: positions.speed,
      ignition: positions.ignition,
      liters: sql<unknown>`${positions.attributes}->'fuelLiters'`,
      percent: sql<unknown>`${positions.attributes}->'fuelLevel'`,
    })
    .from(positions)
    .where(
      and(
        eq(positions.vehicleId, vehicleId),
        gte(positions.fixTime, from),
        lte(positions.fixTime, to),
        or(sql`${positions.attributes} ? 'fuelLiters'`, sql`${positions.attributes} ? 'fuelLevel'`),
      ),
    )
    .orderBy(asc(positions.fixTime));
  const out: FuelReading[] = [];
  for (const r of rows) {
    const liters = num(r.liters);
    const percent = num(r.percent);
    const reading =
      liters !== undefined
        ? { value: liters, unit: 'l' as const }
        : percent !== undefined
          ? { value: percent, unit: '%' as const }
          : undefined;
    if (!reading) continue;
    const parked =
      r.ignition === false ||
      (typeof r.ignition !== 'boolean' && r.speed !== null && r.speed < PARKED_KMH);
    out.push({ at: r.at.getTime(), ...reading, parked });
  }
  return out;
}

/** What was spent on fuel by these customers' vehicles in [from, to), in centavos. */
export async function fuelSpent(db: Db, clientIds: string[], from: Date, to: Date) {
  if (clientIds.length === 0) return 0;
  const [row] = await db
    .select({ cents: sql<string | null>`sum(${refuels.totalCents})` })
    .from(refuels)
    .innerJoin(vehicles, eq(vehicles.id, refuels.vehicleId))
    .where(
      and(
        inArray(refuels.clientId, clientIds),
        isNull(refuels.canceledAt),
        isNull(vehicles.canceledAt),
        gte(refuels.at, from),
        sql`${refuels.at} < ${to.toISOString()}::timestamptz`,
      ),
    );
  return Number(row?.cents ?? 0);
}
