/**
 * Refresh-token families and one-time set-password tokens. Rotation happens in one
 * transaction with a row lock, so two concurrent refreshes with the same token cannot both
 * succeed: the second sees the token used and revokes the family (replay detection).
 */
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from './client';
import { passwordTokens, refreshTokens } from './schema';

export async function storeRefreshToken(
  db: Db,
  row: { userId: string; familyId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(refreshTokens).values(row);
}

export type RotateResult =
  | { status: 'ok'; userId: string; familyId: string }
  | { status: 'unknown' | 'expired' | 'reused' | 'revoked' };

/** Marks the presented token used and stores its successor, or tells why it cannot. */
export async function rotateRefreshToken(
  db: Db,
  presentedHash: string,
  next: { tokenHash: string; expiresAt: Date },
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
    if (row.usedAt) {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
      return { status: 'reused' };
    }
    if (row.expiresAt <= now) return { status: 'expired' };
    await tx.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, row.id));
    await tx.insert(refreshTokens).values({
      userId: row.userId,
      familyId: row.familyId,
      tokenHash: next.tokenHash,
      expiresAt: next.expiresAt,
    });
    return { status: 'ok', userId: row.userId, familyId: row.familyId };
  });
}

export async function revokeFamily(db: Db, familyId: string, now = new Date()) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function revokeUserTokens(db: Db, userId: string, now = new Date()) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

export type PasswordTokenPurpose = 'first_access' | 'recovery';

export async function storePasswordToken(
  db: Db,
  row: { userId: string; purpose: PasswordTokenPurpose; tokenHash: string; expiresAt: Date },
) {
  await db.insert(passwordTokens).values(row);
}

export async function lastPasswordTokenAt(db: Db, userId: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ createdAt: passwordTokens.createdAt })
    .from(passwordTokens)
    .where(eq(passwordTokens.userId, userId))
    .orderBy(desc(passwordTokens.createdAt))
    .limit(1);
  return row?.createdAt;
}

/**
 * Uses a set-password token once and sets the password in the same transaction; returns the
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
    if (!row || row.usedAt || row.expiresAt <= now) return undefined;
    await tx.update(passwordTokens).set({ usedAt: now }).where(eq(passwordTokens.id, row.id));
    await apply(tx as unknown as Db, row.userId);
    return row.userId;
  });
}
