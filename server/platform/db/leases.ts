/**
 * Leases of periodic jobs (table job_leases): a process claims a job for a while, and only
 * the claimant runs it. One statement claims or declines, atomically, on the database's own
 * clock (the processes' clocks may differ): a new job's row is inserted, an expired one is
 * taken over, a live one is left alone.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from './client';

/** Claims job `name` for `ms` milliseconds unless another claim is still live; true if claimed. */
export async function claimLease(db: Db, name: string, holder: string, ms: number) {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      insert into job_leases as j (name, holder, until)
      values (${name}, ${holder}, now() + ${ms} * interval '1 millisecond')
      on conflict (name) do update
        set holder = excluded.holder, until = excluded.until, runs = j.runs + 1
        where j.until <= now()
      returning name`),
  );
  return rows.length > 0;
}

/** The lease of a job as stored (for tests and operators). */
export async function leaseOf(db: Db, name: string) {
  const [row] = rowsOf<{ holder: string; until: Date; runs: string | number }>(
    await db.execute(sql`select holder, until, runs from job_leases where name = ${name}`),
  );
  return row && { holder: row.holder, until: new Date(row.until), runs: Number(row.runs) };
}
