/**
 * Sign-in attempt counters shared by every server process. A key is 'account:<email>',
 * 'pair:<email>|<ip>' (one address guessing one account) or 'address:<ip>'. Counters live
 * for one block period after the first attempt.
 *
 * An attempt is counted before its password is checked, on all its keys in one statement
 * (`INSERT … ON CONFLICT DO UPDATE … RETURNING`): parallel attempts each get their own,
 * increasing number, so a hundred of them at once cannot all be checked. The attempt that
 * reaches a key's limit blocks it; an active block is never cleared (not by a later failure,
 * not by a success) until it runs out. An attempt stopped by a block is not counted; which
 * keys' blocks stop an attempt is the caller's choice (`blocking`).
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../platform/db/client';
import { loginKnownAddresses } from '../schema';

export interface ThrottleState {
  key: string;
  /** Attempts in the current window, this one included. */
  failures: number;
  blockedUntil: Date | null;
}

export interface CountedKey {
  key: string;
  /** The attempt that reaches this count blocks the key. */
  limit: number;
  /** Whether a block in force on this key stops the attempt (else it is only counted). */
  blocking: boolean;
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

const list = (values: string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/**
 * Counts one attempt on every key; returns their states, or undefined when a blocking key
 * was already blocked (then nothing is counted; see `activeBlocks`).
 */
export async function countAttempt(
  db: Db,
  keys: CountedKey[],
  windowMs: number,
  now = new Date(),
): Promise<ThrottleState[] | undefined> {
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - windowMs).toISOString();
  const until = new Date(now.getTime() + windowMs).toISOString();
  const blocking = keys.filter((k) => k.blocking).map((k) => k.key);
  const limit = sql`(case t.key ${sql.join(
    keys.map((k) => sql`when ${k.key} then ${k.limit}::int`),
    sql` `,
  )} end)`;
  const values = sql.join(
    keys.map((k) => sql`(${k.key}, ${k.limit}::int)`),
    sql`, `,
  );
  const fresh = sql`t.window_started_at < ${windowStart}::timestamptz`;
  const counted = sql`(case when ${fresh} then 1 else t.failures + 1 end)`;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      with blocked as (
        select 1 from login_throttle where key in (${list(blocking)})
          and blocked_until > ${at}::timestamptz
      )
      insert into login_throttle as t (key, failures, window_started_at, blocked_until)
      select v.key, 1, ${at}::timestamptz,
          case when 1 >= v.lim then ${until}::timestamptz end
        from (values ${values}) as v(key, lim)
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
        where key in (${list(keys)}) and blocked_until > ${now.toISOString()}::timestamptz`),
  );
  return rows.map(toState);
}

/**
 * A successful sign-in: the attempt it counted was no failure. The address's attempts on
 * this account start over; the account and the address give the attempt back (the account's
 * count keeps the failures of others: the owner signing in does not reset a stranger's
 * guessing). Blocks in force stay. The address becomes one the account is known at.
 */
export async function attemptSucceeded(
  db: Db,
  keys: { account: string; pair: string; address: string },
  known: { account: string; address: string },
  now = new Date(),
) {
  await db.execute(sql`
    update login_throttle set failures = case when key = ${keys.pair} then 0
        else greatest(failures - 1, 0) end
      where key in (${keys.account}, ${keys.pair}, ${keys.address})
        and (blocked_until is null or blocked_until <= ${now.toISOString()}::timestamptz)`);
  await db
    .insert(loginKnownAddresses)
    .values({ ...known, lastSuccessAt: now })
    .onConflictDoUpdate({
      target: [loginKnownAddresses.account, loginKnownAddresses.address],
      set: { lastSuccessAt: now },
    });
}

/** Whether the account signed in successfully from this address since `since`. */
export async function isKnownAddress(
  db: Db,
  known: { account: string; address: string },
  since: Date,
): Promise<boolean> {
  const rows = await db
    .select({ account: loginKnownAddresses.account })
    .from(loginKnownAddresses)
    .where(
      and(
        eq(loginKnownAddresses.account, known.account),
        eq(loginKnownAddresses.address, known.address),
        gt(loginKnownAddresses.lastSuccessAt, since),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
