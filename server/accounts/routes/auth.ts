/**
 * SPEC §7 "Auth": login, refresh, validation, activeEmail and forgetPassword; and the
 * session calls of 'Minha conta': logout (one session), logout-all and password.
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import {
  ActiveEmailRequestSchema,
  AuthResponseSchema,
  ChangePasswordRequestSchema,
  ForgetPasswordRequestSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  LogoutRequestSchema,
  MessageSchema,
  RefreshRequestSchema,
  SessionUserSchema,
} from '../../../src/contract';
import { actorOf, anonymousActor, ownAccountLine, recordAudit } from '../../audit/record';
import type { Deps } from '../../deps';
import { clientAddress } from '../../platform/http/client-address';
import { HttpError, unauthorized } from '../../platform/http/errors';
import { docs } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { assertCurrentPassword } from '../auth/current-password';
import { type AuthEnv, assertCanUse, requireAuth } from '../auth/middleware';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { issueSession, setPasswordMail, toSessionUser } from '../auth/session';
import { loginKeys, throttledAttempt } from '../auth/throttle';
import { bearerToken, hashToken, successorToken } from '../auth/tokens';
import {
  consumeEmailToken,
  consumePasswordToken,
  familyOf,
  lastPasswordTokenAt,
  revokeFamily,
  revokeUserTokens,
  rotateRefreshToken,
  voidPasswordTokens,
} from '../queries/tokens';
import { findUserByEmail, findUserById, setUserPassword, type UserRecord } from '../queries/users';
import { emailTaken, updateUser } from '../queries/users-admin';
import { startChallenge, twoFactorRoutes } from './two-factor';

export const WRONG_CREDENTIALS = 'E-mail ou senha inválidos';
export const FORGET_PASSWORD_SENT =
  'Se o e-mail estiver cadastrado, você receberá um link para criar uma nova senha.';
const INVALID_LINK = 'Link inválido ou expirado. Solicite um novo.';
export const PASSWORD_CHANGED = 'Senha alterada. As outras sessões foram encerradas.';
export const SIGNED_OUT = 'Sessão encerrada.';
export const EMAIL_CONFIRMED = 'E-mail alterado. Entre com o novo endereço.';
const EMAIL_TAKEN = 'E-mail já cadastrado';
export const SIGNED_OUT_EVERYWHERE = 'Todas as sessões foram encerradas.';
const RECOVERY_INTERVAL_MS = 60_000;

export function authRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.route('/2fa', twoFactorRoutes(deps));

  app.post(
    '/login',
    describeRoute({
      tags: ['Auth'],
      summary: 'Entrar com e-mail e senha',
      responses: {
        200: docs(LoginResponseSchema, 'Sessão, ou o desafio da verificação em duas etapas'),
      },
    }),
    validate('json', LoginRequestSchema),
    async (c) => {
      const { email, password } = c.req.valid('json');
      const keys = loginKeys(email, clientAddress(c, deps.config.trustProxy));
      let found: UserRecord | undefined;
      let user: UserRecord | undefined;
      try {
        user = await throttledAttempt(deps, keys, async () => {
          found = await findUserByEmail(db, email);
          const ok = (await verifyPassword(found?.passwordHash ?? null, password)) && !!found;
          // With two steps the password alone is no success yet: the attempt stays counted
          // until the code is right, else a right password would wipe the count of wrong codes.
          return { ok: ok && !found?.twoFactorEnabled, value: ok ? found : undefined };
        });
        if (!user) throw unauthorized(WRONG_CREDENTIALS, 'WRONG_CREDENTIALS');
        assertCanUse(user);
      } catch (err) {
        // A refusal is told to the log of the account's company (an unknown e-mail: nobody's
        // but the administrators'), with the address it came from; never the password tried.
        if (err instanceof HttpError)
          await recordAudit(db, {
            ...anonymousActor(c, deps, found?.email ?? email.trim().toLowerCase().slice(0, 200)),
            actorUserId: found?.id ?? null,
            clientId: found?.clientId ?? null,
            kind: 'sign_in_failed',
            entity: 'session',
            entityId: found?.id ?? null,
            summary: err.message,
          });
        throw err;
      }
      // The sign-in is recorded when the second step completes it (routes/two-factor.ts).
      if (user.twoFactorEnabled) return c.json(await startChallenge(deps, user));
      const session = await issueSession(deps, user);
      await recordAudit(db, {
        ...ownAccountLine(c, deps, user, 'session'),
        kind: 'sign_in',
      });
      deps.log.info('sign-in', { userId: user.id });
      return c.json(session);
    },
  );

  app.post(
    '/refresh',
    describeRoute({
      tags: ['Auth'],
      summary: 'Renovar a sessão (o refresh token é trocado a cada uso)',
      responses: { 200: docs(AuthResponseSchema, 'Sessão') },
    }),
    validate('json', RefreshRequestSchema),
    async (c) => {
      const { refreshToken } = c.req.valid('json');
      const next = successorToken(refreshToken, deps.secret);
      const result = await rotateRefreshToken(db, hashToken(refreshToken), next.hash, {
        ttlMs: deps.config.refreshTokenTtl * 1000,
        maxAgeMs: deps.config.sessionMaxAge * 1000,
        graceMs: deps.config.refreshReuseGrace * 1000,
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
      return c.json(
        await issueSession(deps, user, { refreshToken: next.token, familyId: result.familyId }),
      );
    },
  );

  app.post(
    '/logout',
    describeRoute({
      tags: ['Auth'],
      summary: 'Sair: encerra a sessão do refresh token (todos os tokens da família)',
      responses: { 200: docs(MessageSchema, 'Sessão encerrada') },
    }),
    validate('json', LogoutRequestSchema),
    async (c) => {
      // The same answer for any token: it tells nothing about which tokens exist.
      const family = await familyOf(db, hashToken(c.req.valid('json').refreshToken));
      if (family) {
        const user = await findUserById(db, family.userId);
        await db.transaction(async (tx) => {
          await revokeFamily(tx, family.familyId);
          if (user)
            await recordAudit(tx, {
              ...ownAccountLine(c, deps, user, 'session'),
              kind: 'sign_out',
            });
        });
        deps.log.info('sign-out', { userId: family.userId });
      }
      return c.json({ message: SIGNED_OUT });
    },
  );

  app.post(
    '/logout-all',
    describeRoute({
      tags: ['Auth'],
      summary: 'Sair de todas as sessões do usuário (todos os aparelhos)',
      security: [{ bearer: [] }],
      responses: { 200: docs(MessageSchema, 'Sessões encerradas') },
    }),
    requireAuth(deps, { duringTwoFactorSetup: true }),
    async (c) => {
      await db.transaction(async (tx) => {
        await revokeUserTokens(tx, c.var.user.id);
        await recordAudit(tx, {
          ...actorOf(c, deps),
          clientId: c.var.user.clientId,
          kind: 'sign_out',
          entity: 'session',
          entityId: c.var.user.id,
          summary: SIGNED_OUT_EVERYWHERE,
        });
      });
      deps.log.info('sign-out everywhere', { userId: c.var.user.id });
      return c.json({ message: SIGNED_OUT_EVERYWHERE });
    },
  );

  app.put(
    '/password',
    describeRoute({
      tags: ['Auth'],
      summary: 'Trocar a própria senha (encerra as outras sessões)',
      security: [{ bearer: [] }],
      responses: { 200: docs(MessageSchema, 'Senha alterada') },
    }),
    requireAuth(deps),
    validate('json', ChangePasswordRequestSchema),
    async (c) => {
      const { currentPassword, newPassword } = c.req.valid('json');
      const user = c.var.user;
      await assertCurrentPassword(deps, c, currentPassword);
      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        const now = new Date();
        await setUserPassword(tx, user.id, passwordHash);
        await voidPasswordTokens(tx, user.id, now);
        await revokeUserTokens(tx, user.id, now, c.var.claims.sid);
        await recordAudit(tx, {
          ...actorOf(c, deps),
          clientId: user.clientId,
          kind: 'password_change',
          entity: 'user',
          entityId: user.id,
          summary: user.email,
        });
      });
      deps.log.info('password changed', { userId: user.id });
      return c.json({ message: PASSWORD_CHANGED });
    },
  );

  app.get(
    '/validation',
    describeRoute({
      tags: ['Auth'],
      summary: 'Dados do usuário do token',
      security: [{ bearer: [] }],
      responses: { 200: docs(SessionUserSchema, 'Usuário') },
    }),
    requireAuth(deps, { duringTwoFactorSetup: true }),
    (c) => c.json(toSessionUser(c.var.user)),
  );

  app.post(
    '/activeEmail',
    describeRoute({
      tags: ['Auth'],
      summary: 'Criar a senha (primeiro acesso ou recuperação) com o token do e-mail como bearer',
      responses: {
        200: docs(LoginResponseSchema, 'Sessão, ou o desafio da verificação em duas etapas'),
      },
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
        await revokeUserTokens(tx, id);
        await recordAudit(tx, {
          ...ownAccountLine(c, deps, user, 'user'),
          kind: 'password_change',
          summary: user.email,
        });
      });
      if (!userId) throw unauthorized(INVALID_LINK, 'SET_PASSWORD_TOKEN_INVALID');
      const user = await findUserById(db, userId);
      assertCanUse(user);
      deps.log.info('password set', { userId });
      // The e-mail link proves the mailbox, not the phone: two steps stay on and are asked.
      if (user.twoFactorEnabled) return c.json(await startChallenge(deps, user));
      return c.json(await issueSession(deps, user));
    },
  );

  app.post(
    '/confirmEmail',
    describeRoute({
      tags: ['Auth'],
      summary: 'Confirmar o novo e-mail da conta com o token do link enviado a ele, como bearer',
      responses: { 200: docs(MessageSchema, 'E-mail alterado') },
    }),
    async (c) => {
      const token = bearerToken(c.req.header('authorization'));
      if (!token) throw unauthorized(INVALID_LINK, 'NO_TOKEN');
      const userId = await consumeEmailToken(db, hashToken(token), async (tx, id, newEmail) => {
        const user = await findUserById(tx, id);
        assertCanUse(user);
        if (await emailTaken(tx, newEmail, id)) throw new HttpError(409, 'CONFLICT', EMAIL_TAKEN);
        await updateUser(tx, id, { email: newEmail });
        await recordAudit(tx, {
          ...ownAccountLine(c, deps, user, 'user'),
          kind: 'email_change',
          summary: newEmail,
          changes: { email: [user.email, newEmail] },
        });
        // The sign-in name changed: every session starts over with it.
        await revokeUserTokens(tx, id);
      });
      if (!userId) throw unauthorized(INVALID_LINK, 'EMAIL_TOKEN_INVALID');
      deps.log.info('e-mail changed', { userId });
      return c.json({ message: EMAIL_CONFIRMED });
    },
  );

  app.post(
    '/forgetPassword',
    describeRoute({
      tags: ['Auth'],
      summary: 'Enviar e-mail de recuperação de senha',
      responses: { 200: docs(MessageSchema, 'Pedido recebido') },
    }),
    validate('json', ForgetPasswordRequestSchema),
    async (c) => {
      const { email } = c.req.valid('json');
      const user = await findUserByEmail(db, email);
      if (user?.active && user.clientActive) {
        const last = await lastPasswordTokenAt(db, user.id);
        if (!last || Date.now() - last.getTime() > RECOVERY_INTERVAL_MS) {
          // Sent after the answer. Waiting for the SMTP server made the answer slow, and a
          // refusing server made it an error, only for addresses that have an account: anyone
          // could tell which e-mails are registered. The link is stored first, so the interval
          // between links holds; a failed delivery is logged, and the person can ask again.
          const { mail } = await setPasswordMail(deps, user, 'recovery');
          void deps.mailer
            .send(mail)
            .catch((err: unknown) =>
              deps.log.error('recovery e-mail failed', { err, userId: user.id }),
            );
        }
      }
      return c.json({ message: FORGET_PASSWORD_SENT });
    },
  );

  return app;
}
