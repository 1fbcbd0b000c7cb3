/**
 * Customers and their tree. The tree is walked with a recursive query, so a mother company
 * of any depth is one round trip; tenancy scoping (scope.ts) is built on subtreeIds.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../platform/db/client';
import { escapeLike, folded, likePattern } from '../platform/db/search';
import { users } from '../schema';
import { clients } from './schema';

export type ClientRow = typeof clients.$inferSelect;
export type ClientValues = Omit<typeof clients.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** The customer and every descendant (cancelled ones included: they still own history). */
export async function subtreeIds(db: Db, rootId: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive tree(id) as (
      select id from clients where id = ${rootId}
      union all
      select c.id from clients c join tree t on c.parent_id = t.id
    )
    select id from tree`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

/** The customer and every company above it. */
export async function ancestorIds(db: Db, clientId: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 0 from clients where id = ${clientId}
      union all
      select c.id, c.parent_id, chain.depth + 1 from clients c
        join chain on c.id = chain.parent_id where chain.depth < 64
    )
    select id from chain`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

export interface ClientListQuery {
  search: string;
  page: number;
  limit: number;
  sort: 'name' | 'email' | 'createdAt' | 'updatedAt';
  order: 'asc' | 'desc';
  active?: boolean | undefined;
}

const SORT_COLUMNS = {
  name: sql`lower(${clients.name})`,
  email: clients.email,
  createdAt: clients.createdAt,
  updatedAt: clients.updatedAt,
};

export async function listClients(db: Db, ids: string[], query: ClientListQuery) {
  if (ids.length === 0) return { rows: [], total: 0 };
  const filters: SQL[] = [inArray(clients.id, ids), isNull(clients.canceledAt)];
  if (query.search) {
    const like = likePattern(query.search);
    const digits = query.search.replace(/[\W_]/g, '').toUpperCase();
    const match = or(
      sql`${folded(clients.name)} like ${like}`,
      sql`${folded(clients.corporateName)} like ${like}`,
      ilike(clients.email, like),
      digits ? ilike(clients.document, `%${escapeLike(digits)}%`) : undefined,
    );
    if (match) filters.push(match);
  }
  if (query.active !== undefined) filters.push(eq(clients.active, query.active));
  const where = and(...filters);
  const direction = query.order === 'desc' ? desc : asc;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(clients)
      .where(where)
      .orderBy(direction(SORT_COLUMNS[query.sort]), asc(clients.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(clients).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function getClient(db: Db, id: string): Promise<ClientRow | undefined> {
  const [row] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.id, id), isNull(clients.canceledAt)));
  return row;
}

/** Live (not cancelled) customers among the ids, for building trees. */
export async function clientsIn(db: Db, ids: string[]): Promise<ClientRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(clients)
    .where(and(inArray(clients.id, ids), isNull(clients.canceledAt)))
    .orderBy(sql`lower(${clients.name})`);
}

export async function documentTaken(db: Db, document: string, exceptId?: string) {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.document, document), isNull(clients.canceledAt)));
  return Boolean(row && row.id !== exceptId);
}

export async function insertClient(db: Db, values: ClientValues): Promise<ClientRow> {
  const [row] = await db.insert(clients).values(values).returning();
  if (!row) throw new Error('insert clients returned nothing');
  return row;
}

export async function updateClient(db: Db, id: string, values: Partial<ClientValues>) {
  const [row] = await db
    .update(clients)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(clients.id, id))
    .returning();
  return row;
}

export async function activeChildren(db: Db, id: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(clients)
    .where(and(eq(clients.parentId, id), isNull(clients.canceledAt)));
  return row?.n ?? 0;
}

/** Soft cancel: the row stays for history; its users are signed out by the caller. */
export async function cancelClient(db: Db, id: string) {
  const now = new Date();
  await db
    .update(clients)
    .set({ canceledAt: now, active: false, updatedAt: now })
    .where(eq(clients.id, id));
}

export async function userIdsOfClient(db: Db, clientId: string): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.clientId, clientId));
  return rows.map((row) => row.id);
}
