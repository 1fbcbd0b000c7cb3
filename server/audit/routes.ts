import { type Context, Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import {
  AUDIT_WORDS,
  type AuditEvent,
  AuditEventSchema,
  AuditPageSchema,
  type AuditQuery,
  AuditQuerySchema,
  auditChangeLines,
  auditWhat,
  canReadAudit,
} from '../../src/contract';

import { type AuthEnv, requireAuth } from '../accounts/auth/middleware';
import type { Deps } from '../deps';
import { download } from '../platform/http/download';
import { forbidden, notFound } from '../platform/http/errors';
import { IdParam } from '../platform/http/openapi';
import { validate } from '../platform/http/validate';
import type { ReportDocument } from '../reports/files/model';
import { renderReport } from '../reports/files/render';
import { getClient, subtreeIds } from '../tenancy/queries';
import { canSeeClient, visibleClientIds } from '../tenancy/scope';
import { type AuditRow, listAudit } from './queries';

type Ctx = Context<AuthEnv>;
export const AUDIT_EVENT_NOT_FOUND = 'Evento não encontrado';
/** A spreadsheet holds at most this many lines: a longer log is narrowed by its filters. */
export const AUDIT_EXPORT_MAX = 20_000;

export function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    clientId: row.clientId,
    clientName: row.clientName,
    actorUserId: row.actorUserId,
    actorEmail: row.actorEmail,
    ip: row.ip,
    kind: row.kind as AuditEvent['kind'],
    entity: row.entity,
    entityId: row.entityId,
    summary: row.summary,
    changes: row.changes ?? null,
    outcome: row.outcome,
  };
}

export function auditRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), async (c, next) => {
    if (!canReadAudit(c.var.user.role)) throw forbidden();
    await next();
  });

  /** Whether the company is the top of the tree (no mother company): the platform's own. */
  async function atTheTop(clientId: string) {
    const client = await getClient(db, clientId);
    return Boolean(client && client.parentId === null);
  }

  /** The caller's reach, narrowed by the filters; a company out of reach is not there. */
  async function scope(c: Ctx, q: Partial<AuditQuery>) {
    const visible = await visibleClientIds(c, deps);
    let only: string[] | undefined;
    if (q.clientId) {
      if (!(await canSeeClient(c, deps, q.clientId))) throw notFound('Cliente não encontrado');
      const seen = new Set(visible);
      only = (await subtreeIds(db, q.clientId)).filter((id) => seen.has(id));
    }
    return {
      clientIds: visible,
      // Lines of no company (a refused sign-in of an unknown e-mail, with its address) are the
      // platform's: read by the administrators of the top company only, never of a customer.
      withUnowned:
        c.var.user.role === 'ADMINISTRATOR' && !q.clientId && (await atTheTop(c.var.user.clientId)),
      onlyClientIds: only,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
      userId: q.userId,
      kind: q.kind,
      entity: q.entity,
      entityId: q.entityId || undefined,
    };
  }

  app.get(
    '/',
    describeRoute({
      tags: ['Auditoria'],
      summary: 'Eventos da auditoria, do mais recente ao mais antigo, com filtros e paginação',
      responses: {
        200: {
          description: 'Página',
          content: { 'application/json': { schema: resolver(AuditPageSchema) } },
        },
      },
    }),
    validate('query', AuditQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const { rows, total } = await listAudit(db, await scope(c, q), {
        offset: (q.page - 1) * q.pageSize,
        limit: q.pageSize,
      });
      return c.json({ events: rows.map(toAuditEvent), page: q.page, pageSize: q.pageSize, total });
    },
  );

  app.get(
    '/download',
    describeRoute({
      tags: ['Auditoria'],
      summary: 'Os eventos dos filtros em planilha (XLSX)',
      responses: { 200: { description: 'Planilha' } },
    }),
    validate('query', AuditQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const filter = await scope(c, q);
      const { rows } = await listAudit(db, filter, { offset: 0, limit: AUDIT_EXPORT_MAX });
      const t = AUDIT_WORDS;
      const company = q.clientId
        ? (rows.find((r) => r.clientId === q.clientId)?.clientName ?? c.var.user.clientName)
        : t.allCompanies;
      const now = new Date();
      const doc: ReportDocument = {
        title: t.sheetTitle,
        fileBase: 'auditoria',
        customer: c.var.user.clientName,
        subjects: [company],
        subjectLabel: t.sheetCompany,
        beginAt: filter.from ?? rows.at(-1)?.at ?? now,
        endAt: filter.to ?? now,
        generatedAt: now,
        summary: [],
        routes: [],
        tables: [
          {
            title: t.sheetTitle,
            empty: t.emptyLog,
            columns: [
              { header: t.columns.at, kind: 'datetime', width: 20 },
              { header: t.columns.actor, kind: 'text', width: 28 },
              { header: t.columns.ip, kind: 'text', width: 16 },
              { header: t.columns.company, kind: 'text', width: 24 },
              { header: t.columns.what, kind: 'text', width: 26 },
              { header: t.columns.record, kind: 'text', width: 24 },
              { header: t.columns.changes, kind: 'text', width: 60 },
              { header: t.columns.outcome, kind: 'text', width: 14 },
            ],
            rows: rows.map((row) => {
              const event = toAuditEvent(row);
              return [
                row.at,
                event.actorEmail ?? t.unknownActor,
                event.ip ?? '',
                event.clientName ?? t.noCompany,
                auditWhat(event),
                event.summary,
                auditChangeLines(event.changes).join('\n'),
                event.outcome ? (t.outcomes[event.outcome] ?? event.outcome) : '',
              ];
            }),
          },
        ],
      };
      const file = await renderReport(doc, 'excel');
      return download(file, () => void file.remove());
    },
  );

  app.get(
    '/:id',
    describeRoute({
      tags: ['Auditoria'],
      summary: 'Um evento da auditoria',
      responses: {
        200: {
          description: 'Evento',
          content: { 'application/json': { schema: resolver(AuditEventSchema) } },
        },
      },
    }),
    validate('param', IdParam),
    async (c) => {
      const { rows } = await listAudit(
        db,
        { ...(await scope(c, {})), id: c.req.valid('param').id },
        { offset: 0, limit: 1 },
      );
      const row = rows[0];
      if (!row) throw notFound(AUDIT_EVENT_NOT_FOUND);
      return c.json(toAuditEvent(row));
    },
  );

  return app;
}
