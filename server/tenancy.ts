/**
 * Tenancy: a user sees their own customer and its descendants, nothing else; a VISITOR sees
 * only their own customer (and, later, only the vehicles linked to them). Every route that
 * touches customer-owned data asks here which customer ids the caller may see; an id outside
 * that set answers exactly like one that does not exist.
 */
import type { Context } from 'hono';
import type { AuthEnv } from './auth/middleware';
import { type ClientRow, getClient, subtreeIds } from './db/clients';
import type { Deps } from './deps';
import { notFound } from './http/errors';

const cache = new WeakMap<Context, Promise<string[]>>();

export const CLIENT_NOT_FOUND = 'Cliente não encontrado';

export function visibleClientIds(c: Context<AuthEnv>, deps: Deps): Promise<string[]> {
  let ids = cache.get(c);
  if (!ids) {
    const user = c.var.user;
    ids =
      user.role === 'VISITOR'
        ? Promise.resolve([user.clientId])
        : subtreeIds(deps.database.db, user.clientId);
    cache.set(c, ids);
  }
  return ids;
}

export async function canSeeClient(c: Context<AuthEnv>, deps: Deps, id: string): Promise<boolean> {
  return (await visibleClientIds(c, deps)).includes(id);
}

/** The live customer with this id if the caller may see it; otherwise a 404. */
export async function visibleClient(
  c: Context<AuthEnv>,
  deps: Deps,
  id: string,
): Promise<ClientRow> {
  if (!(await canSeeClient(c, deps, id))) throw notFound(CLIENT_NOT_FOUND);
  const row = await getClient(deps.database.db, id);
  if (!row) throw notFound(CLIENT_NOT_FOUND);
  return row;
}
