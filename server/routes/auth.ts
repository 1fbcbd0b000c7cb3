/** SPEC §7 "Auth": login, refresh, validation, activeEmail and forgetPassword. */
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import {
  ActiveEmailRequestSchema,
  AuthResponseSchema,
  ForgetPasswordRequestSchema,
  LoginRequestSchema,
  MessageSchema,
  RefreshRequestSchema,
  SessionUserSchema,
} from '../../src/contract';
import { type AuthEnv, assertCanUse, requireAuth } from '../auth/middleware';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { issueSession, sendSetPasswordMail, toSessionUser } from '../auth/session';
import { beforeLogin, loginFailed, loginKeys, loginSucceeded } from '../auth/throttle';
import { bearerToken, hashToken, newOpaqueToken } from '../auth/tokens';
import {
  consumePasswordToken,
  lastPasswordTokenAt,
  revokeFamily,
  revokeUserTokens,
  rotateRefreshToken,
} from '../db/tokens';
import { findUserByEmail, findUserById, setUserPassword } from '../db/users';
import type { Deps } from '../deps';
import { unauthorized } from '../http/errors';
import { validate } from '../http/validate';

const json = (schema: Parameters<typeof resolver>[0], description: string) => ({
  description,
  content: { 'application/json': { schema: resolver(schema) } },
});

export const WRONG_CREDENTIALS = 'E-mail ou senha inválidos';
export const FORGET_PASSWORD_SENT =
  'Se o e-mail estiver cadastrado, você receberá um link para criar uma nova senha.';
const INVALID_LINK = 'Link inválido ou expirado. Solicite um novo.';
const RECOVERY_INTERVAL_MS = 60_000;

export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'desconhecido';
  } catch {
    return 'desconhecido';
  }
}

export function authRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();

  app.post(
    '/login',
    describeRoute({
      tags: ['Auth'],
      summary: 'Entrar com e-mail e senha',
      responses: { 200: json(AuthResponseSchema, 'Sessão') },
    }),
    validate('json', LoginRequestSchema),
    async (c) => {
      const { email, password } = c.req.valid('json');
      const keys = loginKeys(email, clientAddress(c, deps.config.trustProxy));
      await beforeLogin(deps, keys);
      const user = await findUserByEmail(db, email);
      if (!(await verifyPassword(user?.passwordHash ?? null, password)) || !user) {
        await loginFailed(deps, keys);
        throw unauthorized(WRONG_CREDENTIALS, 'WRONG_CREDENTIALS');
      }
      assertCanUse(user);
      await loginSucceeded(deps, keys);
      deps.log.info('sign-in', { userId: user.id });
      return c.json(await issueSession(deps, user));
    },
  );

  app.post(
    '/refresh',
    describeRoute({
      tags: ['Auth'],
      summary: 'Renovar a sessão (o refresh token é trocado a cada uso)',
      responses: { 200: json(AuthResponseSchema, 'Sessão') },
    }),
    validate('json', RefreshRequestSchema),
    async (c) => {
      const { refreshToken } = c.req.valid('json');
      const next = newOpaqueToken();
      const result = await rotateRefreshToken(db, hashToken(refreshToken), {
        tokenHash: next.hash,
        expiresAt: new Date(Date.now() + deps.config.refreshTokenTtl * 1000),
      });
      if (result.status === 'reused') deps.log.warn('refresh token reused: family revoked');
      if (result.status !== 'ok')
        throw unauthorized(
          'Sessão expirada. Faça login novamente.',
          `REFRESH_${result.status.toUpperCase()}`,
        );
      const user = await findUserById(db, result.userId);
      try {
        assertCanUse(user);
      } catch (err) {
        await revokeFamily(db, result.familyId);
        throw err;
      }
      return c.json(await issueSession(deps, user, next.token));
    },
  );

  app.get(
    '/validation',
    describeRoute({
      tags: ['Auth'],
      summary: 'Dados do usuário do token',
      security: [{ bearer: [] }],
      responses: { 200: json(SessionUserSchema, 'Usuário') },
    }),
    requireAuth(deps),
    (c) => c.json(toSessionUser(c.var.user)),
  );

  app.post(
    '/activeEmail',
    describeRoute({
      tags: ['Auth'],
      summary: 'Criar a senha (primeiro acesso ou recuperação) com o token do e-mail como bearer',
      responses: { 200: json(AuthResponseSchema, 'Sessão') },
    }),
    validate('json', ActiveEmailRequestSchema),
    async (c) => {
      const token = bearerToken(c.req.header('authorization'));
      if (!token) throw unauthorized(INVALID_LINK, 'NO_TOKEN');
      const passwordHash = await hashPassword(c.req.valid('json').password);
      const userId = await consumePasswordToken(db, hashToken(token), async (tx, id) => {
        const user = await findUserById(tx, id);
        assertCanUse(user);
        await setUserPassword(tx, id, passwordHash);
      });
      if (!userId) throw unauthorized(INVALID_LINK, 'SET_PASSWORD_TOKEN_INVALID');
      await revokeUserTokens(db, userId);
      const user = await findUserById(db, userId);
      assertCanUse(user);
      deps.log.info('password set', { userId });
      return c.json(await issueSession(deps, user));
    },
  );

  app.post(
    '/forgetPassword',
    describeRoute({
      tags: ['Auth'],
      summary: 'Enviar e-mail de recuperação de senha',
      responses: { 200: json(MessageSchema, 'Pedido recebido') },
    }),
    validate('json', ForgetPasswordRequestSchema),
    async (c) => {
      const { email } = c.req.valid('json');
      const user = await findUserByEmail(db, email);
      if (user?.active && user.clientActive) {
        const last = await lastPasswordTokenAt(db, user.id);
        if (!last || Date.now() - last.getTime() > RECOVERY_INTERVAL_MS) {
          await sendSetPasswordMail(deps, user, 'recovery');
        }
      }
      return c.json({ message: FORGET_PASSWORD_SENT });
    },
  );

  return app;
}
