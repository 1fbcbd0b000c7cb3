/**
 * SPEC §7 "Users". Managing users needs CrudUser, inside the caller's subtree, and the level
 * rules of SPEC §6 (canAssignRole) hold both for the level given and for the level of the
 * user being changed: a Gestor cannot edit an Administrador. Everyone may read themselves.
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import {
  canAssignRole,
  hasPermission,
  IdSchema,
  MessageSchema,
  ROLE_LABELS,
  type Role,
  SELECT_CLIENT_MESSAGE,
  type User,
  UserCreateSchema,
  UserPageSchema,
  UserQuerySchema,
  UserSchema,
  UserUpdateSchema,
} from '../../../src/contract';
import { recordChange } from '../../audit/record';
import type { Deps } from '../../deps';
import { badRequest, forbidden, HttpError, notFound } from '../../platform/http/errors';
import { docs, IdParam } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { canSeeClient, visibleClient, visibleClientIds } from '../../tenancy/scope';
import { assertCurrentPassword } from '../auth/current-password';
import { type AuthEnv, requireAuth, requirePermission } from '../auth/middleware';
import { sendEmailChangeMails, sendSetPasswordMail } from '../auth/session';
import { revokeUserTokens, voidPasswordTokens } from '../queries/tokens';
import {
  cancelUser,
  emailTaken,
  getManagedUser,
  insertUser,
  listUsers,
  type ManagedUser,
  updateUser,
} from '../queries/users-admin';

export const USER_NOT_FOUND = 'Usuário não encontrado';
const EMAIL_TAKEN = 'E-mail já cadastrado';
export const CURRENT_PASSWORD_NEEDED = 'Informe a senha atual para alterar o e-mail';

export function toUser(row: ManagedUser): User {
  return {
    id: row.id,
    sub: row.id,
    clientId: row.clientId,
    companyId: row.clientId,
    clientName: row.clientName,
    email: row.email,
    name: row.name,
    role: row.role,
    active: row.active ? 1 : 0,
    passwordSet: row.passwordSet,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    canceledAt: row.canceledAt?.toISOString() ?? null,
  };
}

function assertAssignable(actor: Role, role: Role, verb: 'atribuir' | 'alterar') {
  if (canAssignRole(actor, role)) return;
  throw forbidden(
    verb === 'atribuir'
      ? `Você não pode atribuir o nível ${ROLE_LABELS[role]}`
      : `Você não pode alterar um usuário de nível ${ROLE_LABELS[role]}`,
  );
}

export function userRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps));

  /** A user the caller may manage (or themselves, for reading). */
  async function target(c: Parameters<typeof visibleClientIds>[0], id: string, forWrite: boolean) {
    const self = c.var.user.id === id;
    if (!self && !hasPermission(c.var.user.role, 'CrudUser')) throw notFound(USER_NOT_FOUND);
    const row = await getManagedUser(db, id, await visibleClientIds(c, deps));
    if (!row) throw notFound(USER_NOT_FOUND);
    if (forWrite && !self) assertAssignable(c.var.user.role, row.role, 'alterar');
    return row;
  }

  app.post(
    '/',
    describeRoute({
      tags: ['Usuários'],
      summary: 'Criar usuário (recebe um e-mail de primeiro acesso)',
      responses: { 201: docs(UserSchema, 'Usuário') },
    }),
    requirePermission('CrudUser'),
    validate('json', UserCreateSchema),
    async (c) => {
      const input = c.req.valid('json');
      assertAssignable(c.var.user.role, input.role, 'atribuir');
      await visibleClient(c, deps, input.clientId);
      if (await emailTaken(db, input.email)) throw new HttpError(409, 'CONFLICT', EMAIL_TAKEN);
      const row = await db.transaction(async (tx) => {
        const id = await insertUser(tx, { ...input, active: input.active ?? true });
        const created = await getManagedUser(tx, id, [input.clientId]);
        if (!created) throw new Error('created user not found');
        await recordChange(tx, c, deps, {
          entity: 'user',
          clientId: created.clientId,
          entityId: id,
          summary: created.email,
          after: created,
        });
        return created;
      });
      const id = row.id;
      await sendSetPasswordMail(deps, row, 'first_access').catch((err: unknown) =>
        deps.log.error('first-access e-mail failed', { err, userId: id }),
      );
      deps.log.info('user created', { userId: id, by: c.var.user.id });
      return c.json(toUser(row), 201);
    },
  );

  app.get(
    '/',
    describeRoute({
      tags: ['Usuários'],
      summary: 'Usuários de um cliente (clientId obrigatório)',
      responses: { 200: docs(UserPageSchema, 'Usuários e paginação') },
    }),
    requirePermission('CrudUser'),
    validate('query', UserQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      if (!q.clientId) throw badRequest(SELECT_CLIENT_MESSAGE);
      if (!v.is(IdSchema, q.clientId) || !(await canSeeClient(c, deps, q.clientId))) {
        throw notFound('Cliente não encontrado');
      }
      const { rows, total } = await listUsers(db, { ...q, clientId: q.clientId });
      return c.json({ users: rows.map(toUser), page: q.page, limit: q.limit, total });
    },
  );

  app.get(
    '/:id',
    describeRoute({
      tags: ['Usuários'],
      summary: 'Um usuário',
      responses: { 200: docs(UserSchema, 'Usuário') },
    }),
    validate('param', IdParam),
    async (c) => c.json(toUser(await target(c, c.req.valid('param').id, false))),
  );

  app.patch(
    '/:id',
    describeRoute({
      tags: ['Usuários'],
      summary: 'Alterar usuário (nível, status, cliente, dados)',
      responses: { 200: docs(UserSchema, 'Usuário') },
    }),
    validate('param', IdParam),
    validate('json', UserUpdateSchema),
    async (c) => {
      const row = await target(c, c.req.valid('param').id, true);
      const { currentPassword, ...patch } = c.req.valid('json');
      const self = row.id === c.var.user.id;
      if (self && patch.role !== undefined && patch.role !== row.role)
        throw forbidden('Você não pode alterar o seu próprio nível');
      if (self && patch.active === false)
        throw badRequest('Você não pode desativar o seu próprio usuário');
      if (self && patch.clientId !== undefined && patch.clientId !== row.clientId) {
        throw forbidden('Você não pode mudar o seu próprio cliente');
      }
      if (patch.role !== undefined) assertAssignable(c.var.user.role, patch.role, 'atribuir');
      if (patch.clientId !== undefined) await visibleClient(c, deps, patch.clientId);
      if (patch.email !== undefined && (await emailTaken(db, patch.email, row.id))) {
        throw new HttpError(409, 'CONFLICT', EMAIL_TAKEN);
      }
      const emailChanged =
        patch.email !== undefined && patch.email.toLowerCase() !== row.email.toLowerCase();
      // The e-mail is where password links go: whoever holds only a session (a stolen access
      // token) must not be able to move the account to an address of their own. So one's own
      // new e-mail needs the password, and takes effect only when the link sent to it is
      // opened (POST /auth/confirmEmail); the old address is told.
      const pendingEmail = self && emailChanged ? patch.email : undefined;
      if (pendingEmail) {
        if (!currentPassword)
          throw badRequest(CURRENT_PASSWORD_NEEDED, [
            { path: 'currentPassword', message: CURRENT_PASSWORD_NEEDED },
          ]);
        await assertCurrentPassword(deps, c, currentPassword);
      }
      const { email: _pending, ...others } = patch;
      const applied = pendingEmail ? others : patch;
      await db.transaction(async (tx) => {
        await updateUser(tx, row.id, applied);
        const now = new Date();
        if (emailChanged && !pendingEmail) {
          // An administrator's change. A link mailed to the old address must not set a
          // password for the new owner of the account, and sessions opened before end.
          await voidPasswordTokens(tx, row.id, now);
          await revokeUserTokens(tx, row.id, now);
        } else if (
          patch.active === false ||
          (patch.role !== undefined && patch.role !== row.role)
        ) {
          await revokeUserTokens(tx, row.id, now);
        }
        const after = await getManagedUser(tx, row.id, [applied.clientId ?? row.clientId]);
        await recordChange(tx, c, deps, {
          entity: 'user',
          clientId: after?.clientId ?? row.clientId,
          entityId: row.id,
          summary: after?.email ?? row.email,
          before: row,
          after: after ?? row,
        });
      });
      if (pendingEmail) {
        await sendEmailChangeMails(deps, c.var.user, pendingEmail);
        deps.log.info('e-mail change requested', { userId: row.id });
      }
      const updated = await getManagedUser(db, row.id, await visibleClientIds(c, deps));
      if (!updated) throw notFound(USER_NOT_FOUND);
      return c.json(toUser(updated));
    },
  );

  app.delete(
    '/:id',
    describeRoute({
      tags: ['Usuários'],
      summary: 'Remover usuário (exclusão lógica)',
      responses: { 200: docs(MessageSchema, 'Removido') },
    }),
    requirePermission('CrudUser'),
    validate('param', IdParam),
    async (c) => {
      const row = await target(c, c.req.valid('param').id, true);
      if (row.id === c.var.user.id) throw badRequest('Você não pode remover o seu próprio usuário');
      await db.transaction(async (tx) => {
        await cancelUser(tx, row.id);
        await revokeUserTokens(tx, row.id);
        await recordChange(tx, c, deps, {
          entity: 'user',
          clientId: row.clientId,
          entityId: row.id,
          summary: row.email,
          before: row,
        });
      });
      deps.log.info('user removed', { userId: row.id, by: c.var.user.id });
      return c.json({ message: 'Usuário removido.' });
    },
  );

  return app;
}
