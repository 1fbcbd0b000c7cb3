/**
 * Settings the server generates once and every process must share, such as the token
 * signing secret when JWT_SECRET is not configured.
 */
import { eq } from 'drizzle-orm';
import { serverSettings } from '../../schema';
import type { Db } from './client';

export async function getOrCreateSetting(db: Db, key: string, create: () => string) {
  await db.insert(serverSettings).values({ key, value: create() }).onConflictDoNothing();
  const [row] = await db.select().from(serverSettings).where(eq(serverSettings.key, key));
  if (!row) throw new Error(`setting ${key} missing`);
  return row.value;
}
