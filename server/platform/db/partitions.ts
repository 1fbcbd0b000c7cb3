/**
 * Monthly partitions of `positions`: the current month and the next ones exist before a fix
 * needs them. A month that already has rows in the default partition (fixes stored before
 * its partition existed) is left there rather than moved under a lock at start: that one
 * failure is expected and reported as skipped; any other is reported as failed, with the
 * database's error, so that it reaches the logs.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from './client';

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1));

/** The SQLSTATE of a database error, wherever drizzle wrapped it. */
function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

export function partitionName(date: Date) {
  return `positions_${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Creates the partitions of this month and the `ahead` next ones; returns what it made. */
export async function ensurePartitions(
  db: Db,
  now = new Date(),
  ahead = 2,
): Promise<{ created: string[]; skipped: string[]; failed: { name: string; error: unknown }[] }> {
  const created: string[] = [];
  const skipped: string[] = [];
  const failed: { name: string; error: unknown }[] = [];
  for (let i = 0; i <= ahead; i += 1) {
    const from = monthStart(now.getUTCFullYear(), now.getUTCMonth() + i);
    const to = monthStart(from.getUTCFullYear(), from.getUTCMonth() + 1);
    const name = partitionName(from);
    const [exists] = rowsOf<{ found: boolean }>(
      await db.execute(sql`select to_regclass(${name}) is not null as found`),
    );
    if (exists?.found) continue;
    try {
      await db.execute(
        sql.raw(
          `create table if not exists "${name}" partition of positions for values from ('${from.toISOString()}') to ('${to.toISOString()}')`,
        ),
      );
      created.push(name);
    } catch (error) {
      // Rows of that month already sit in the default partition (check_violation), or
      // another server process created it at the same moment (duplicate_table): either way
      // the fixes are stored. Anything else is a real failure.
      const code = sqlState(error);
      if (code === '23514' || code === '42P07' || code === '23505') skipped.push(name);
      else failed.push({ name, error });
    }
  }
  return { created, skipped, failed };
}
