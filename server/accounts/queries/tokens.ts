/**
 * Refresh-token families and one-time set-password tokens. Rotation happens in one
 * transaction with a row lock. A token presented again after it was used means it was
 * stolen or replayed, and the whole family is revoked — except within a short grace after
 * its use, when it is the same person's second tab refreshing at the same moment: that one
 * gets the same successor the first use minted (the successor is derived from the token,
 * see `successorToken`), so replays never multiply a session. No token of a family outlives
 * the family's absolute lifetime, counted from its sign-in.
 */
import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { passwordTokens, refreshTokens } from '../schema';

export async function storeRefreshToken(
  db: Db,
  row: { userId: string; familyId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(refreshTokens).values(row);
}

export type RotateResult =
  | { status: 'ok'; userId: string; familyId: string }
  | { status: 'unknown' | 'expired' | 'reused' | 'revoked' };

export interface RotationRules {
  /** Lifetime of a token from its issue (idle limit), in ms. */
  ttlMs: number;
  /** Lifetime of a family from its sign-in (absolute limit), in ms. */
  maxAgeMs: number;
  /** How long a used token may still refresh (two tabs), in ms. */
  graceMs: number;
}

/**
 * Marks the presented token used and stores its successor (`nextHash`, always the same for
 * the same presented token), or tells why it cannot. Within the grace the successor stored
 * at the first use is answered again and nothing new is stored.
 */
export async function rotateRefreshToken(
  db: Db,
  presentedHash: string,
  nextHash: string,
  rules: RotationRules,
  now = new Date(),
): Promise<RotateResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, presentedHash))
      .for('update');
    if (!row) return { status: 'unknown' };
    if (row.revokedAt) return { status: 'revoked' };
    const graceful = row.usedAt && now.getTime() - row.usedAt.getTime() <= rules.graceMs;
    if (row.usedAt && !graceful) {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
      return { status: 'reused' };
    }
    const endOfSession = row.sessionStartedAt.getTime() + rules.maxAgeMs;
    if (row.expiresAt <= now || endOfSession <= now.getTime()) return { status: 'expired' };
    if (row.usedAt) {
      const [successor] = await tx
        .select({ id: refreshTokens.id })
        .from(refreshTokens)
        .where(
          and(eq(refreshTokens.tokenHash, nextHash), eq(refreshTokens.familyId, row.familyId)),
        );
      // Missing only when it was minted under another secret: the tab signs in again.
      if (!successor) return { status: 'expired' };
      return { status: 'ok', userId: row.userId, familyId: row.familyId };
    }
    await tx.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, row.id));
    await tx.insert(refreshTokens).values({
      userId: row.userId,
      familyId: row.familyId,
      tokenHash: nextHash,
      expiresAt: new Date(Math.min(now.getTime() + rules.ttlMs, endOfSession)),
      sessionStartedAt: row.sessionStartedAt,
    });
    return { status: 'ok', userId: row.userId, familyId: row.familyId };
  });
}

/** The family of a refresh token (used or not), unless unknown or already revoked. */
export async function familyOf(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId, userId: refreshTokens.userId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.revokedAt)));
  return row;
}

export async function revokeFamily(db: Db, familyId: string, now = new Date()) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes every session of a user, or every one but `keepFamily` (the caller's own). */
export async function revokeUserTokens(
  db: Db,
  userId: string,
  now = new Date(),
  keepFamily?: string,
) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepFamily ? ne(refreshTokens.familyId, keepFamily) : undefined,
      ),
    );
}

export type PasswordTokenPurpose = 'first_access' | 'recovery';

export async function storePasswordToken(
  db: Db,
  row: {
    userId: string;
    purpose: PasswordTokenPurpose | 'email_change';
    tokenHash: string;
    expiresAt: Date;
    newEmail?: string;
  },
) {
  await db.insert(passwordTokens).values(row);
}

/**
 * When the user's last set-password link was made. A pending e-mail change does not count:
 * its notice tells the owner to recover the password, and that must work at once.
 */
export async function lastPasswordTokenAt(db: Db, userId: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ createdAt: passwordTokens.createdAt })
    .from(passwordTokens)
    .where(and(eq(passwordTokens.userId, userId), ne(passwordTokens.purpose, 'email_change')))
    .orderBy(desc(passwordTokens.createdAt))
    .limit(1);
  return row?.createdAt;
}

/**
 * Marks every outstanding set-password link of a user used. Called on any password or
 * e-mail change: a link mailed before it (perhaps to an address the user no longer owns)
 * must not set another password afterwards.
 */
export async function voidPasswordTokens(db: Db, userId: string, now = new Date()) {
  await db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
}

/**
 * Uses a set-password token once (voiding the user's other links with it) and sets the password in the same transaction; returns the
 * user id, or undefined when the token is unknown, used or expired.
 */
export async function consumePasswordToken(
  db: Db,
  tokenHash: string,
  apply: (tx: Db, userId: string) => Promise<void>,
  now = new Date(),
): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(passwordTokens)
      .where(eq(passwordTokens.tokenHash, tokenHash))
      .for('update');
    // A link confirming a new e-mail address sets no password.
    if (!row || row.usedAt || row.expiresAt <= now || row.purpose === 'email_change')
      return undefined;
    await apply(tx, row.userId);
    await voidPasswordTokens(tx, row.userId, now);
    return row.userId;
  });
}

/**
 * Uses an e-mail confirmation token once: `apply` moves the account to the new address in
 * the same transaction, and every other outstanding link of the user is voided. Returns the
 * user id, or undefined when the token is unknown, used, expired or of another purpose.
 */
export async function consumeEmailToken(
  db: Db,
  tokenHash: string,
  apply: (tx: Db, userId: string, newEmail: string) => Promise<void>,
  now = new Date(),
): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(passwordTokens)
      .where(eq(passwordTokens.tokenHash, tokenHash))
      .for('update');
    if (!row || row.usedAt || row.expiresAt <= now || row.purpose !== 'email_change')
      return undefined;
    if (!row.newEmail) return undefined;
    await apply(tx, row.userId, row.newEmail);
    await voidPasswordTokens(tx, row.userId, now);
    return row.userId;
  });
}
