/**
 * Files attached to service records and documents (multipart field `files`, like vehicle
 * images). The type is told by the file's first bytes, never by its name or the type the
 * browser claims: JPEG, PNG, WebP or PDF, so nothing the server hands back can be HTML or SVG
 * run as the site. Each file is stored under UPLOAD_DIR/attachments/<owner>/<random id>; the
 * name it was sent with is only shown and offered as the download's name.
 *
 * Who may see an attachment is who may see its record: the record's routes' customers (a
 * VISITOR sees no upkeep records), and only while the record is not cancelled, so a removed
 * record's files are not served any more. Attaching and removing a file are changes of the
 * record (create_resources, what editing it asks), audited as the record's writes are.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import {
  ATTACHMENT_OWNERS,
  ATTACHMENT_TYPES,
  AttachmentListSchema,
  type AttachmentOwner,
  type AttachmentType,
  AttachmentUploadSchema,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_MB,
  MAX_ATTACHMENTS_PER_RECORD,
  MAX_ATTACHMENTS_PER_UPLOAD,
  MessageSchema,
} from '../../../src/contract';
import * as o from '../../../src/contract/objects';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import { recordChange } from '../../audit/record';
import type { Deps } from '../../deps';
import type { Ctx } from '../../owned/mold';
import { getOwned } from '../../owned/queries';
import { badRequest, HttpError, notFound } from '../../platform/http/errors';
import { MULTIPART_FILES, sniffUpload } from '../../platform/http/file-types';
import { docs, IdParam } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { documents, serviceRecords } from '../../schema';
import { visibleClientIds } from '../../tenancy/scope';
import {
  type AttachmentOwnerColumn,
  type AttachmentRow,
  attachmentById,
  attachmentsOf,
  deleteAttachment,
  insertAttachments,
} from '../queries/attachments';

const TYPES_TEXT = 'use JPEG, PNG, WebP ou PDF';
const NOT_FOUND = 'Anexo não encontrado';
const MAX_NAME = 120;

interface Owner {
  column: AttachmentOwnerColumn;
  table: typeof serviceRecords | typeof documents;
  notFound: string;
}
const OWNERS: Record<AttachmentOwner, Owner> = {
  'service-record': {
    column: 'serviceRecordId',
    table: serviceRecords,
    notFound: 'Registro de serviço não encontrado',
  },
  document: { column: 'documentId', table: documents, notFound: 'Documento não encontrado' },
};

const OwnerParam = o.object({
  owner: v.picklist(ATTACHMENT_OWNERS, 'Tipo de registro inválido'),
  id: IdParam.entries.id,
});

/**
 * The name to show and offer: without folders (a browser may send 'C:\fotos\nota.pdf'),
 * control characters or quotes, at most 120 characters, and ending in its type's extension
 * so that a PDF sent as 'nota.html' is not saved as a page.
 */
export function cleanName(sent: string, type: { ext: readonly string[] }): string {
  const base = (sent.split(/[/\\]/).pop() ?? '')
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what goes.
    .replace(/[\u0000-\u001f\u007f"<>|*?:]/g, '')
    // Direction marks would show 'nota\u202Efdp.exe' as 'notaexe.pdf': the name must read as it is.
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1) : '';
  const fits = type.ext.includes(ext.toLowerCase());
  const stem = (fits ? base.slice(0, dot) : base) || 'arquivo';
  const suffix = fits ? ext : (type.ext[0] ?? '');
  return `${[...stem].slice(0, MAX_NAME - suffix.length - 1).join('')}.${suffix}`;
}

/** Content-Disposition with the name as sent (RFC 6266/5987) and a plain-ASCII fallback. */
function disposition(name: string): string {
  const ascii =
    name
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '') || 'anexo';
  // RFC 5987 leaves out of a value what encodeURIComponent keeps: ' ( ) * and !.
  const encoded = encodeURIComponent(name).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function attachmentRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));
  const dir = (ownerId: string) => path.join(deps.config.uploadDir, 'attachments', ownerId);
  const fileOf = (row: AttachmentRow) =>
    path.join(dir((row.serviceRecordId ?? row.documentId) as string), row.id);

  /** The record, if the caller may see it and it is not cancelled; otherwise a 404. */
  async function ownerRecord(c: Ctx, owner: Owner, id: string, message = owner.notFound) {
    // A visitor sees the vehicles linked to them, none of the company's upkeep papers.
    const row =
      c.var.user.role === 'VISITOR'
        ? undefined
        : await getOwned(db, owner.table, id, await visibleClientIds(c, deps));
    if (!row) throw notFound(message);
    return row;
  }

  /** The attachment and its record, or 404 when either is not the caller's to see. */
  async function visibleAttachment(c: Ctx, id: string) {
    const row = await attachmentById(db, id);
    if (!row) throw notFound(NOT_FOUND);
    const owner = row.serviceRecordId ? OWNERS['service-record'] : OWNERS.document;
    const ownerId = (row.serviceRecordId ?? row.documentId) as string;
    const record = await ownerRecord(c, owner, ownerId, NOT_FOUND);
    return { row, record };
  }

  const out = (row: AttachmentRow, createdByName: string | null) => ({
    id: row.id,
    name: row.name,
    contentType: row.contentType as AttachmentType,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
    createdBy: createdByName,
    url: `/registros/attachments/${row.id}`,
  });

  app.get(
    '/:owner/:id',
    describeRoute({
      tags: ['Anexos'],
      summary: 'Anexos de um serviço realizado (service-record) ou de um documento (document)',
      responses: { 200: docs(AttachmentListSchema, 'Anexos') },
    }),
    validate('param', OwnerParam),
    async (c) => {
      const { owner, id } = c.req.valid('param');
      const record = await ownerRecord(c, OWNERS[owner], id);
      const rows = await attachmentsOf(db, OWNERS[owner].column, record.id);
      return c.json({ items: rows.map((r) => out(r.row, r.createdByName)) });
    },
  );

  app.post(
    '/:owner/:id',
    describeRoute({
      tags: ['Anexos'],
      summary: `Anexar arquivos (multipart, campo files; JPEG, PNG, WebP ou PDF até ${MAX_ATTACHMENT_MB} MB)`,
      requestBody: MULTIPART_FILES,
      responses: { 201: docs(AttachmentUploadSchema, 'Arquivos anexados') },
    }),
    requirePermission('create_resources'),
    validate('param', OwnerParam),
    async (c) => {
      const { owner: ownerKey, id } = c.req.valid('param');
      const owner = OWNERS[ownerKey];
      const record = await ownerRecord(c, owner, id);
      const form = await c.req.parseBody({ all: true }).catch(() => {
        throw badRequest('Envie os arquivos como multipart/form-data no campo files');
      });
      const files = ([] as unknown[])
        .concat(form.files ?? [])
        .filter((f): f is File => f instanceof File);
      if (files.length === 0) throw badRequest('Nenhum arquivo enviado no campo files');
      if (files.length > MAX_ATTACHMENTS_PER_UPLOAD)
        throw badRequest(`Envie no máximo ${MAX_ATTACHMENTS_PER_UPLOAD} arquivos por vez`);
      const checked: { bytes: Buffer; type: AttachmentType; name: string }[] = [];
      for (const file of files) {
        if (file.size > MAX_ATTACHMENT_BYTES)
          throw new HttpError(
            413,
            'BAD_REQUEST',
            `${file.name}: arquivo maior que ${MAX_ATTACHMENT_MB} MB`,
          );
        const bytes = Buffer.from(await file.arrayBuffer());
        const kind = sniffUpload(bytes, ATTACHMENT_TYPES);
        if (!kind) throw badRequest(`${file.name}: formato não aceito (${TYPES_TEXT})`);
        checked.push({ bytes, type: kind.type, name: cleanName(file.name, kind) });
      }
      const rows = checked.map((f) => ({
        id: randomUUID(),
        name: f.name,
        contentType: f.type,
        size: f.bytes.length,
        createdBy: c.var.user.id,
      }));
      // Files first, rows after: a row never names a file that is not there. Files of rows
      // that were not added (too many, a failure) are removed again.
      await mkdir(dir(record.id), { recursive: true });
      await Promise.all(
        rows.map((row, i) =>
          writeFile(path.join(dir(record.id), row.id), (checked[i] as { bytes: Buffer }).bytes),
        ),
      );
      const removeFiles = () =>
        Promise.all(rows.map((row) => rm(path.join(dir(record.id), row.id), { force: true })));
      let added: AttachmentRow[] | undefined;
      try {
        added = await db.transaction(async (tx) => {
          const inserted = await insertAttachments(
            tx,
            owner.column,
            record.id,
            rows,
            MAX_ATTACHMENTS_PER_RECORD,
          );
          for (const row of inserted ?? [])
            await recordChange(tx, c, deps, {
              entity: 'attachment',
              clientId: record.clientId,
              entityId: row.id,
              summary: row.name,
              after: {
                name: row.name,
                contentType: row.contentType,
                size: row.size,
                [owner.column]: record.id,
              },
            });
          return inserted;
        });
      } catch (err) {
        await removeFiles();
        throw err;
      }
      if (!added) {
        await removeFiles();
        throw badRequest(
          `Cada registro pode ter no máximo ${MAX_ATTACHMENTS_PER_RECORD} anexos: remova algum antes de enviar outro`,
        );
      }
      const n = added.length;
      return c.json(
        {
          message: n === 1 ? '1 arquivo anexado.' : `${n} arquivos anexados.`,
          items: added.map((row) => out(row, c.var.user.name)),
        },
        201,
      );
    },
  );

  app.get(
    '/:id',
    describeRoute({ tags: ['Anexos'], summary: 'O arquivo de um anexo (para baixar)' }),
    validate('param', IdParam),
    async (c) => {
      const { row } = await visibleAttachment(c, c.req.valid('param').id);
      const bytes = await readFile(fileOf(row)).catch(() => {
        throw notFound(NOT_FOUND);
      });
      // Always a download, never a page: the type is one of the four checked on the way in,
      // and nosniff keeps browsers from guessing another (say, HTML) from the bytes.
      return c.body(new Uint8Array(bytes), 200, {
        'Content-Type': row.contentType,
        'Content-Disposition': disposition(row.name),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
      });
    },
  );

  app.delete(
    '/:id',
    describeRoute({
      tags: ['Anexos'],
      summary: 'Remover um anexo',
      responses: { 200: docs(MessageSchema, 'Removido') },
    }),
    requirePermission('create_resources'),
    validate('param', IdParam),
    async (c) => {
      const { row, record } = await visibleAttachment(c, c.req.valid('param').id);
      const owner = row.serviceRecordId ? OWNERS['service-record'] : OWNERS.document;
      const removed = await db.transaction(async (tx) => {
        if (!(await deleteAttachment(tx, row.id))) return false;
        await recordChange(tx, c, deps, {
          entity: 'attachment',
          clientId: record.clientId,
          entityId: row.id,
          summary: row.name,
          before: { name: row.name, [owner.column]: record.id },
        });
        return true;
      });
      if (!removed) throw notFound(NOT_FOUND);
      await rm(fileOf(row), { force: true });
      return c.json({ message: 'Anexo removido.' });
    },
  );

  return app;
}
