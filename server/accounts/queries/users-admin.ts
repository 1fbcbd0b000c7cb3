/**
 * User management queries (list, read, create, update, cancel), always within the set of
 * customer ids the caller may see.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Role } from '../../../src/contract';
import type { Db } from '../../platform/db/client';
import { folded, likePattern } from '../../platform/db/search';
import { clients } from '../../schema';
import { users } from '../schema';

export interface ManagedUser {
  id: string;
  clientId: string;
  clientName: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  passwordSet: boolean;
  createdAt: Date;
  updatedAt: Date;
  canceledAt: Date | null;
}

const columns = {
  id: users.id,
  clientId: users.clientId,
  clientName: clients.name,
  email: users.email,
  name: users.name,
  role: users.role,
  active: users.active,
  passwordSet: sql<boolean>`${users.passwordHash} is not null`,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  canceledAt: users.canceledAt,
};

export interface UserListQuery {
  clientId: string;
  search: string;
  role?: Role | undefined;
  active?: boolean | undefined;
  page: number;
  limit: number;
  sort: 'name' | 'email' | 'role' | 'createdAt' | 'updatedAt';
  order: 'asc' | 'desc';
}

const SORTS = {
  name: sql`lower(${users.name})`,
  email: sql`lower(${users.email})`,
  role: users.role,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

export async function listUsers(db: Db, query: UserListQuery) {
  const filters: SQL[] = [eq(users.clientId, query.clientId), isNull(users.canceledAt)];
  if (query.search) {
    const like = likePattern(query.search);
    const match = or(sql`${folded(users.name)} like ${like}`, ilike(users.email, like));
    if (match) filters.push(match);
  }
  if (query.role) filters.push(eq(users.role, query.role));
  if (query.active !== undefined) filters.push(eq(users.active, query.active));
  const where = and(...filters);
  const direction = query.order === 'desc' ? desc : asc;
  const [rows, totals] = await Promise.all([
    db
      .select(columns)
      .from(users)
      .innerJoin(clients, eq(clients.id, users.clientId))
      .where(where)
      .orderBy(direction(SORTS[query.sort]), asc(users.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { rows: rows as ManagedUser[], total: totals[0]?.n ?? 0 };
}

export async function getManagedUser(
  db: Db,
  id: string,
  clientIds: string[],
): Promise<ManagedUser | undefined> {
  if (clientIds.length === 0) return undefined;
  const [row] = await db
    .select(columns)
    .from(users)
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(and(eq(users.id, id), inArray(users.clientId, clientIds), isNull(users.canceledAt)));
  return row as ManagedUser | undefined;
}

export async function emailTaken(db: Db, email: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.canceledAt)));
  return Boolean(row && row.id !== exceptId);
}

export async function insertUser(
  db: Db,
  values: { clientId: string; email: string; name: string; role: Role; active: boolean },
): Promise<string> {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  if (!row) throw new Error('insert users returned nothing');
  return row.id;
}

export async function updateUser(
  db: Db,
  id: string,
  values: Partial<{ clientId: string; email: string; name: string; role: Role; active: boolean }>,
) {
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id));
}

export async function cancelUser(db: Db, id: string) {
  const now = new Date();
  await db
    .update(users)
    .set({ canceledAt: now, active: false, updatedAt: now })
    .where(eq(users.id, id));
}
