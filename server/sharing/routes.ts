/**
 * Visitors' vehicles (SPEC §7 visitor-role) and temporary shared links (temporaryUser): a
 * manager links vehicles to a Terceiro, or shares chosen vehicles through a link that works
 * without signing in until it expires or is revoked.
 */
import { randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import {
  canAssignRole,
  IdSchema,
  LINK_GONE,
  LINK_UNKNOWN,
  MessageSchema,
  type SharedLocation,
  SharedLocationsSchema,
  SharedVehicleSchema,
  TempAccessViewSchema,
  TemporaryAddVehicleSchema,
  TemporaryLinkCreateSchema,
  type TemporaryUser,
  TemporaryUserSchema,
  TemporaryUserUpdateSchema,
  TemporaryVehiclesSchema,
  VEHICLE_TYPE_LABELS,
  type VehicleTypeId,
  VisitorAddVehicleSchema,
} from '../../src/contract';
import * as o from '../../src/contract/objects';
import { type AuthEnv, requireAuth, requirePermission } from '../accounts/auth/middleware';
import { getManagedUser } from '../accounts/queries/users-admin';
import { recordChange } from '../audit/record';
import type { Deps } from '../deps';
import { badRequest, HttpError, notFound } from '../platform/http/errors';
import { docs, IdParam } from '../platform/http/openapi';
import { validate } from '../platform/http/validate';
import { locationItems } from '../realtime/items';
import { visibleClientIds, visibleVehicle } from '../tenancy/scope';
import {
  insertTemporaryUser,
  linkedVehicleIds,
  linkVehicle,
  liveVehicles,
  type TemporaryUserRow,
  temporaryUserById,
  temporaryUserByToken,
  temporaryUsersOf,
  unlinkVehicle,
  updateTemporaryUser,
} from './queries';

type Ctx = Context<AuthEnv>;
/** `responses` with one JSON answer of 200. */
const ok = (schema: v.GenericSchema, description: string) => ({ 200: docs(schema, description) });

const sharedVehicle = (row: { id: string; name: string; plate: string; type: string }) => ({
  id: row.id,
  name: row.name,
  plate: row.plate,
  type: { id: row.type, label: VEHICLE_TYPE_LABELS[row.type as VehicleTypeId] ?? row.type },
});

export const LINK_REVOKED = 'Este link foi revogado. Crie um novo.';

export function visitorRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('CrudUser'));

  async function visitor(c: Ctx, id: string) {
    const user = await getManagedUser(db, id, await visibleClientIds(c, deps));
    if (!user) throw notFound('Usuário não encontrado');
    if (user.role !== 'VISITOR')
      throw badRequest('Só usuários de nível Terceiro têm uma lista de veículos');
    if (!canAssignRole(c.var.user.role, user.role)) throw notFound('Usuário não encontrado');
    return user;
  }

  app.get(
    '/get-vehiculos-by-visitor/:id',
    describeRoute({
      tags: ['Usuários'],
      summary: 'Veículos que um Terceiro vê',
      responses: ok(v.array(SharedVehicleSchema), 'Veículos'),
    }),
    validate('param', IdParam),
    async (c) => {
      const user = await visitor(c, c.req.valid('param').id);
      return c.json(
        (await liveVehicles(db, await linkedVehicleIds(db, user.id))).map(sharedVehicle),
      );
    },
  );
  app.post(
    '/add-vehicle/:id',
    describeRoute({
      tags: ['Usuários'],
      summary: 'Dar a um Terceiro acesso a um veículo',
      responses: ok(MessageSchema, 'Feito'),
    }),
    validate('param', IdParam),
    validate('json', VisitorAddVehicleSchema),
    async (c) => {
      const user = await visitor(c, c.req.valid('param').id);
      await visibleVehicle(c, deps, c.req.valid('json').vehicle);
      const vehicleId = c.req.valid('json').vehicle;
      await db.transaction(async (tx) => {
        await linkVehicle(tx, user.id, vehicleId);
        await recordChange(tx, c, deps, {
          entity: 'user',
          clientId: user.clientId,
          entityId: user.id,
          summary: user.email,
          before: {},
          after: { linkedVehicle: vehicleId },
        });
      });
      return c.json({ message: 'Veículo vinculado ao usuário.' });
    },
  );
  app.delete(
    '/:id/vehicles/:vehicleId',
    describeRoute({
      tags: ['Usuários'],
      summary: 'Tirar de um Terceiro o acesso a um veículo',
      responses: ok(MessageSchema, 'Feito'),
    }),
    validate('param', o.object({ id: IdSchema, vehicleId: IdSchema })),
    async (c) => {
      const { id, vehicleId } = c.req.valid('param');
      const user = await visitor(c, id);
      const unlinked = await db.transaction(async (tx) => {
        if (!(await unlinkVehicle(tx, user.id, vehicleId))) return false;
        await recordChange(tx, c, deps, {
          entity: 'user',
          clientId: user.clientId,
          entityId: user.id,
          summary: user.email,
          before: { linkedVehicle: vehicleId },
          after: {},
        });
        return true;
      });
      if (!unlinked) throw notFound('Veículo não vinculado a este usuário');
      return c.json({ message: 'Veículo desvinculado do usuário.' });
    },
  );
  return app;
}

function linkState(row: TemporaryUserRow, now = Date.now()): TemporaryUser['state'] {
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now ? 'expired' : 'active';
}

export function temporaryUserRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('create_resources'));

  const toOutput = (row: TemporaryUserRow): TemporaryUser => ({
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    token: row.token,
    link: `${deps.config.publicUrl}/temp-access/${row.token}`,
    vehicleIds: row.vehicleIds,
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    state: linkState(row),
    createdAt: row.createdAt.toISOString(),
  });
  async function found(c: Ctx, id: string) {
    const row = await temporaryUserById(db, id, await visibleClientIds(c, deps));
    if (!row) throw notFound('Link temporário não encontrado');
    return row;
  }
  /** A link that may still change: a revoked one is kept as it was, for the record. */
  async function changeable(c: Ctx, id: string) {
    const row = await found(c, id);
    if (row.revokedAt) throw new HttpError(409, 'CONFLICT', LINK_REVOKED);
    return row;
  }
  /** Every vehicle must be visible and of one customer, which owns the link. */
  async function vehiclesOf(c: Ctx, ids: string[]) {
    const rows = await Promise.all([...new Set(ids)].map((id) => visibleVehicle(c, deps, id)));
    const owners = new Set(rows.map((row) => row.clientId));
    if (owners.size > 1) throw badRequest('Os veículos de um link devem ser do mesmo cliente');
    return { ids: rows.map((row) => row.id), clientId: rows[0]?.clientId ?? c.var.user.clientId };
  }
  const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3600 * 1000);
  /** Changes a link and writes its audit line, in one transaction (the token never shows). */
  const changeLink = (
    c: Context<AuthEnv>,
    row: TemporaryUserRow,
    values: Parameters<typeof updateTemporaryUser>[2],
  ) =>
    db.transaction(async (tx) => {
      const updated = await updateTemporaryUser(tx, row.id, values);
      await recordChange(tx, c, deps, {
        entity: 'share_link',
        clientId: row.clientId,
        entityId: row.id,
        summary: row.name,
        before: row,
        after: updated ?? row,
      });
      return updated;
    });

  app.post(
    '/create_temporary_link',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Criar link temporário',
      responses: ok(TemporaryUserSchema, 'Link'),
    }),
    validate('json', TemporaryLinkCreateSchema),
    async (c) => {
      const input = c.req.valid('json');
      const { ids, clientId } = await vehiclesOf(c, input.vehicleIds);
      const row = await db.transaction(async (tx) => {
        const created = await insertTemporaryUser(tx, {
          clientId,
          createdBy: c.var.user.id,
          name: input.name,
          token: randomBytes(24).toString('base64url'),
          vehicleIds: ids,
          expiresAt: hoursFromNow(input.expiresInHours),
        });
        await recordChange(tx, c, deps, {
          entity: 'share_link',
          clientId,
          entityId: created.id,
          summary: created.name,
          after: created,
        });
        return created;
      });
      return c.json(toOutput(row), 201);
    },
  );
  app.get(
    '/linkedTemporaryUsers',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Links temporários e o seu estado',
      responses: ok(v.array(TemporaryUserSchema), 'Links'),
    }),
    async (c) => {
      const rows = await temporaryUsersOf(db, await visibleClientIds(c, deps));
      // One read for every link's vehicles: the list names them by plate. A vehicle moved to
      // another customer since is not the link's any more (nor shown to its visitors).
      const vehiclesById = new Map(
        (await liveVehicles(db, [...new Set(rows.flatMap((row) => row.vehicleIds))])).map(
          (vehicle) => [vehicle.id, vehicle],
        ),
      );
      return c.json(
        rows.map((row) => ({
          ...toOutput(row),
          plates: row.vehicleIds
            .flatMap((id) => {
              const vehicle = vehiclesById.get(id);
              return vehicle && vehicle.clientId === row.clientId ? [vehicle.plate] : [];
            })
            .sort((a, b) => a.localeCompare(b, 'pt-BR')),
        })),
      );
    },
  );
  app.get(
    '/vehicles-by-temporary-user/:id',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Veículos de um link',
      responses: ok(v.array(SharedVehicleSchema), 'Veículos'),
    }),
    validate('param', IdParam),
    async (c) => {
      const link = await found(c, c.req.valid('param').id);
      // A vehicle moved to another customer since is not the link's any more.
      const vehicles = await liveVehicles(db, link.vehicleIds);
      return c.json(vehicles.filter((x) => x.clientId === link.clientId).map(sharedVehicle));
    },
  );
  app.post(
    '/add-vehicle-to-temporary-user/:id',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Incluir veículo no link',
      responses: ok(TemporaryUserSchema, 'Link'),
    }),
    validate('param', IdParam),
    validate('json', TemporaryAddVehicleSchema),
    async (c) => {
      const row = await changeable(c, c.req.valid('param').id);
      const { ids, clientId } = await vehiclesOf(c, [
        ...row.vehicleIds,
        c.req.valid('json').vehicleId,
      ]);
      if (clientId !== row.clientId)
        throw badRequest('Os veículos de um link devem ser do mesmo cliente');
      return c.json(toOutput((await changeLink(c, row, { vehicleIds: ids })) ?? row));
    },
  );
  app.put(
    '/update-vehicle-to-temporary-user/:id',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Trocar os veículos do link',
      responses: ok(TemporaryUserSchema, 'Link'),
    }),
    validate('param', IdParam),
    validate('json', TemporaryVehiclesSchema),
    async (c) => {
      const row = await changeable(c, c.req.valid('param').id);
      const { ids, clientId } = await vehiclesOf(c, c.req.valid('json').vehicleIds);
      if (clientId !== row.clientId)
        throw badRequest('Os veículos de um link devem ser do mesmo cliente');
      return c.json(toOutput((await changeLink(c, row, { vehicleIds: ids })) ?? row));
    },
  );
  app.get(
    '/:id',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Um link temporário',
      responses: ok(TemporaryUserSchema, 'Link'),
    }),
    validate('param', IdParam),
    async (c) => c.json(toOutput(await found(c, c.req.valid('param').id))),
  );
  app.put(
    '/:id',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Renomear ou prorrogar um link',
      responses: ok(TemporaryUserSchema, 'Link'),
    }),
    validate('param', IdParam),
    validate('json', TemporaryUserUpdateSchema),
    async (c) => {
      const row = await changeable(c, c.req.valid('param').id);
      const input = c.req.valid('json');
      const updated = await changeLink(c, row, {
        ...(input.name ? { name: input.name } : {}),
        ...(input.expiresInHours ? { expiresAt: hoursFromNow(input.expiresInHours) } : {}),
      });
      return c.json(toOutput(updated ?? row));
    },
  );
  app.delete(
    '/:id',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Revogar um link',
      responses: ok(MessageSchema, 'Revogado'),
    }),
    validate('param', IdParam),
    async (c) => {
      const row = await found(c, c.req.valid('param').id);
      await changeLink(c, row, { revokedAt: row.revokedAt ?? new Date() });
      return c.json({ message: 'Link revogado.' });
    },
  );
  return app;
}

/** The public, read-only view of a shared link (no sign-in). */
export function tempAccessRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono();
  // Any text: a token that opens no link, even one cut short, gets the same answer below.
  const TokenParam = o.object({ token: v.string() });

  /** The link of a token while it works; after expiry or revocation it answers 410. */
  async function activeLink(token: string) {
    const row = /^[\w-]{16,64}$/.test(token) ? await temporaryUserByToken(db, token) : undefined;
    if (!row) throw new HttpError(410, 'NOT_FOUND', LINK_UNKNOWN);
    if (linkState(row) !== 'active') throw new HttpError(410, 'NOT_FOUND', LINK_GONE);
    return row;
  }
  /** The link's vehicles that still exist and still belong to the customer that shared them. */
  async function sharedVehicles(row: TemporaryUserRow) {
    return (await liveVehicles(db, row.vehicleIds)).filter((x) => x.clientId === row.clientId);
  }

  app.get(
    '/:token',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Veículos de um link temporário (público)',
      responses: ok(TempAccessViewSchema, 'Veículos'),
    }),
    validate('param', TokenParam),
    async (c) => {
      const row = await activeLink(c.req.valid('param').token);
      c.header('Cache-Control', 'no-store');
      return c.json({
        name: row.name,
        expiresAt: row.expiresAt.toISOString(),
        vehicles: (await sharedVehicles(row)).map(sharedVehicle),
      });
    },
  );

  app.get(
    '/:token/locations',
    describeRoute({
      tags: ['Links temporários'],
      summary: 'Última posição dos veículos de um link temporário (público, só leitura)',
      responses: ok(SharedLocationsSchema, 'Veículos e posições'),
    }),
    validate('param', TokenParam),
    async (c) => {
      const row = await activeLink(c.req.valid('param').token);
      const shared = await sharedVehicles(row);
      const ids = shared.map((x) => x.id);
      // Scoped to the link alone: its customer and its vehicles, never anything else.
      const items = ids.length
        ? await locationItems(deps, { clientIds: [row.clientId], vehicleIds: ids })
        : [];
      const locations: SharedLocation[] = items
        .filter((item) => item.type === 'vehicle' && ids.includes(item.id))
        .map((item) => ({
          id: item.id,
          name: item.name,
          plate: item.plate,
          vehicleType: item.vehicleType,
          latitude: item.latitude,
          longitude: item.longitude,
          speed: item.speed,
          course: item.course,
          ignition: item.ignition,
          fixTime: item.fixTime,
          receivedAt: item.receivedAt,
        }));
      c.header('Cache-Control', 'no-store');
      return c.json({
        name: row.name,
        expiresAt: row.expiresAt.toISOString(),
        vehicles: shared.map(sharedVehicle),
        locations,
      });
    },
  );
  return app;
}
