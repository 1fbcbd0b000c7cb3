/** Files attached to a service record or a document (`registros/attachments`). */
import * as v from 'valibot';
import {
  ATTACHMENT_TYPES,
  AttachmentListSchema,
  type AttachmentOwner,
  AttachmentUploadSchema,
  MessageSchema,
} from '../contract';
import { api } from './client';

const ownerPath = (owner: AttachmentOwner, id: string) => `registros/attachments/${owner}/${id}`;

export async function listAttachments(owner: AttachmentOwner, id: string) {
  return v.parse(AttachmentListSchema, await api.get(ownerPath(owner, id)).json()).items;
}

/** One file a call: each shows its own progress and its own refusal. */
export async function uploadAttachment(owner: AttachmentOwner, id: string, file: File) {
  const body = new FormData();
  body.append('files', file);
  return v.parse(
    AttachmentUploadSchema,
    await api.post(ownerPath(owner, id), { body, timeout: 120_000 }).json(),
  );
}

/**
 * The file's bytes (they need the bearer token, so they come through the client). The blob
 * takes one of the four types the server checks, never what the answer claims otherwise: a
 * blob URL opens as the site, and must never open as a page.
 */
export async function attachmentBlob(url: string): Promise<Blob> {
  const res = await api.get(url.replace(/^\//, ''), { timeout: 120_000 });
  const claimed = res.headers.get('content-type') ?? '';
  const type = ATTACHMENT_TYPES.find((t) => t === claimed) ?? 'application/octet-stream';
  return new Blob([await res.arrayBuffer()], { type });
}

export async function deleteAttachment(url: string) {
  return v.parse(MessageSchema, await api.delete(url.replace(/^\//, '')).json()).message;
}
