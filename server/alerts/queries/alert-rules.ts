/** Alert rules as customer-owned records: list sorts and filters, and the fleets they name. */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { containsAny, type Filter } from '../../owned/queries';
import type { Db } from '../../platform/db/client';
import { fleets } from '../../schema';
import { alertRules } from '../schema';

export const alertRuleQueries = {
  table: alertRules,
  sorts: {
    name: sql`lower(${alertRules.name})`,
    createdAt: alertRules.createdAt,
    updatedAt: alertRules.updatedAt,
  },
  filters: (q: {
    search: string;
    active?: boolean | undefined;
    type?: string | undefined;
  }): Filter[] => [
    containsAny(q.search, [alertRules.name, alertRules.emailDelivery]),
    q.active === undefined ? undefined : eq(alertRules.active, q.active),
    q.type ? eq(alertRules.type, q.type) : undefined,
  ],
};

/** Live fleets among these ids, within the customers given. */
export async function fleetsIn(db: Db, ids: string[], clientIds: string[]): Promise<string[]> {
  if (ids.length === 0 || clientIds.length === 0) return [];
  const rows = await db
    .select({ id: fleets.id })
    .from(fleets)
    .where(
      and(inArray(fleets.id, ids), inArray(fleets.clientId, clientIds), isNull(fleets.canceledAt)),
    );
  return rows.map((row) => row.id);
}
