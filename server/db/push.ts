/** Push (FCM) registration tokens: one row a browser, moved to whoever signs in on it. */
import { and, eq } from 'drizzle-orm';
import type { Db } from './client';
import { pushTokens } from './schema';

export async function subscribePushToken(db: Db, userId: string, token: string) {
  await db
    .insert(pushTokens)
    .values({ token, userId })
    .onConflictDoUpdate({ target: pushTokens.token, set: { userId, updatedAt: new Date() } });
}

export async function unsubscribePushToken(db: Db, userId: string, token: string) {
  const removed = await db
    .delete(pushTokens)
    .where(and(eq(pushTokens.token, token), eq(pushTokens.userId, userId)))
    .returning({ token: pushTokens.token });
  return removed.length > 0;
}

export async function pushTokensOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ token: pushTokens.token })
    .from(pushTokens)
    .where(eq(pushTokens.userId, userId));
  return rows.map((row) => row.token);
}
