/**
 * Retention of positions (POSITION_RETENTION_MONTHS): whole monthly partitions whose month
 * ended more than that many months ago are dropped — an instant, whatever their size, with
 * no dead rows left behind — and the few old rows of the default partition (fixes stored
 * before their month's partition existed) are deleted. Last locations are kept.
 *
 * Safe when several server processes run it: one transaction-scoped advisory lock lets one
 * process work while the others skip this round, and a drop that meets a partition already
 * gone is no error. Dropping a partition briefly locks `positions` itself: a short
 * lock_timeout makes the round give up (and try again at the next) rather than hold ingest.
 */
import { sql } from 'drizzle-orm';
import { pruneAudit } from '../../audit/queries';
import { type Db, rowsOf } from '../../platform/db/client';

/** Advisory lock id held while applying retention (server/platform/db/client.ts uses 727_001). */
const RETENTION_LOCK = 727_002;
const PARTITION = /^positions_(\d{4})_(\d{2})$/;

export interface RetentionResult {
  /** Partitions dropped, oldest first. */
  dropped: string[];
  /** Old rows deleted from the default partition. */
  deleted: number;
  /** Another process was applying retention: nothing done this round. */
  busy: boolean;
}

/** The instant before which positions are past retention. */
export function retentionCutoff(months: number, now = new Date()): Date {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

export async function dropExpiredPositions(
  db: Db,
  months: number,
  now = new Date(),
): Promise<RetentionResult> {
  const result: RetentionResult = { dropped: [], deleted: 0, busy: false };
  if (months <= 0) return result;
  const cutoff = retentionCutoff(months, now);
  await db.transaction(async (tx) => {
    const [lock] = rowsOf<{ locked: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK}) as locked`),
    );
    if (!lock?.locked) {
      result.busy = true;
      return;
    }
    await tx.execute(sql.raw(`set local lock_timeout = '5s'`));
    const partitions = rowsOf<{ name: string }>(
      await tx.execute(sql`
        select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'positions'::regclass order by c.relname`),
    );
    for (const { name } of partitions) {
      const match = PARTITION.exec(name);
      if (!match) continue;
      // The partition holds [month start, next month start): past retention once it ended.
      const end = new Date(Date.UTC(Number(match[1]), Number(match[2]), 1));
      if (end > cutoff) continue;
      await tx.execute(sql.raw(`drop table if exists "${name}"`));
      result.dropped.push(name);
    }
    const deleted = rowsOf<{ n: number }>(
      await tx.execute(sql`
        with gone as (delete from positions_default where fix_time < ${cutoff.toISOString()}
          returning 1)
        select count(*)::int as n from gone`),
    );
    result.deleted = deleted[0]?.n ?? 0;
  });
  return result;
}

/** Deletes the audit lines older than `days` days (0: the log is kept forever). */
export async function pruneExpiredAudit(db: Db, days: number, now = new Date()): Promise<number> {
  if (days <= 0) return 0;
  return pruneAudit(db, new Date(now.getTime() - days * 86_400_000));
}
