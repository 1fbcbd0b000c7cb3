/** Rows of uploaded vehicle images (the files live on disk, see routes/images.ts). */
import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { vehicleImages } from '../schema';

export async function countImages(db: Db, vehicleId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(vehicleImages)
    .where(eq(vehicleImages.vehicleId, vehicleId));
  return row?.n ?? 0;
}

export async function insertImage(
  db: Db,
  values: { id: string; vehicleId: string; fileName: string; contentType: string; size: number },
) {
  await db.insert(vehicleImages).values(values);
}

export async function getImage(db: Db, id: string) {
  const [row] = await db.select().from(vehicleImages).where(eq(vehicleImages.id, id));
  return row;
}

export async function deleteImage(db: Db, id: string, vehicleId: string) {
  await db
    .delete(vehicleImages)
    .where(and(eq(vehicleImages.id, id), eq(vehicleImages.vehicleId, vehicleId)));
}
