/**
 * Tenancy: a user sees their own customer and its descendants, nothing else; a VISITOR sees
 * only their own customer (and, later, only the vehicles linked to them). Every route that
 * touches customer-owned data asks here which customer ids the caller may see; an id outside
 * that set answers exactly like one that does not exist.
 */
import type { Context } from 'hono';
import type { AuthEnv } from '../accounts/auth/middleware';
import type { Deps } from '../deps';
import { getOwned } from '../owned/queries';
import { notFound } from '../platform/http/errors';
import { vehicles } from '../schema';
import { linkedVehicleIds } from '../sharing/queries';
import { type ClientRow, getClient, subtreeIds } from './queries';

const cache = new WeakMap<Context, Promise<string[]>>();

export const CLIENT_NOT_FOUND = 'Cliente não encontrado';

/** The caller's customer and its descendants (a VISITOR's vehicles are narrowed further). */
export function visibleClientIds(c: Context<AuthEnv>, deps: Deps): Promise<string[]> {
  let ids = cache.get(c);
  if (!ids) {
    ids = subtreeIds(deps.database.db, c.var.user.clientId);
    cache.set(c, ids);
  }
  return ids;
}

/** Customers whose records a user may read: a VISITOR reads only their own customer. */
export async function customerScope(c: Context<AuthEnv>, deps: Deps): Promise<string[]> {
  return c.var.user.role === 'VISITOR' ? [c.var.user.clientId] : visibleClientIds(c, deps);
}

export async function canSeeClient(c: Context<AuthEnv>, deps: Deps, id: string): Promise<boolean> {
  return (await visibleClientIds(c, deps)).includes(id);
}

/**
 * The customers a list or a report covers: every one the caller sees or, when one is chosen,
 * that one and the companies below it (a mother company's list holds its children's records,
 * as its map does), never more than the caller sees. A customer the caller may not see: 404.
 */
export async function clientsWithin(
  c: Context<AuthEnv>,
  deps: Deps,
  clientId: string | undefined,
): Promise<string[]> {
  const visible = await visibleClientIds(c, deps);
  if (!clientId) return visible;
  if (!visible.includes(clientId)) throw notFound(CLIENT_NOT_FOUND);
  const seen = new Set(visible);
  return (await subtreeIds(deps.database.db, clientId)).filter((id) => seen.has(id));
}

/** The live customer with this id if the caller may see it; otherwise a 404. */
export async function visibleClient(
  c: Context<AuthEnv>,
  deps: Deps,
  id: string,
): Promise<ClientRow> {
  if (!(await customerScope(c, deps)).includes(id)) throw notFound(CLIENT_NOT_FOUND);
  const row = await getClient(deps.database.db, id);
  if (!row) throw notFound(CLIENT_NOT_FOUND);
  return row;
}

/**
 * A vehicle the caller may see: in their customers' subtree and, for a VISITOR, linked to
 * them. Anything else answers as if it did not exist. `owners` are the customers whose
 * records of it (positions, days, alerts, commands) the caller may read: those made while
 * the vehicle belonged to another customer stay with that customer. A VISITOR reads no
 * driver's name in them.
 */
export async function visibleVehicle(c: Context<AuthEnv>, deps: Deps, id: string) {
  const { db } = deps.database;
  if (c.var.user.role === 'VISITOR' && !(await linkedVehicleIds(db, c.var.user.id)).includes(id)) {
    throw notFound('Veículo não encontrado');
  }
  const owners = await visibleClientIds(c, deps);
  const row = await getOwned(db, vehicles, id, owners);
  if (!row) throw notFound('Veículo não encontrado');
  return { ...row, owners, driverNames: c.var.user.role !== 'VISITOR' };
}
