/** Rows of files attached to service records and documents (the bytes are on disk). */
import { asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { attachments, documents, serviceRecords, users } from '../../schema';

export type AttachmentRow = typeof attachments.$inferSelect;
export type AttachmentOwnerColumn = 'serviceRecordId' | 'documentId';

/** The owner's table of each owner column. */
const OWNER_TABLES = { serviceRecordId: serviceRecords, documentId: documents } as const;

/** An owner's attachments, oldest first (then by name), with the name of who attached each. */
export async function attachmentsOf(db: Db, column: AttachmentOwnerColumn, ownerId: string) {
  return db
    .select({ row: attachments, createdByName: users.name })
    .from(attachments)
    .leftJoin(users, eq(users.id, attachments.createdBy))
    .where(eq(attachments[column], ownerId))
    .orderBy(asc(attachments.createdAt), asc(attachments.name), asc(attachments.id));
}

export async function attachmentById(db: Db, id: string): Promise<AttachmentRow | undefined> {
  const [row] = await db.select().from(attachments).where(eq(attachments.id, id));
  return row;
}

/**
 * Adds an owner's new attachments if they fit under `max`, counted while the owner's row is
 * locked: two uploads at once cannot both pass the count. Answers false (and adds nothing)
 * when they do not fit.
 */
export async function insertAttachments(
  tx: Db,
  column: AttachmentOwnerColumn,
  ownerId: string,
  rows: Omit<AttachmentRow, 'createdAt' | 'serviceRecordId' | 'documentId'>[],
  max: number,
): Promise<AttachmentRow[] | undefined> {
  const owner = OWNER_TABLES[column];
  await tx.select({ id: owner.id }).from(owner).where(eq(owner.id, ownerId)).for('update');
  const [had] = await tx
    .select({ n: count() })
    .from(attachments)
    .where(eq(attachments[column], ownerId));
  if ((had?.n ?? 0) + rows.length > max) return undefined;
  return tx
    .insert(attachments)
    .values(rows.map((row) => ({ ...row, [column]: ownerId })))
    .returning();
}

export async function deleteAttachment(tx: Db, id: string): Promise<boolean> {
  const gone = await tx
    .delete(attachments)
    .where(eq(attachments.id, id))
    .returning({ id: attachments.id });
  return gone.length > 0;
}

/** The demo's sample: a file on the first service record done at `workshop`, if there is one. */
export async function attachToWorkshopRecord(
  db: Db,
  workshop: string,
  file: { name: string; contentType: string; size: number },
): Promise<{ id: string; ownerId: string } | undefined> {
  const [record] = await db
    .select({ id: serviceRecords.id })
    .from(serviceRecords)
    .where(eq(serviceRecords.workshop, workshop))
    .limit(1);
  if (!record) return undefined;
  const [row] = await db
    .insert(attachments)
    .values({ ...file, serviceRecordId: record.id })
    .returning({ id: attachments.id });
  return row && { id: row.id, ownerId: record.id };
}
