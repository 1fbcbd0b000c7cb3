/** The tracker type catalogue (shared by every customer). */
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { containsAny } from '../../owned/queries';
import type { Db } from '../../platform/db/client';
import { trackerTypes } from '../schema';

export type TrackerTypeRow = typeof trackerTypes.$inferSelect;

const SORTS = {
  manufacturer: sql`lower(${trackerTypes.manufacturer})`,
  model: sql`lower(${trackerTypes.model})`,
  createdAt: trackerTypes.createdAt,
};

export async function listTrackerTypes(
  db: Db,
  q: {
    search: string;
    page: number;
    limit: number;
    sort: keyof typeof SORTS;
    order: 'asc' | 'desc';
  },
) {
  const where = and(
    isNull(trackerTypes.canceledAt),
    containsAny(q.search, [trackerTypes.manufacturer, trackerTypes.model, trackerTypes.protocol]),
  );
  const direction = q.order === 'desc' ? desc : asc;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(trackerTypes)
      .where(where)
      .orderBy(direction(SORTS[q.sort]), asc(trackerTypes.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(trackerTypes).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function getTrackerType(db: Db, id: string) {
  const [row] = await db
    .select()
    .from(trackerTypes)
    .where(and(eq(trackerTypes.id, id), isNull(trackerTypes.canceledAt)));
  return row;
}

export async function insertTrackerType(db: Db, values: typeof trackerTypes.$inferInsert) {
  const [row] = await db.insert(trackerTypes).values(values).returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

export async function updateTrackerType(
  db: Db,
  id: string,
  values: Partial<typeof trackerTypes.$inferInsert>,
) {
  const [row] = await db
    .update(trackerTypes)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(trackerTypes.id, id))
    .returning();
  return row;
}

export async function cancelTrackerType(db: Db, id: string) {
  await db.update(trackerTypes).set({ canceledAt: new Date() }).where(eq(trackerTypes.id, id));
}
