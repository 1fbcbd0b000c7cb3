/** Reading and pruning the audit log (writing is server/audit/record.ts). */
import { and, count, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../platform/db/client';
import { clients } from '../schema';
import { auditEvents } from './schema';

export interface AuditQuery {
  /** Companies whose lines the caller may read. */
  clientIds: string[];
  /** Lines of no company (a failed sign-in with an unknown e-mail): administrators only. */
  withUnowned: boolean;
  from?: Date | undefined;
  to?: Date | undefined;
  userId?: string | undefined;
  onlyClientIds?: string[] | undefined;
  kind?: string | undefined;
  entity?: string | undefined;
  entityId?: string | undefined;
  /** One line only. */
  id?: string | undefined;
}

export type AuditRow = typeof auditEvents.$inferSelect & { clientName: string | null };

function where(q: AuditQuery): SQL | undefined {
  const scope =
    q.clientIds.length === 0
      ? q.withUnowned
        ? isNull(auditEvents.clientId)
        : undefined
      : q.withUnowned
        ? or(inArray(auditEvents.clientId, q.clientIds), isNull(auditEvents.clientId))
        : inArray(auditEvents.clientId, q.clientIds);
  return and(
    scope,
    q.from ? gte(auditEvents.at, q.from) : undefined,
    q.to ? lt(auditEvents.at, q.to) : undefined,
    q.userId ? eq(auditEvents.actorUserId, q.userId) : undefined,
    q.onlyClientIds ? inArray(auditEvents.clientId, q.onlyClientIds) : undefined,
    q.kind ? eq(auditEvents.kind, q.kind) : undefined,
    q.entity ? eq(auditEvents.entity, q.entity) : undefined,
    q.entityId ? eq(auditEvents.entityId, q.entityId) : undefined,
    q.id ? eq(auditEvents.id, q.id) : undefined,
  );
}

/** A page of lines, newest first, and how many match in all. */
export async function listAudit(
  db: Db,
  q: AuditQuery,
  page: { offset: number; limit: number },
): Promise<{ rows: AuditRow[]; total: number }> {
  if (q.clientIds.length === 0 && !q.withUnowned) return { rows: [], total: 0 };
  const condition = where(q);
  const [rows, totals] = await Promise.all([
    db
      .select({ event: auditEvents, clientName: clients.name })
      .from(auditEvents)
      .leftJoin(clients, eq(clients.id, auditEvents.clientId))
      .where(condition)
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(auditEvents).where(condition),
  ]);
  return {
    rows: rows.map((r) => ({ ...r.event, clientName: r.clientName })),
    total: totals[0]?.n ?? 0,
  };
}

/** Deletes the lines older than `cutoff`; answers how many went. */
export async function pruneAudit(db: Db, cutoff: Date): Promise<number> {
  // Counted in the database: a first prune of a long-kept log may delete millions of lines.
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      with gone as (delete from audit_events where at < ${cutoff.toISOString()}::timestamptz
        returning 1)
      select count(*)::int as n from gone`),
  );
  return row?.n ?? 0;
}
