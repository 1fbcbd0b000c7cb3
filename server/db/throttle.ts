/**
 * Failed sign-in counters shared by every server process. A key is 'account:<email>' or
 * 'address:<ip>'. Counters live for one block period after the first failure.
 */
import { eq, inArray } from 'drizzle-orm';
import type { Db } from './client';
import { loginThrottle } from './schema';

export interface ThrottleState {
  key: string;
  failures: number;
  blockedUntil: Date | null;
}

export async function readThrottle(db: Db, keys: string[], windowMs: number, now = new Date()) {
  const rows = await db.select().from(loginThrottle).where(inArray(loginThrottle.key, keys));
  return rows.map<ThrottleState>((row) => {
    const stale = now.getTime() - row.windowStartedAt.getTime() > windowMs;
    return {
      key: row.key,
      failures: stale ? 0 : row.failures,
      blockedUntil: row.blockedUntil && row.blockedUntil > now ? row.blockedUntil : null,
    };
  });
}

/** Adds one failure; when the count reaches blockAfter the key is blocked until blockUntil. */
export async function addFailure(
  db: Db,
  key: string,
  blockAfter: number,
  windowMs: number,
  now = new Date(),
): Promise<ThrottleState> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, key))
      .for('update');
    const stale = !row || now.getTime() - row.windowStartedAt.getTime() > windowMs;
    const failures = stale ? 1 : row.failures + 1;
    const blockedUntil = failures >= blockAfter ? new Date(now.getTime() + windowMs) : null;
    const values = {
      key,
      failures: blockedUntil ? 0 : failures,
      windowStartedAt: stale || blockedUntil ? now : row.windowStartedAt,
      blockedUntil,
    };
    await tx
      .insert(loginThrottle)
      .values(values)
      .onConflictDoUpdate({ target: loginThrottle.key, set: values });
    return { key, failures, blockedUntil };
  });
}

export async function clearThrottle(db: Db, key: string) {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}
