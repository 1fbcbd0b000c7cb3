/**
 * SPEC §7 alerts: `GET registros/alerts` (filters vehicle, type, acknowledged and period;
 * `{ items, page, limit, total }`; sortable by name — the vehicle's —, createdAt, updatedAt),
 * `GET registros/alerts/{id}`, `PUT registros/alerts/ack {alertIds}` and `PUT
 * registros/alerts/ack-all` (everything the caller sees), both answering `{ count }` of the
 * alerts they acknowledged. Reading needs read_resources (a Terceiro: only their linked
 * vehicles' alerts); acknowledging needs create_resources. An id the caller does not see
 * answers 404 and acknowledges nothing.
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import {
  AckResultSchema,
  AckSchema,
  AlertPageSchema,
  AlertQuerySchema,
  AlertSchema,
  IdSchema,
} from '../../../src/contract';
import * as o from '../../../src/contract/objects';
import { periodProblem } from '../../../src/lib/report-period';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { badRequest, notFound } from '../../platform/http/errors';
import { docs, IdParam } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { acknowledge, alertById, alertOut, countVisible, listAlerts } from '../queries/alerts';
import { alertScope } from '../visible';

const NOT_FOUND = 'Alerta não encontrado';

const AckAllQuerySchema = o.strictObject({ clientId: v.optional(IdSchema) });

export function alertRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

  app.get(
    '/',
    describeRoute({
      tags: ['Alertas'],
      summary: 'Listar (veículo, tipo, reconhecido, período; paginação e ordenação)',
      responses: { 200: docs(AlertPageSchema, 'Página') },
    }),
    validate('query', AlertQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      // A period that ends before it begins is a mistake, not an empty list: the reports' rule
      // (with no longest period: the list pages).
      const problem = q.beginAt && q.endAt && periodProblem(q.beginAt, q.endAt, Infinity);
      if (problem) throw badRequest(problem);
      const { rows, total } = await listAlerts(
        db,
        await alertScope(c, deps, q.clientId),
        {
          vehicleId: q.vehicleId,
          type: q.type,
          acknowledged: q.acknowledged,
          beginAt: q.beginAt ? new Date(q.beginAt) : undefined,
          endAt: q.endAt ? new Date(q.endAt) : undefined,
        },
        { page: q.page, limit: q.limit, sort: q.sort, order: q.order },
      );
      return c.json({ items: rows.map(alertOut), page: q.page, limit: q.limit, total });
    },
  );

  app.put(
    '/ack',
    describeRoute({
      tags: ['Alertas'],
      summary: 'Reconhecer alertas (alertIds); responde quantos foram reconhecidos agora',
      responses: { 200: docs(AckResultSchema, 'Reconhecidos') },
    }),
    requirePermission('create_resources'),
    validate('json', AckSchema),
    async (c) => {
      const ids = [...new Set(c.req.valid('json').alertIds)];
      const scope = await alertScope(c, deps);
      if ((await countVisible(db, scope, ids)) !== ids.length) throw notFound(NOT_FOUND);
      return c.json({ count: await acknowledge(db, scope, c.var.user.id, ids) });
    },
  );

  app.put(
    '/ack-all',
    describeRoute({
      tags: ['Alertas'],
      summary: 'Reconhecer todos os alertas que o usuário vê; responde quantos',
      responses: { 200: docs(AckResultSchema, 'Reconhecidos') },
    }),
    requirePermission('create_resources'),
    validate('query', AckAllQuerySchema),
    async (c) => {
      const scope = await alertScope(c, deps, c.req.valid('query').clientId);
      return c.json({ count: await acknowledge(db, scope, c.var.user.id) });
    },
  );

  app.get(
    '/:id',
    describeRoute({
      tags: ['Alertas'],
      summary: 'Ler um',
      responses: { 200: docs(AlertSchema, 'Alerta') },
    }),
    validate('param', IdParam),
    async (c) => {
      const row = await alertById(db, await alertScope(c, deps), c.req.valid('param').id);
      if (!row) throw notFound(NOT_FOUND);
      return c.json(alertOut(row));
    },
  );

  return app;
}
