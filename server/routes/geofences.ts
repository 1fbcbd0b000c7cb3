/**
 * SPEC §7 geofences: `registros/geofence` (list, create, read, change, remove) and the vehicle
 * associations (`POST registros/geofence/vehicle-association`, `DELETE …/{id}`, and a list by
 * geofence or vehicle). The wire shape is exactly `{ id, clientId, name, description, color,
 * speedLimit, geometry, createdAt, updatedAt }` (src/contract/geofences.ts).
 *
 * Tenancy as everywhere: a caller sees the geofences of their customer subtree; another
 * branch's answers 404. A vehicle may be associated with a geofence of its own customer or of
 * a company above it. A Terceiro sees no geofences.
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import {
  AssociationBodySchema,
  AssociationQuerySchema,
  AssociationSchema,
  type Geofence,
  GeofenceCreateSchema,
  GeofencePageSchema,
  GeofenceQuerySchema,
  GeofenceSchema,
  GeofenceUpdateSchema,
  type Geometry,
  MessageSchema,
} from '../../src/contract';
import { recordChange } from '../audit/record';
import { type AuthEnv, requireAuth, requirePermission } from '../auth/middleware';
import { ancestorIds } from '../db/alert-engine';
import { subtreeIds } from '../db/clients';
import {
  type AssociationRow,
  associationById,
  associationsOf,
  deleteAssociation,
  type GeofenceRow,
  geofenceQueries,
  geofencesChangedSince,
  geofencesIn,
  liveGeofenceIds,
  upsertAssociations,
  vehiclesIn,
} from '../db/geofences';
import { cancelOwned, getOwned, insertOwned, listOwned, updateOwned } from '../db/owned';
import { geofences } from '../db/schema';
import type { Deps } from '../deps';
import { badRequest, notFound } from '../http/errors';
import { docs, IdParam } from '../http/openapi';
import { validate } from '../http/validate';
import { canSeeClient, visibleClient, visibleClientIds } from '../tenancy';
import type { Ctx } from './owned';

const NOT_FOUND = 'Cerca eletrônica não encontrada';

export function geofenceOut(row: GeofenceRow): Geofence {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    description: row.description,
    color: row.color,
    speedLimit: row.speedLimit,
    geometry: row.geometry as Geometry,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function associationOut(row: AssociationRow) {
  return {
    id: row.id,
    geofenceId: row.geofenceId,
    vehicleId: row.vehicleId,
    restrictionType: row.restrictionType as v.InferOutput<
      typeof AssociationSchema
    >['restrictionType'],
    startTime: row.startTime,
    endTime: row.endTime,
    weekdays: row.weekdays,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function geofenceRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

  /** The customers whose geofences the caller sees (none for a Terceiro). */
  const scope = async (c: Ctx) => (c.var.user.role === 'VISITOR' ? [] : visibleClientIds(c, deps));

  async function one(c: Ctx, id: string): Promise<GeofenceRow> {
    const row = await getOwned(db, geofences, id, await scope(c));
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  app.get(
    '/',
    describeRoute({
      tags: ['Cercas eletrônicas'],
      summary: 'Listar (busca, ordenação, paginação; updatedSince para o espelho)',
      responses: { 200: docs(GeofencePageSchema, 'Página') },
    }),
    validate('query', GeofenceQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      let clientIds = await scope(c);
      if (q.clientId) {
        if (!(await canSeeClient(c, deps, q.clientId))) throw notFound('Cliente não encontrado');
        const visible = new Set(clientIds);
        clientIds = (await subtreeIds(db, q.clientId)).filter((id) => visible.has(id));
      }
      if (q.updatedSince) {
        const rows = await geofencesChangedSince(db, clientIds, new Date(q.updatedSince), q.limit);
        return c.json({
          items: rows.map(geofenceOut),
          page: 1,
          limit: q.limit,
          total: rows.length,
          ids: await liveGeofenceIds(db, clientIds),
        });
      }
      const { rows, total } = await listOwned(db, geofences, {
        clientIds,
        where: geofenceQueries.filters(q),
        sort: geofenceQueries.sorts[q.sort],
        order: q.order,
        page: q.page,
        limit: q.limit,
      });
      return c.json({ items: rows.map(geofenceOut), page: q.page, limit: q.limit, total });
    },
  );

  app.post(
    '/',
    describeRoute({
      tags: ['Cercas eletrônicas'],
      summary: 'Criar',
      responses: { 201: docs(GeofenceSchema, 'Criada') },
    }),
    requirePermission('create_resources'),
    validate('json', GeofenceCreateSchema),
    async (c) => {
      const input = c.req.valid('json');
      await visibleClient(c, deps, input.clientId);
      const row = await db.transaction(async (tx) => {
        const created = await insertOwned(tx, geofences, {
          clientId: input.clientId,
          name: input.name,
          description: input.description ?? null,
          color: input.color,
          speedLimit: input.speedLimit ?? null,
          geometry: input.geometry,
        });
        await recordChange(tx, c, deps, {
          entity: 'geofence',
          clientId: created.clientId,
          entityId: created.id,
          summary: created.name,
          after: created,
        });
        return created;
      });
      return c.json(geofenceOut(row as GeofenceRow), 201);
    },
  );

  // Associations come before '/:id', which would take 'vehicle-association' for an id.
  app.get(
    '/vehicle-association',
    describeRoute({
      tags: ['Cercas eletrônicas'],
      summary: 'Associações de veículos, por cerca ou por veículo',
      responses: { 200: docs(v.array(AssociationSchema), 'Associações') },
    }),
    validate('query', AssociationQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      if (!q.geofenceId && !q.vehicleId) throw badRequest('Informe geofenceId ou vehicleId');
      const clientIds = await scope(c);
      if (q.geofenceId) await one(c, q.geofenceId);
      if (q.vehicleId && (await vehiclesIn(db, [q.vehicleId], clientIds)).length === 0)
        throw notFound('Veículo não encontrado');
      const rows = await associationsOf(db, {
        ...(q.geofenceId ? { geofenceIds: [q.geofenceId] } : {}),
        ...(q.vehicleId ? { vehicleIds: [q.vehicleId] } : {}),
      });
      // Only geofences the caller sees (a vehicle's list may name a company above's).
      const seen = new Set(await liveGeofenceIds(db, clientIds));
      return c.json(rows.filter((row) => seen.has(row.geofenceId)).map(associationOut));
    },
  );

  app.post(
    '/vehicle-association',
    describeRoute({
      tags: ['Cercas eletrônicas'],
      summary: 'Associar veículos a uma cerca (um veículo já associado recebe a nova regra)',
      responses: { 201: docs(v.array(AssociationSchema), 'Associações da cerca') },
    }),
    requirePermission('create_resources'),
    validate('json', AssociationBodySchema),
    async (c) => {
      const body = c.req.valid('json');
      const geofence = await one(c, body.geofenceId);
      // The geofence's customer and the companies below it, as far as the caller sees.
      const visible = new Set(await scope(c));
      const allowed = (await subtreeIds(db, geofence.clientId)).filter((id) => visible.has(id));
      const ids = body.vehicleAssociations.map((a) => a.vehicleId);
      const found = new Set((await vehiclesIn(db, ids, allowed)).map((row) => row.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length)
        throw notFound(
          `Veículo não encontrado entre os da empresa da cerca: ${missing.slice(0, 5).join(', ')}`,
        );
      await db.transaction(async (tx) => {
        await upsertAssociations(tx, geofence.id, body.vehicleAssociations);
        // The geofence changed too (its associations): the mirror sees it by updatedAt.
        await updateOwned(tx, geofences, geofence.id, {});
        await recordChange(tx, c, deps, {
          entity: 'geofence',
          clientId: geofence.clientId,
          entityId: geofence.id,
          summary: geofence.name,
          before: {},
          after: { vehicleAssociations: body.vehicleAssociations },
        });
      });
      const rows = await associationsOf(db, { geofenceIds: [geofence.id] });
      return c.json(rows.map(associationOut), 201);
    },
  );

  app.delete(
    '/vehicle-association/:id',
    describeRoute({
      tags: ['Cercas eletrônicas'],
      summary: 'Remover a associação de um veículo',
      responses: { 200: docs(MessageSchema, 'Removida') },
    }),
    requirePermission('create_resources'),
    validate('param', IdParam),
    async (c) => {
      const association = await associationById(db, c.req.valid('param').id);
      if (!association) throw notFound('Associação não encontrada');
      const geofence = await getOwned(db, geofences, association.geofenceId, await scope(c));
      if (!geofence) throw notFound('Associação não encontrada');
      await db.transaction(async (tx) => {
        await deleteAssociation(tx, association.id);
        await updateOwned(tx, geofences, geofence.id, {});
        await recordChange(tx, c, deps, {
          entity: 'geofence',
          clientId: geofence.clientId,
          entityId: geofence.id,
          summary: geofence.name,
          before: { vehicleAssociation: association.vehicleId },
          after: {},
        });
      });
      return c.json({ message: 'Associação removida.' });
    },
  );

  app.get(
    '/:id',
    describeRoute({
      tags: ['Cercas eletrônicas'],
      summary: 'Ler uma',
      responses: { 200: docs(GeofenceSchema, 'Cerca') },
    }),
    validate('param', IdParam),
    async (c) => c.json(geofenceOut(await one(c, c.req.valid('param').id))),
  );

  app.patch(
    '/:id',
    describeRoute({
      tags: ['Cercas eletrônicas'],
      summary: 'Alterar',
      responses: { 200: docs(GeofenceSchema, 'Cerca') },
    }),
    requirePermission('create_resources'),
    validate('param', IdParam),
    validate('json', GeofenceUpdateSchema),
    async (c) => {
      const existing = await one(c, c.req.valid('param').id);
      const patch = c.req.valid('json');
      if (patch.clientId && patch.clientId !== existing.clientId) {
        await visibleClient(c, deps, patch.clientId);
        // Its vehicles must stay within the new customer's reach.
        const reach = new Set(await subtreeIds(db, patch.clientId));
        const linked = await associationsOf(db, { geofenceIds: [existing.id] });
        const vehicles = await vehiclesIn(
          db,
          linked.map((a) => a.vehicleId),
          await scope(c),
        );
        if (vehicles.some((row) => !reach.has(row.clientId)))
          throw badRequest(
            'Esta cerca tem veículos de outra empresa associados. Remova as associações antes de mudar o cliente.',
          );
      }
      const values: Record<string, unknown> = {};
      for (const key of [
        'clientId',
        'name',
        'description',
        'color',
        'speedLimit',
        'geometry',
      ] as const)
        if (patch[key] !== undefined) values[key] = patch[key];
      const row = await db.transaction(async (tx) => {
        const after = await updateOwned(tx, geofences, existing.id, values);
        if (after)
          await recordChange(tx, c, deps, {
            entity: 'geofence',
            clientId: after.clientId,
            entityId: after.id,
            summary: after.name,
            before: existing,
            after,
          });
        return after;
      });
      if (!row) throw notFound(NOT_FOUND);
      return c.json(geofenceOut(row as GeofenceRow));
    },
  );

  app.delete(
    '/:id',
    describeRoute({
      tags: ['Cercas eletrônicas'],
      summary: 'Remover (exclusão lógica)',
      responses: { 200: docs(MessageSchema, 'Removida') },
    }),
    requirePermission('delete_resources'),
    validate('param', IdParam),
    async (c) => {
      const row = await one(c, c.req.valid('param').id);
      await db.transaction(async (tx) => {
        await cancelOwned(tx, geofences, row.id);
        await recordChange(tx, c, deps, {
          entity: 'geofence',
          clientId: row.clientId,
          entityId: row.id,
          summary: row.name,
          before: row,
        });
      });
      return c.json({ message: 'Cerca removida.' });
    },
  );

  return app;
}

/**
 * Of the geofence ids a rule names, those it may not: a rule may name live geofences the
 * caller sees, of its customer or a company above it (those its vehicles' maps hold).
 */
export async function missingRuleGeofences(
  c: Ctx,
  deps: Deps,
  clientId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const visible = new Set(c.var.user.role === 'VISITOR' ? [] : await visibleClientIds(c, deps));
  const chain = (await ancestorIds(deps.database.db, clientId)).filter((id) => visible.has(id));
  const found = new Set((await geofencesIn(deps.database.db, ids, chain)).map((g) => g.id));
  return ids.filter((id) => !found.has(id));
}
