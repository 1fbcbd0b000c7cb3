/**
 * Files attached to a service record or to a document (`registros/attachments`): a photo or a
 * PDF of the invoice, of the scanned CRLV, of the exam's certificate.
 */
import * as v from 'valibot';
import { IdSchema, IsoTimestampSchema } from './common';
import * as o from './objects';

/** What may be attached: photos and PDFs, told by the file's first bytes, never by its name. */
export const ATTACHMENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'application/pdf',
] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/** A file up to 10 MB: a phone's photo or a scanned document of a few pages. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_ATTACHMENT_MB = MAX_ATTACHMENT_BYTES / 1024 / 1024;
/** Files of one record. */
export const MAX_ATTACHMENTS_PER_RECORD = 10;
/** Files of one upload: the PWA sends one at a time, a script a few; never 100 MB at once. */
export const MAX_ATTACHMENTS_PER_UPLOAD = 3;

/** The records that take attachments, as their path segment in the API. */
export const ATTACHMENT_OWNERS = ['service-record', 'document'] as const;
export type AttachmentOwner = (typeof ATTACHMENT_OWNERS)[number];

export const AttachmentSchema = o.object({
  id: IdSchema,
  /** The name it was sent with, cleaned (no folders, no control characters). */
  name: v.string(),
  contentType: v.picklist(ATTACHMENT_TYPES),
  size: v.number(),
  createdAt: IsoTimestampSchema,
  /** Who attached it (null when that user is gone). */
  createdBy: v.nullable(v.string()),
  /** Where its bytes are read (with the bearer token). */
  url: v.string(),
});
export type Attachment = v.InferOutput<typeof AttachmentSchema>;

export const AttachmentListSchema = o.object({ items: v.array(AttachmentSchema) });
export type AttachmentList = v.InferOutput<typeof AttachmentListSchema>;

export const AttachmentUploadSchema = o.object({
  message: v.string(),
  items: v.array(AttachmentSchema),
});
export type AttachmentUpload = v.InferOutput<typeof AttachmentUploadSchema>;
