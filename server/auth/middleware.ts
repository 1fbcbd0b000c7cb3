/**
 * Bearer authentication for every protected route: verifies the access token, then loads
 * the user so that a deactivated user, or a user of a deactivated customer, is refused at
 * once rather than when the token expires.
 */
import { createMiddleware } from 'hono/factory';
import { hasPermission, type Permission } from '../../src/contract';
import { findUserById, type UserRecord } from '../db/users';
import type { Deps } from '../deps';
import { forbidden, unauthorized } from '../http/errors';
import { bearerToken, verifyAccessToken } from './tokens';

export type AuthEnv = { Variables: { user: UserRecord } };

export const INACTIVE_USER = 'Usuário inativo. Procure o administrador da sua empresa.';
export const INACTIVE_CLIENT = 'Cliente inativo. Procure o suporte.';

/** Refuses users or customers that may not use the system, with the reason. */
export function assertCanUse(user: UserRecord | undefined): asserts user is UserRecord {
  if (!user) throw unauthorized('Usuário não encontrado');
  if (!user.active) throw unauthorized(INACTIVE_USER, 'USER_INACTIVE');
  if (!user.clientActive) throw unauthorized(INACTIVE_CLIENT, 'CLIENT_INACTIVE');
}

export function requireAuth(deps: Deps) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (!token) throw unauthorized('Não autenticado', 'NO_TOKEN');
    const claims = await verifyAccessToken(token, deps.secret);
    const user = await findUserById(deps.database.db, claims.sub);
    assertCanUse(user);
    c.set('user', user);
    await next();
  });
}

export function requirePermission(permission: Permission) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    if (!hasPermission(c.var.user.role, permission)) throw forbidden();
    await next();
  });
}
