/**
 * What every report call checks first, shared by the JSON reports, the report files, the
 * requests and the automated reports: the period within its report's limit, and vehicles and
 * drivers the caller may see (all of them, or a 404 as everywhere).
 */
import type { Context } from 'hono';
import { INTERVAL_LIMITS, type IntervalKind, periodProblem } from '../../src/lib/report-period';
import type { AuthEnv } from '../accounts/auth/middleware';
import type { Deps } from '../deps';
import { badRequest, notFound } from '../platform/http/errors';
import { linkedVehicleIds } from '../sharing/queries';
import { customerScope, visibleClientIds } from '../tenancy/scope';
import { driversIn, vehiclesIn } from './queries/reports';

type Ctx = Context<AuthEnv>;

export const VEHICLE_NOT_FOUND = 'Veículo não encontrado';
export const DRIVER_NOT_FOUND = 'Motorista não encontrado';

/** The period of a query, refused (400, pt-BR) past its report's limit. */
export function periodOf(q: { beginAt: string; endAt: string }, kind: IntervalKind) {
  const problem = periodProblem(q.beginAt, q.endAt, INTERVAL_LIMITS[kind]);
  if (problem) throw badRequest(problem);
  return { beginAt: new Date(q.beginAt), endAt: new Date(q.endAt) };
}

/** Vehicles the caller may see, all of them or a 404. */
export async function visibleVehicles(c: Ctx, deps: Deps, given: string[]) {
  const { db } = deps.database;
  // A vehicle named twice is one vehicle (its rows once), not a missing one.
  const ids = [...new Set(given)];
  let wanted = ids;
  if (c.var.user.role === 'VISITOR') {
    const linked = new Set(await linkedVehicleIds(db, c.var.user.id));
    wanted = ids.filter((id) => linked.has(id));
  }
  const rows = await vehiclesIn(
    db,
    wanted,
    await visibleClientIds(c, deps),
    c.var.user.role !== 'VISITOR',
  );
  if (rows.length !== ids.length) throw notFound(VEHICLE_NOT_FOUND);
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/**
 * The customers whose geofences the caller's reports may name: none for a Terceiro, who sees
 * no geofence screen either (the visits of a linked vehicle to another company's fence would
 * tell him where that company's clients and depots are).
 */
export async function visibleGeofenceClients(c: Ctx, deps: Deps): Promise<string[]> {
  return c.var.user.role === 'VISITOR' ? [] : visibleClientIds(c, deps);
}

/** Drivers the caller may see (a VISITOR sees none), all of them or a 404. */
export async function visibleDrivers(c: Ctx, deps: Deps, given: string[]) {
  if (c.var.user.role === 'VISITOR') throw notFound(DRIVER_NOT_FOUND);
  const ids = [...new Set(given)];
  const rows = await driversIn(deps.database.db, ids, await customerScope(c, deps));
  if (rows.length !== ids.length) throw notFound(DRIVER_NOT_FOUND);
  return rows;
}
