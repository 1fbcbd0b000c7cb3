/**
 * Bearer authentication for every protected route: verifies the access token, then loads
 * the user and their session in one query, so that a deactivated user, a user of a
 * deactivated customer, or a session signed out elsewhere is refused at once rather than
 * when the token expires.
 */
import { createMiddleware } from 'hono/factory';
import { hasPermission, type Permission } from '../../../src/contract';
import type { Deps } from '../../deps';
import { forbidden, HttpError, unauthorized } from '../../platform/http/errors';
import { findUserForSession, type UserRecord } from '../queries/users';
import { type AccessClaims, bearerToken, TOKEN_EXPIRED, verifyAccessToken } from './tokens';

export type AuthEnv = { Variables: { user: UserRecord; claims: AccessClaims } };

export const INACTIVE_USER = 'Usuário inativo. Procure o administrador da sua empresa.';
export const INACTIVE_CLIENT = 'Cliente inativo. Procure o suporte.';
export const SESSION_ENDED = 'Sessão encerrada. Faça login novamente.';

/** Refuses users or customers that may not use the system, with the reason. */
export function assertCanUse(user: UserRecord | undefined): asserts user is UserRecord {
  if (!user) throw unauthorized('Usuário não encontrado');
  if (!user.active) throw unauthorized(INACTIVE_USER, 'USER_INACTIVE');
  if (!user.clientActive) throw unauthorized(INACTIVE_CLIENT, 'CLIENT_INACTIVE');
}

/** The user of valid claims, checked like every request; throws the reason otherwise. */
async function userOf(deps: Deps, claims: AccessClaims): Promise<UserRecord> {
  const found = await findUserForSession(deps.database.db, claims.sub, claims.sid);
  assertCanUse(found);
  if (!found.sessionOpen) throw unauthorized(SESSION_ENDED, 'SESSION_REVOKED');
  const { sessionOpen: _, ...user } = found;
  return user;
}

/**
 * Why a long-lived connection (the live stream) opened with these claims must end now, or
 * undefined while it may go on: the token expired, or the user or session was closed. A
 * failure to check (the database away for a moment) is thrown, not taken for a closed
 * session: the stream must not tell the page to sign out because of it.
 */
export async function sessionProblem(
  deps: Deps,
  claims: AccessClaims,
  now = Date.now(),
): Promise<{ reason: string; message: string } | undefined> {
  if (claims.exp * 1000 <= now) return { reason: TOKEN_EXPIRED, message: 'Token expirado' };
  try {
    await userOf(deps, claims);
    return undefined;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return { reason: err.extra.reason ?? 'UNAUTHORIZED', message: err.message };
  }
}

export const TWO_FACTOR_SETUP_REQUIRED = 'Ative a verificação em duas etapas para continuar';

/**
 * Signed-in callers only. A user whose company requires two-step sign-in and who has not
 * turned it on is refused everywhere but the routes that turn it on (`duringTwoFactorSetup`)
 * — their password alone must not open the company's data.
 */
export function requireAuth(deps: Deps, options: { duringTwoFactorSetup?: boolean } = {}) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (!token) throw unauthorized('Não autenticado', 'NO_TOKEN');
    const claims = await verifyAccessToken(token, deps.secret);
    const user = await userOf(deps, claims);
    if (user.twoFactorSetupRequired && !options.duringTwoFactorSetup)
      throw new HttpError(403, 'FORBIDDEN', TWO_FACTOR_SETUP_REQUIRED, {
        reason: 'TWO_FACTOR_SETUP_REQUIRED',
      });
    c.set('user', user);
    c.set('claims', claims);
    await next();
  });
}

export function requirePermission(permission: Permission) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    if (!hasPermission(c.var.user.role, permission)) throw forbidden();
    await next();
  });
}
