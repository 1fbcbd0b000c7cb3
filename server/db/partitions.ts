/**
 * Monthly partitions of `positions`: the current month and the next ones exist before a fix
 * needs them. A month that already has rows in the default partition (fixes stored before
 * its partition existed) is left there rather than moved under a lock at start.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from './client';

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1));

export function partitionName(date: Date) {
  return `positions_${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Creates the partitions of this month and the `ahead` next ones; returns what it made. */
export async function ensurePartitions(
  db: Db,
  now = new Date(),
  ahead = 2,
): Promise<{ created: string[]; skipped: string[] }> {
  const created: string[] = [];
  const skipped: string[] = [];
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
    } catch {
      // Rows of that month already sit in the default partition, or another server
      // process created it at the same moment: either way the fixes are stored.
      skipped.push(name);
    }
  }
  return { created, skipped };
}
