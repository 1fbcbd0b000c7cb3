/**
 * Queries shared by every customer-owned table (vehicles, trackers, SIM cards, fleets,
 * drivers): always filtered by the customer ids the caller may see and by `canceled_at is
 * null`, so no route can forget either.
 */
import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../platform/db/client';

export type OwnedTable = PgTable & {
  id: AnyPgColumn;
  clientId: AnyPgColumn;
  active: AnyPgColumn;
  canceledAt: AnyPgColumn;
  updatedAt: AnyPgColumn;
};

/** A list condition and a sort expression, as resources declare them. */
export type Filter = SQL | undefined;
export type SortBy = AnyPgColumn | SQL;

export interface OwnedListQuery {
  clientIds: string[];
  /**
   * Sync mode: rows changed since this instant (to the millisecond, inclusive), cancelled
   * ones included (as tombstones), in keyset order (updatedAt to the millisecond, id).
   */
  updatedSince?: Date | undefined;
  /** Sync mode's next page: only rows after (updatedSince, afterId) in that order. */
  afterId?: string | undefined;
  where: (SQL | undefined)[];
  /** Applied in every mode (e.g. a VISITOR's linked vehicles). */
  always?: Filter[];
  sort: AnyPgColumn | SQL;
  order: 'asc' | 'desc';
  page: number;
  limit: number;
}

function scope(table: OwnedTable, clientIds: string[]) {
  return and(inArray(table.clientId, clientIds), isNull(table.canceledAt));
}

/**
 * Sync mode pages by keyset, never by offset: rows change while a client pages through them,
 * and many share one updatedAt (a bulk change). Times are compared to the millisecond, the
 * precision the API writes them with, so a client's cursor matches the rows exactly.
 */
function syncWindow(table: OwnedTable, since: Date, afterId: string | undefined) {
  const changed = sql`date_trunc('milliseconds', ${table.updatedAt})`;
  const at = sql`${since.toISOString()}::timestamptz`;
  return {
    where: afterId
      ? sql`(${changed}, ${table.id}) > (${at}, ${afterId}::uuid)`
      : sql`${changed} >= ${at}`,
    order: [asc(changed), asc(table.id)],
  };
}

export async function listOwned<T extends OwnedTable>(db: Db, table: T, q: OwnedListQuery) {
  if (q.clientIds.length === 0) return { rows: [] as T['$inferSelect'][], total: 0 };
  const sync = q.updatedSince ? syncWindow(table, q.updatedSince, q.afterId) : undefined;
  const where = sync
    ? and(inArray(table.clientId, q.clientIds), sync.where, ...(q.always ?? []))
    : and(scope(table, q.clientIds), ...q.where, ...(q.always ?? []));
  const direction = q.order === 'desc' ? desc : asc;
  const order = sync?.order ?? [direction(q.sort), asc(table.id)];
  // A keyset page starts after its cursor; only the first sync pages of older clients
  // (no afterId) still count pages by offset.
  const offset = sync && q.afterId ? 0 : (q.page - 1) * q.limit;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...order)
      .limit(q.limit)
      .offset(offset),
    db
      .select({ n: count() })
      .from(table as PgTable)
      .where(where),
  ]);
  return { rows: rows as T['$inferSelect'][], total: totals[0]?.n ?? 0 };
}

export async function getOwned<T extends OwnedTable>(
  db: Db,
  table: T,
  id: string,
  clientIds: string[],
) {
  if (clientIds.length === 0) return undefined;
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), scope(table, clientIds)));
  return row as T['$inferSelect'] | undefined;
}

export async function insertOwned<T extends OwnedTable>(
  db: Db,
  table: T,
  values: Record<string, unknown>,
) {
  const [row] = await db
    .insert(table as PgTable)
    .values(values as never)
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row as T['$inferSelect'];
}

export async function updateOwned<T extends OwnedTable>(
  db: Db,
  table: T,
  id: string,
  values: Record<string, unknown>,
) {
  const [row] = await db
    .update(table as PgTable)
    .set({ ...values, updatedAt: new Date() } as never)
    .where(eq(table.id, id))
    .returning();
  return row as T['$inferSelect'] | undefined;
}

export async function cancelOwned(db: Db, table: OwnedTable, id: string) {
  const now = new Date();
  await db
    .update(table as PgTable)
    .set({ canceledAt: now, active: false, updatedAt: now } as never)
    .where(eq(table.id, id));
}

export { containsAny } from '../platform/db/search';

/** Whether a database error is a unique-key violation (PostgreSQL code 23505). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Only these ids (a VISITOR's linked vehicles). */
export function idIn(table: OwnedTable, ids: string[]): Filter {
  return ids.length === 0 ? sql`false` : inArray(table.id, ids);
}
