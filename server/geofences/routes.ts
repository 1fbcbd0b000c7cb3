/**
 * SPEC §7 geofences: `registros/geofence` (list, create, read, change, remove) and the vehicle
 * associations (`POST registros/geofence/vehicle-association`, `DELETE …/{id}`, and a list by
 * geofence or vehicle). The wire shape is exactly `{ id, clientId, name, description, color,
 * speedLimit, geometry, createdAt, updatedAt }` (src/contract/geofences.ts).
 *
 * The CRUD is the shared one of customer-owned records (ownedRoutes); what is the geofences'
 * own is declared here: the mirror's sync answer, the customer change their vehicles allow, the
 * removal message, and the associations. The alert engine needs no word from these routes:
 * database triggers move its configuration version on every write to geofences and their
 * associations (server/alerts/config-cache.ts).
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
  type GeofenceUpdate,
  GeofenceUpdateSchema,
  type Geometry,
  MessageSchema,
} from '../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../accounts/auth/middleware';
import { recordChange } from '../audit/record';
import type { Deps } from '../deps';
import { type Ctx, ownedRoutes, present } from '../owned/mold';
import { getOwned, updateOwned } from '../owned/queries';
import type { Db } from '../platform/db/client';
import { badRequest, notFound } from '../platform/http/errors';
import { docs, IdParam } from '../platform/http/openapi';
import { validate } from '../platform/http/validate';
import { subtreeIds } from '../tenancy/queries';
import { visibleClientIds } from '../tenancy/scope';
import {
  type AssociationRow,
  associationById,
  associationsOf,
  deleteAssociation,
  type GeofenceRow,
  geofenceQueries,
  geofencesChangedSince,
  liveGeofenceIds,
  upsertAssociations,
  vehiclesIn,
} from './queries';
import { geofences } from './schema';

const TAG = 'Cercas eletrônicas';
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
  // Mounted first: '/:id' of the CRUD below would take 'vehicle-association' for an id.
  app.route('/vehicle-association', associationRoutes(deps));
  app.route(
    '/',
    ownedRoutes(deps, {
      tag: TAG,
      audit: { entity: 'geofence', label: (row) => row.name },
      listKey: 'items',
      notFound: NOT_FOUND,
      // No unique key on geofences, so never said; the shared routes ask it of every record.
      duplicate: 'Já existe uma cerca igual',
      removed: 'Cerca removida.',
      schemas: {
        create: GeofenceCreateSchema,
        update: GeofenceUpdateSchema,
        query: GeofenceQuerySchema,
        output: GeofencePageSchema,
        record: GeofenceSchema,
      },
      ...geofenceQueries,
      // The mirror keeps no tombstones: it gets the live geofences changed, all in one
      // answer, and the ids of every live one to drop the others.
      async syncList(q, since, clientIds) {
        const rows = await geofencesChangedSince(db, clientIds, since, q.limit);
        return {
          items: rows.map(geofenceOut),
          page: 1,
          limit: q.limit,
          total: rows.length,
          ids: await liveGeofenceIds(db, clientIds),
        };
      },
      async checkRefs(c, _input, clientId, existing) {
        if (!existing || clientId === existing.clientId) return;
        // Its vehicles must stay within the new customer's reach.
        const reach = new Set(await subtreeIds(db, clientId));
        const linked = await associationsOf(db, { geofenceIds: [existing.id] });
        const vehicles = await vehiclesIn(
          db,
          linked.map((a) => a.vehicleId),
          await visibleClientIds(c, deps),
        );
        if (vehicles.some((row) => !reach.has(row.clientId)))
          throw badRequest(
            'Esta cerca tem veículos de outra empresa associados. Remova as associações antes de mudar o cliente.',
          );
      },
      toValues: (input) =>
        present(input as GeofenceUpdate, [
          'clientId',
          'name',
          'description',
          'color',
          'speedLimit',
          'geometry',
        ]),
      toOutput: (_d, rows) => rows.map(geofenceOut),
    }),
  );
  return app;
}

/** The vehicles associated with geofences, and the rule each one is under. */
function associationRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

  /** The customers whose geofences the caller sees (none for a Terceiro). */
  const scope = async (c: Ctx) => (c.var.user.role === 'VISITOR' ? [] : visibleClientIds(c, deps));

  async function geofenceOf(c: Ctx, id: string, message: string): Promise<GeofenceRow> {
    const row = await getOwned(db, geofences, id, await scope(c));
    if (!row) throw notFound(message);
    return row;
  }

  /** The geofence changed too (its associations): the mirror sees it by updatedAt. */
  async function touch(tx: Db, c: Ctx, geofence: GeofenceRow, before: object, after: object) {
    await updateOwned(tx, geofences, geofence.id, {});
    await recordChange(tx, c, deps, {
      entity: 'geofence',
      clientId: geofence.clientId,
      entityId: geofence.id,
      summary: geofence.name,
      before,
      after,
    });
  }

  app.get(
    '/',
    describeRoute({
      tags: [TAG],
      summary: 'Associações de veículos, por cerca ou por veículo',
      responses: { 200: docs(v.array(AssociationSchema), 'Associações') },
    }),
    validate('query', AssociationQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      if (!q.geofenceId && !q.vehicleId) throw badRequest('Informe geofenceId ou vehicleId');
      const clientIds = await scope(c);
      if (q.geofenceId) await geofenceOf(c, q.geofenceId, NOT_FOUND);
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
    '/',
    describeRoute({
      tags: [TAG],
      summary: 'Associar veículos a uma cerca (um veículo já associado recebe a nova regra)',
      responses: { 201: docs(v.array(AssociationSchema), 'Associações da cerca') },
    }),
    requirePermission('create_resources'),
    validate('json', AssociationBodySchema),
    async (c) => {
      const body = c.req.valid('json');
      const geofence = await geofenceOf(c, body.geofenceId, NOT_FOUND);
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
        await touch(tx, c, geofence, {}, { vehicleAssociations: body.vehicleAssociations });
      });
      const rows = await associationsOf(db, { geofenceIds: [geofence.id] });
      return c.json(rows.map(associationOut), 201);
    },
  );

  app.delete(
    '/:id',
    describeRoute({
      tags: [TAG],
      summary: 'Remover a associação de um veículo',
      responses: { 200: docs(MessageSchema, 'Removida') },
    }),
    requirePermission('create_resources'),
    validate('param', IdParam),
    async (c) => {
      const association = await associationById(db, c.req.valid('param').id);
      if (!association) throw notFound('Associação não encontrada');
      const geofence = await geofenceOf(c, association.geofenceId, 'Associação não encontrada');
      await db.transaction(async (tx) => {
        await deleteAssociation(tx, association.id);
        await touch(tx, c, geofence, { vehicleAssociation: association.vehicleId }, {});
      });
      return c.json({ message: 'Associação removida.' });
    },
  );

  return app;
}
