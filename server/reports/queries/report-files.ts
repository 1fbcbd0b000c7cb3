/**
 * SQL of the report files: report requests moving through pending → processing → done | failed,
 * download links of large files, automated report rules and the scheduler's job rows. Jobs
 * are claimed in one statement (`update … where id in (select … for update skip locked)`),
 * which PGlite and PostgreSQL run alike: two processes never claim the same row, and a
 * process that dies holding a claim loses it when its lease ends.
 */
import { and, asc, count, desc, eq, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../platform/db/client';
import {
  autoReportRules,
  autoReportRuns,
  clients,
  reportLinks,
  reportRequests,
} from '../../schema';

export async function clientName(db: Db, id: string): Promise<string> {
  const [row] = await db.select({ name: clients.name }).from(clients).where(eq(clients.id, id));
  return row?.name ?? '-';
}

export async function setRequestStatus(
  db: Db,
  id: string,
  status: 'processing' | 'done' | 'failed',
  error: string | null = null,
) {
  await db
    .update(reportRequests)
    .set({ status, error, updatedAt: new Date() })
    .where(eq(reportRequests.id, id));
}

/* ---------- links ---------- */

export async function insertLink(db: Db, values: typeof reportLinks.$inferInsert) {
  await db.insert(reportLinks).values(values);
}

export async function linkByHash(db: Db, tokenHash: string) {
  const [row] = await db.select().from(reportLinks).where(eq(reportLinks.tokenHash, tokenHash));
  return row;
}

/** Removes expired links; answers their files' paths (to delete). */
export async function dropExpiredLinks(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .delete(reportLinks)
    .where(lt(reportLinks.expiresAt, now))
    .returning({ path: reportLinks.path });
  return rows.map((r) => r.path);
}

/* ---------- automated report rules ---------- */

export type AutoReportRuleRow = typeof autoReportRules.$inferSelect;

const RULE_SORTS = {
  name: autoReportRules.name,
  reportType: autoReportRules.reportType,
  createdAt: autoReportRules.createdAt,
  updatedAt: autoReportRules.updatedAt,
} as const;

export async function listRules(
  db: Db,
  q: {
    clientIds: string[];
    search: string;
    sort: keyof typeof RULE_SORTS;
    order: 'asc' | 'desc';
    page: number;
    limit: number;
  },
) {
  if (q.clientIds.length === 0) return { rows: [] as AutoReportRuleRow[], total: 0 };
  const where: (SQL | undefined)[] = [
    inArray(autoReportRules.clientId, q.clientIds),
    q.search ? ilike(autoReportRules.name, `%${q.search.replace(/[%_\\]/g, '\\$&')}%`) : undefined,
  ];
  const direction = q.order === 'asc' ? asc : desc;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(autoReportRules)
      .where(and(...where))
      .orderBy(direction(RULE_SORTS[q.sort]), desc(autoReportRules.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db
      .select({ n: count() })
      .from(autoReportRules)
      .where(and(...where)),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function ruleById(db: Db, id: string, clientIds?: string[]) {
  if (clientIds && clientIds.length === 0) return undefined;
  const [row] = await db
    .select()
    .from(autoReportRules)
    .where(
      and(
        eq(autoReportRules.id, id),
        clientIds ? inArray(autoReportRules.clientId, clientIds) : undefined,
      ),
    );
  return row;
}

export async function insertRule(db: Db, values: typeof autoReportRules.$inferInsert) {
  const [row] = await db.insert(autoReportRules).values(values).returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

export async function updateRule(
  db: Db,
  id: string,
  values: Partial<typeof autoReportRules.$inferInsert>,
) {
  const [row] = await db
    .update(autoReportRules)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(autoReportRules.id, id))
    .returning();
  return row;
}

export async function deleteRule(db: Db, id: string) {
  await db.delete(autoReportRules).where(eq(autoReportRules.id, id));
}

export async function activeRules(db: Db) {
  return db.select().from(autoReportRules).where(eq(autoReportRules.active, true));
}

export async function setLastRun(db: Db, id: string, lastRun: AutoReportRuleRow['lastRun']) {
  await db.update(autoReportRules).set({ lastRun }).where(eq(autoReportRules.id, id));
}

/* ---------- jobs ---------- */

export type AutoReportRunRow = typeof autoReportRuns.$inferSelect;

/** Plans runs; a period already planned (by this or another process) is left alone. */
export async function planRuns(
  db: Db,
  runs: { ruleId: string; periodStart: Date; periodEnd: Date; dueAt: Date; manual?: boolean }[],
): Promise<string[]> {
  if (runs.length === 0) return [];
  const inserted = await db
    .insert(autoReportRuns)
    .values(runs.map((r) => ({ ...r, nextAttemptAt: r.dueAt })))
    .onConflictDoNothing()
    .returning({ id: autoReportRuns.id });
  return inserted.map((r) => r.id);
}

/** Claims up to `limit` runs that are due and free, with a lease until `leaseUntil`. */
export async function claimRuns(
  db: Db,
  now: Date,
  leaseUntil: Date,
  limit: number,
  onlyId?: string,
): Promise<{ id: string; ruleId: string; periodStart: Date; periodEnd: Date; attempts: number }[]> {
  const at = now.toISOString();
  const rows = rowsOf<{
    id: string;
    rule_id: string;
    period_start: string | Date;
    period_end: string | Date;
    attempts: number;
  }>(
    await db.execute(sql`
      update auto_report_runs set status = 'running', attempts = attempts + 1,
             lease_until = ${leaseUntil.toISOString()}::timestamptz
       where id in (
         select id from auto_report_runs
          where next_attempt_at <= ${at}::timestamptz
            ${onlyId ? sql`and id = ${onlyId}` : sql``}
            and (status = 'pending'
                 or (status = 'running' and lease_until < ${at}::timestamptz))
          order by next_attempt_at
          limit ${limit}
          for update skip locked)
      returning id, rule_id, period_start, period_end, attempts`),
  );
  return rows.map((r) => ({
    id: r.id,
    ruleId: r.rule_id,
    periodStart: new Date(r.period_start),
    periodEnd: new Date(r.period_end),
    attempts: Number(r.attempts),
  }));
}

export async function finishRun(
  db: Db,
  id: string,
  outcome:
    | { status: 'sent'; at: Date }
    | { status: 'pending'; error: string; retryAt: Date }
    | { status: 'failed'; error: string },
) {
  await db
    .update(autoReportRuns)
    .set(
      outcome.status === 'sent'
        ? { status: 'sent', sentAt: outcome.at, error: null, leaseUntil: null }
        : outcome.status === 'pending'
          ? {
              status: 'pending',
              error: outcome.error,
              nextAttemptAt: outcome.retryAt,
              leaseUntil: null,
            }
          : { status: 'failed', error: outcome.error, leaseUntil: null },
    )
    .where(eq(autoReportRuns.id, id));
}

export async function runsOf(db: Db, ruleId: string) {
  return db
    .select()
    .from(autoReportRuns)
    .where(eq(autoReportRuns.ruleId, ruleId))
    .orderBy(asc(autoReportRuns.periodStart), asc(autoReportRuns.createdAt));
}
