/**
 * SPEC §7 "Tracker types": the catalogue of tracker models. It is shared by every customer
 * (a model is the same device for all of them): everyone signed in reads it, and only those
 * with AdvancedCommands (administrators) change it.
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import {
  MessageSchema,
  TrackerTypeCreateSchema,
  TrackerTypePageSchema,
  TrackerTypeQuerySchema,
  TrackerTypeSchema,
  TrackerTypeUpdateSchema,
} from '../../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { isUniqueViolation } from '../../owned/queries';
import { HttpError, notFound } from '../../platform/http/errors';
import { docs, IdParam } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import {
  cancelTrackerType,
  getTrackerType,
  insertTrackerType,
  listTrackerTypes,
  type TrackerTypeRow,
  updateTrackerType,
} from '../queries/tracker-types';

const NOT_FOUND = 'Tipo de rastreador não encontrado';
const DUPLICATE = 'Já existe um tipo de rastreador com este fabricante e modelo';

const toOutput = (row: TrackerTypeRow) => ({
  id: row.id,
  manufacturer: row.manufacturer,
  model: row.model,
  protocol: row.protocol,
  inputs: row.inputs,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export function trackerTypeRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

  const found = async (id: string) => {
    const row = await getTrackerType(db, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  };
  const unique = async <R>(work: () => Promise<R>) => {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw new HttpError(409, 'CONFLICT', DUPLICATE);
      throw err;
    }
  };

  app.get(
    '/',
    describeRoute({
      tags: ['Tipos de rastreador'],
      summary: 'Catálogo de tipos de rastreador',
      responses: { 200: docs(TrackerTypePageSchema, 'Página') },
    }),
    validate('query', TrackerTypeQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const { rows, total } = await listTrackerTypes(db, q);
      return c.json({ trackerTypes: rows.map(toOutput), page: q.page, limit: q.limit, total });
    },
  );
  app.post(
    '/',
    describeRoute({
      tags: ['Tipos de rastreador'],
      summary: 'Criar tipo de rastreador',
      responses: { 201: docs(TrackerTypeSchema, 'Criado') },
    }),
    requirePermission('AdvancedCommands'),
    validate('json', TrackerTypeCreateSchema),
    async (c) => {
      const input = c.req.valid('json');
      const row = await unique(() =>
        insertTrackerType(db, { ...input, inputs: input.inputs ?? [] }),
      );
      return c.json(toOutput(row), 201);
    },
  );
  app.get(
    '/:id',
    describeRoute({
      tags: ['Tipos de rastreador'],
      summary: 'Um tipo de rastreador',
      responses: { 200: docs(TrackerTypeSchema, 'Tipo') },
    }),
    validate('param', IdParam),
    async (c) => c.json(toOutput(await found(c.req.valid('param').id))),
  );
  app.patch(
    '/:id',
    describeRoute({
      tags: ['Tipos de rastreador'],
      summary: 'Alterar tipo de rastreador',
      responses: { 200: docs(TrackerTypeSchema, 'Tipo') },
    }),
    requirePermission('AdvancedCommands'),
    validate('param', IdParam),
    validate('json', TrackerTypeUpdateSchema),
    async (c) => {
      const row = await found(c.req.valid('param').id);
      const updated = await unique(() => updateTrackerType(db, row.id, c.req.valid('json')));
      if (!updated) throw notFound(NOT_FOUND);
      return c.json(toOutput(updated));
    },
  );
  app.delete(
    '/:id',
    describeRoute({
      tags: ['Tipos de rastreador'],
      summary: 'Remover tipo de rastreador',
      responses: { 200: docs(MessageSchema, 'Removido') },
    }),
    requirePermission('AdvancedCommands'),
    validate('param', IdParam),
    async (c) => {
      const row = await found(c.req.valid('param').id);
      await cancelTrackerType(db, row.id);
      return c.json({ message: 'Tipo de rastreador removido.' });
    },
  );
  return app;
}
