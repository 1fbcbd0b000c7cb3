/**
 * Two-step sign-in rows: the user's encrypted secret and last accepted step, the hashed
 * recovery codes and the hashed challenges between the password and the code. Every "use
 * once" is one conditional UPDATE … RETURNING, so two requests racing with the same code,
 * recovery code or challenge cannot both win.
 */
import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { twoFactorChallenges, twoFactorRecoveryCodes, users } from '../schema';

export interface TwoFactorState {
  secret: string | null;
  enabledAt: Date | null;
}

export async function twoFactorState(db: Db, userId: string): Promise<TwoFactorState> {
  const [row] = await db
    .select({ secret: users.totpSecret, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? { secret: null, enabledAt: null };
}

/** Keeps a new secret awaiting its first code; never replaces the secret of an enabled one. */
export async function storePendingSecret(db: Db, userId: string, encrypted: string) {
  const rows = await db
    .update(users)
    .set({ totpSecret: encrypted, totpLastStep: null })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Takes this step as used when no later or equal one was: false for a code already
 * accepted (replayed) or older than the last accepted one.
 */
export async function spendStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Turns two-step sign-in on (the pending secret was confirmed) with fresh recovery codes. */
export async function enableTwoFactor(db: Db, userId: string, codeHashes: string[]) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({ totpEnabledAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
      .returning({ id: users.id });
    if (rows.length === 0) return false;
    await replaceRecoveryCodes(tx, userId, codeHashes);
    return true;
  });
}

export async function replaceRecoveryCodes(db: Db, userId: string, codeHashes: string[]) {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db
    .insert(twoFactorRecoveryCodes)
    .values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

export async function spendRecoveryCode(db: Db, userId: string, codeHash: string) {
  const rows = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, codeHash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return rows.length > 0;
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

export async function disableTwoFactor(db: Db, userId: string) {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
      .where(eq(users.id, userId));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, userId));
  });
}

export async function storeChallenge(
  db: Db,
  row: { userId: string; tokenHash: string; expiresAt: Date },
) {
  // Spent and stale challenges of the user go with each new one: the table stays small.
  await db
    .delete(twoFactorChallenges)
    .where(
      and(
        eq(twoFactorChallenges.userId, row.userId),
        or(
          sql`${twoFactorChallenges.usedAt} is not null`,
          lt(twoFactorChallenges.expiresAt, new Date()),
        ),
      ),
    );
  await db.insert(twoFactorChallenges).values(row);
}

/** The user of a challenge still open (not spent, not expired), or undefined. */
export async function openChallenge(db: Db, tokenHash: string, now = new Date()) {
  const [row] = await db
    .select({ userId: twoFactorChallenges.userId })
    .from(twoFactorChallenges)
    .where(
      and(
        eq(twoFactorChallenges.tokenHash, tokenHash),
        isNull(twoFactorChallenges.usedAt),
        gt(twoFactorChallenges.expiresAt, now),
      ),
    );
  return row?.userId;
}

/** Spends an open challenge; false when it was spent (or ran out) meanwhile. */
export async function spendChallenge(db: Db, tokenHash: string, now = new Date()) {
  const rows = await db
    .update(twoFactorChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(twoFactorChallenges.tokenHash, tokenHash),
        isNull(twoFactorChallenges.usedAt),
        gt(twoFactorChallenges.expiresAt, now),
      ),
    )
    .returning({ id: twoFactorChallenges.id });
  return rows.length > 0;
}
