/** Documents (customer-owned, on ownedRoutes) and the list of what expires. */
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import type * as v from 'valibot';
import {
  DocumentCreateSchema,
  DocumentPageSchema,
  DocumentQuerySchema,
  DocumentUpdateSchema,
  documentProblem,
  ExpiringListSchema,
  ExpiringQuerySchema,
} from '../../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { vehiclesOfClient } from '../../inventory/queries/inventory';
import { iso, ownedRoutes, present } from '../../owned/mold';
import { getOwned } from '../../owned/queries';
import { invalid, validate } from '../../platform/http/validate';
import { drivers } from '../../schema';
import { clientsWithin, visibleClientIds } from '../../tenancy/scope';
import { documentQueries, expiringList } from '../queries/documents';

type Patch = v.InferOutput<typeof DocumentUpdateSchema>;

export function documentRoutes(deps: Deps) {
  const { db } = deps.database;
  return ownedRoutes(deps, {
    tag: 'Documentos',
    audit: { entity: 'document', label: (row) => row.name },
    listKey: 'documents',
    notFound: 'Documento não encontrado',
    duplicate: 'Já existe um documento igual',
    schemas: {
      create: DocumentCreateSchema,
      update: DocumentUpdateSchema,
      query: DocumentQuerySchema,
      output: DocumentPageSchema,
    },
    ...documentQueries,
    async checkRefs(c, input, clientId, existing) {
      const d = input as Patch;
      const after = {
        vehicleId: d.vehicleId === undefined ? existing?.vehicleId : d.vehicleId,
        driverId: d.driverId === undefined ? existing?.driverId : d.driverId,
        kind: d.kind ?? existing?.kind ?? '',
        name: d.name === undefined ? existing?.name : d.name,
      };
      const problem = documentProblem(after);
      if (problem) throw invalid(problem.path, problem.message);
      if (after.vehicleId) {
        const found = await vehiclesOfClient(db, clientId, [after.vehicleId]);
        if (found.length === 0) throw invalid('vehicleId', 'Veículo não encontrado neste cliente');
      }
      if (after.driverId) {
        const driver = await getOwned(db, drivers, after.driverId, await visibleClientIds(c, deps));
        if (!driver || driver.clientId !== clientId)
          throw invalid('driverId', 'Motorista não encontrado neste cliente');
      }
    },
    toValues: (input) =>
      present(input as Patch, [
        'clientId',
        'vehicleId',
        'driverId',
        'kind',
        'name',
        'number',
        'expiry',
        'notes',
        'active',
      ]),
    toOutput: (_d, rows) =>
      rows.map((row) => ({
        id: row.id,
        clientId: row.clientId,
        active: row.active,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        canceledAt: iso(row.canceledAt),
        vehicleId: row.vehicleId,
        driverId: row.driverId,
        kind: row.kind,
        name: row.name,
        number: row.number,
        expiry: row.expiry,
        notes: row.notes,
      })),
  });
}

/** GET /: what expires in the next `days` São Paulo days (and what already expired). */
export function expiringRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));
  app.get(
    '/',
    describeRoute({
      tags: ['Documentos'],
      summary: 'O que vence nos próximos dias, e o que já venceu',
      responses: {
        200: {
          description: 'Lista',
          content: { 'application/json': { schema: resolver(ExpiringListSchema) } },
        },
      },
    }),
    validate('query', ExpiringQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const clientIds = await clientsWithin(c, deps, q.clientId);
      // A visitor sees only linked vehicles; the company's papers are none of theirs.
      if (c.var.user.role === 'VISITOR') return c.json({ items: [] });
      return c.json({ items: await expiringList(db, clientIds, new Date(), q.days) });
    },
  );
  return app;
}
