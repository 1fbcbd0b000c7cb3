/**
 * Sign-in attempt counters shared by every server process. A key is 'account:<email>' or
 * 'address:<ip>'. Counters live for one block period after the first attempt.
 *
 * An attempt is counted before its password is checked, on both keys in one statement
 * (`INSERT … ON CONFLICT DO UPDATE … RETURNING`): parallel attempts each get their own,
 * increasing number, so a hundred of them at once cannot all be checked. The attempt that
 * reaches a key's limit blocks it; an active block is never cleared (not by a later failure,
 * not by a success) until it runs out. An attempt made while a key is blocked is not counted.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from './client';

export interface ThrottleState {
  key: string;
  /** Attempts in the current window, this one included. */
  failures: number;
  blockedUntil: Date | null;
}

interface Row {
  key: string;
  failures: number;
  blocked_until: string | Date | null;
}

const toState = (row: Row): ThrottleState => ({
  key: row.key,
  failures: Number(row.failures),
  blockedUntil: row.blocked_until ? new Date(row.blocked_until) : null,
});

/**
 * Counts one attempt on the account and address keys; returns both states, or undefined
 * when a key was already blocked (then nothing is counted; see `activeBlocks`).
 */
export async function countAttempt(
  db: Db,
  keys: { account: string; address: string },
  limits: { account: number; address: number },
  windowMs: number,
  now = new Date(),
): Promise<ThrottleState[] | undefined> {
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - windowMs).toISOString();
  const until = new Date(now.getTime() + windowMs).toISOString();
  const limit = sql`(case when t.key like 'account:%' then ${limits.account}::int else ${limits.address}::int end)`;
  const fresh = sql`t.window_started_at < ${windowStart}::timestamptz`;
  const counted = sql`(case when ${fresh} then 1 else t.failures + 1 end)`;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      with blocked as (
        select 1 from login_throttle where key in (${keys.account}, ${keys.address})
          and blocked_until > ${at}::timestamptz
      )
      insert into login_throttle as t (key, failures, window_started_at, blocked_until)
      select v.key, 1, ${at}::timestamptz,
          case when 1 >= v.lim then ${until}::timestamptz end
        from (values (${keys.account}, ${limits.account}::int),
                     (${keys.address}, ${limits.address}::int)) as v(key, lim)
        where not exists (select 1 from blocked)
        order by v.key
      on conflict (key) do update set
        failures = ${counted},
        window_started_at = case when ${fresh} then ${at}::timestamptz else t.window_started_at end,
        blocked_until = case
          when t.blocked_until > ${at}::timestamptz then t.blocked_until
          when ${counted} >= ${limit} then ${until}::timestamptz
        end
      returning key, failures, blocked_until`),
  );
  return rows.length === 0 ? undefined : rows.map(toState);
}

/** The blocks in force on these keys. */
export async function activeBlocks(db: Db, keys: string[], now = new Date()) {
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select key, failures, blocked_until from login_throttle
        where key in (${sql.join(
          keys.map((key) => sql`${key}`),
          sql`, `,
        )}) and blocked_until > ${now.toISOString()}::timestamptz`),
  );
  return rows.map(toState);
}

/**
 * A successful sign-in: the attempt it counted was no failure. The account starts over and
 * the address gives the attempt back; neither touches a block in force.
 */
export async function attemptSucceeded(
  db: Db,
  keys: { account: string; address: string },
  now = new Date(),
) {
  await db.execute(sql`
    update login_throttle set failures = case when key = ${keys.account} then 0
        else greatest(failures - 1, 0) end
      where key in (${keys.account}, ${keys.address})
        and (blocked_until is null or blocked_until <= ${now.toISOString()}::timestamptz)`);
}
