/**
 * Two-step sign-in (mounted at registros/auth/2fa): turning it on (setup, then the first
 * code), off, new recovery codes, and the second step of a sign-in (verify).
 *
 * Every code or recovery code checked counts in the sign-in throttle of the account and the
 * caller's address, exactly like a password: six digits must not be guessable faster than a
 * password. The secret is answered only by the setup, before it is confirmed; once on, it
 * never leaves the server again.
 */
import { type Context, Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import QRCode from 'qrcode';
import {
  type AuthResponse,
  AuthResponseSchema,
  MessageSchema,
  RecoveryCodesSchema,
  TwoFactorConfirmRequestSchema,
  TwoFactorEnableRequestSchema,
  TwoFactorSetupRequestSchema,
  TwoFactorSetupSchema,
  TwoFactorStatusSchema,
  TwoFactorVerifyRequestSchema,
} from '../../../src/contract';
import { actorOf, ownAccountLine, recordAudit } from '../../audit/record';
import type { Deps } from '../../deps';
import type { Db } from '../../platform/db/client';
import { clientAddress } from '../../platform/http/client-address';
import { badRequest, HttpError, unauthorized } from '../../platform/http/errors';
import { docs } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { assertCurrentPassword, WRONG_CURRENT_PASSWORD } from '../auth/current-password';
import { type AuthEnv, assertCanUse, requireAuth } from '../auth/middleware';
import { verifyPassword } from '../auth/passwords';
import { issueSession } from '../auth/session';
import { loginKeys, throttledAttempt } from '../auth/throttle';
import { hashToken, newOpaqueToken } from '../auth/tokens';
import {
  base32Decode,
  decryptSecret,
  encryptSecret,
  hashRecoveryCode,
  matchingStep,
  newRecoveryCode,
  newTotpSecret,
  otpauthUri,
  RECOVERY_CODE_COUNT,
} from '../auth/two-factor';
import { attemptSucceeded } from '../queries/throttle';
import {
  disableTwoFactor,
  enableTwoFactor,
  openChallenge,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  spendChallenge,
  spendRecoveryCode,
  spendStep,
  storeChallenge,
  storePendingSecret,
  twoFactorState,
} from '../queries/two-factor';
import { findUserById, type UserRecord } from '../queries/users';

/** What the audit log says of each two-step change (its 'o quê' is 'Verificação em duas etapas'). */
const TWO_FACTOR_AUDIT = {
  on: 'Verificação em duas etapas ativada',
  off: 'Verificação em duas etapas desativada',
  codes: 'Novos códigos de recuperação gerados',
  signIn: 'Entrada com código de verificação',
};

/** The audit line of a two-step change the caller made to their own account. */
function twoFactorLine(c: Context<AuthEnv>, deps: Deps, summary: string) {
  return {
    ...actorOf(c, deps),
    clientId: c.var.user.clientId,
    kind: 'two_factor' as const,
    entity: 'user' as const,
    entityId: c.var.user.id,
    summary,
  };
}

/** How long the second step of a sign-in may wait for its code. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export const WRONG_CODE = 'Código de verificação inválido';
export const WRONG_RECOVERY_CODE = 'Código de recuperação inválido ou já usado';
export const CHALLENGE_INVALID = 'A verificação expirou. Entre com a senha novamente.';
const ALREADY_ON = 'A verificação em duas etapas já está ativa';
const NOT_ON = 'A verificação em duas etapas não está ativa';
const NO_SETUP = 'Comece a configuração da verificação em duas etapas novamente';
const REQUIRED_BY_COMPANY = 'Sua empresa exige a verificação em duas etapas';
export const TWO_FACTOR_DISABLED = 'Verificação em duas etapas desativada.';

/** The password step of an account with two steps: a challenge instead of a session. */
export async function startChallenge(deps: Deps, user: UserRecord) {
  const { token, hash } = newOpaqueToken();
  await storeChallenge(deps.database.db, {
    userId: user.id,
    tokenHash: hash,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
  return { twoFactorRequired: true as const, challenge: token };
}

/**
 * Whether the code (or recovery code) is right, and if so spends it: the step becomes the
 * last accepted one, the recovery code used. A replayed code is wrong.
 */
async function spendSecondFactor(
  deps: Deps,
  db: Db,
  user: UserRecord,
  input: { code?: string | undefined; recoveryCode?: string | undefined },
): Promise<boolean> {
  if (input.recoveryCode !== undefined)
    return spendRecoveryCode(db, user.id, hashRecoveryCode(input.recoveryCode, user.id));
  const state = await twoFactorState(db, user.id);
  const secret = state.secret && decryptSecret(state.secret, user.id, deps.secret);
  if (!secret || input.code === undefined) return false;
  const key = base32Decode(secret);
  const step = matchingStep(key, input.code, Date.now());
  return step !== undefined && (await spendStep(db, user.id, step));
}

function wrongSecondFactor(input: { recoveryCode?: string | undefined }, status: 400 | 401) {
  const path = input.recoveryCode !== undefined ? 'recoveryCode' : 'code';
  const message = path === 'code' ? WRONG_CODE : WRONG_RECOVERY_CODE;
  return status === 401
    ? unauthorized(message, 'WRONG_TWO_FACTOR_CODE')
    : badRequest(message, [{ path, message }]);
}

function freshRecoveryCodes(userId: string) {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: codes.map((code) => hashRecoveryCode(code, userId)) };
}

export function twoFactorRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  const keysOf = (c: Context, email: string) =>
    loginKeys(email, clientAddress(c, deps.config.trustProxy));

  /**
   * The password and a code, checked as one counted attempt: a right password does not
   * wipe the count of wrong codes. The code is looked at (and spent) only after the
   * password was right.
   */
  async function assertPasswordAndCode(
    c: Context<AuthEnv>,
    body: { currentPassword: string; code?: string | undefined; recoveryCode?: string | undefined },
  ) {
    const user = c.var.user;
    const failed = await throttledAttempt(deps, keysOf(c, user.email), async () => {
      if (!(await verifyPassword(user.passwordHash, body.currentPassword)))
        return { ok: false, value: 'password' as const };
      const right = await spendSecondFactor(deps, db, user, body);
      return { ok: right, value: right ? undefined : ('code' as const) };
    });
    if (failed === 'password')
      throw badRequest(WRONG_CURRENT_PASSWORD, [
        { path: 'currentPassword', message: WRONG_CURRENT_PASSWORD },
      ]);
    if (failed === 'code') throw wrongSecondFactor(body, 400);
  }

  app.get(
    '/',
    describeRoute({
      tags: ['Auth'],
      summary: 'Estado da verificação em duas etapas do usuário',
      security: [{ bearer: [] }],
      responses: { 200: docs(TwoFactorStatusSchema, 'Estado') },
    }),
    requireAuth(deps, { duringTwoFactorSetup: true }),
    async (c) => {
      const user = c.var.user;
      return c.json({
        enabled: user.twoFactorEnabled,
        required: user.twoFactorRequired,
        recoveryCodesLeft: user.twoFactorEnabled ? await recoveryCodesLeft(db, user.id) : 0,
      });
    },
  );

  app.post(
    '/setup',
    describeRoute({
      tags: ['Auth'],
      summary: 'Gerar o segredo (QR code) para ativar a verificação em duas etapas',
      security: [{ bearer: [] }],
      responses: { 200: docs(TwoFactorSetupSchema, 'Segredo a confirmar') },
    }),
    requireAuth(deps, { duringTwoFactorSetup: true }),
    validate('json', TwoFactorSetupRequestSchema),
    async (c) => {
      const user = c.var.user;
      if (user.twoFactorEnabled) throw new HttpError(409, 'CONFLICT', ALREADY_ON);
      await assertCurrentPassword(deps, c, c.req.valid('json').currentPassword);
      const secret = newTotpSecret();
      if (!(await storePendingSecret(db, user.id, encryptSecret(secret, user.id, deps.secret))))
        throw new HttpError(409, 'CONFLICT', ALREADY_ON);
      const uri = otpauthUri(secret, user.email);
      const qrSvg = await QRCode.toString(uri, {
        type: 'svg',
        margin: 1,
        errorCorrectionLevel: 'M',
      });
      return c.json({ secret, otpauthUri: uri, qrSvg });
    },
  );

  app.post(
    '/enable',
    describeRoute({
      tags: ['Auth'],
      summary: 'Confirmar com o primeiro código e ativar (devolve os códigos de recuperação)',
      security: [{ bearer: [] }],
      responses: { 200: docs(RecoveryCodesSchema, 'Códigos de recuperação, mostrados uma vez') },
    }),
    requireAuth(deps, { duringTwoFactorSetup: true }),
    validate('json', TwoFactorEnableRequestSchema),
    async (c) => {
      const user = c.var.user;
      if (user.twoFactorEnabled) throw new HttpError(409, 'CONFLICT', ALREADY_ON);
      const state = await twoFactorState(db, user.id);
      if (!state.secret) throw badRequest(NO_SETUP);
      const { code } = c.req.valid('json');
      const right = await throttledAttempt(deps, keysOf(c, user.email), async () => {
        const ok = await spendSecondFactor(deps, db, user, { code });
        return { ok, value: ok };
      });
      if (!right) throw wrongSecondFactor({}, 400);
      const fresh = freshRecoveryCodes(user.id);
      const enabled = await db.transaction(async (tx) => {
        if (!(await enableTwoFactor(tx, user.id, fresh.hashes))) return false;
        await recordAudit(tx, twoFactorLine(c, deps, TWO_FACTOR_AUDIT.on));
        return true;
      });
      if (!enabled) throw new HttpError(409, 'CONFLICT', ALREADY_ON);
      deps.log.info('two-step sign-in on', { userId: user.id });
      return c.json({ recoveryCodes: fresh.codes });
    },
  );

  app.post(
    '/disable',
    describeRoute({
      tags: ['Auth'],
      summary: 'Desativar a verificação em duas etapas (senha e um código)',
      security: [{ bearer: [] }],
      responses: { 200: docs(MessageSchema, 'Desativada') },
    }),
    requireAuth(deps),
    validate('json', TwoFactorConfirmRequestSchema),
    async (c) => {
      const user = c.var.user;
      if (!user.twoFactorEnabled) throw new HttpError(409, 'CONFLICT', NOT_ON);
      if (user.twoFactorRequired) throw badRequest(REQUIRED_BY_COMPANY);
      await assertPasswordAndCode(c, c.req.valid('json'));
      await db.transaction(async (tx) => {
        await disableTwoFactor(tx, user.id);
        await recordAudit(tx, twoFactorLine(c, deps, TWO_FACTOR_AUDIT.off));
      });
      deps.log.info('two-step sign-in off', { userId: user.id });
      return c.json({ message: TWO_FACTOR_DISABLED });
    },
  );

  app.post(
    '/recovery-codes',
    describeRoute({
      tags: ['Auth'],
      summary: 'Gerar novos códigos de recuperação (os anteriores deixam de valer)',
      security: [{ bearer: [] }],
      responses: { 200: docs(RecoveryCodesSchema, 'Códigos de recuperação, mostrados uma vez') },
    }),
    requireAuth(deps),
    validate('json', TwoFactorConfirmRequestSchema),
    async (c) => {
      const user = c.var.user;
      if (!user.twoFactorEnabled) throw new HttpError(409, 'CONFLICT', NOT_ON);
      await assertPasswordAndCode(c, c.req.valid('json'));
      const fresh = freshRecoveryCodes(user.id);
      await db.transaction(async (tx) => {
        await replaceRecoveryCodes(tx, user.id, fresh.hashes);
        await recordAudit(tx, twoFactorLine(c, deps, TWO_FACTOR_AUDIT.codes));
      });
      return c.json({ recoveryCodes: fresh.codes });
    },
  );

  app.post(
    '/verify',
    describeRoute({
      tags: ['Auth'],
      summary: 'Segunda etapa do login: o código do aplicativo ou um código de recuperação',
      responses: { 200: docs(AuthResponseSchema, 'Sessão') },
    }),
    validate('json', TwoFactorVerifyRequestSchema),
    async (c) => {
      const body = c.req.valid('json');
      const challengeHash = hashToken(body.challenge);
      const userId = await openChallenge(db, challengeHash);
      if (!userId) throw unauthorized(CHALLENGE_INVALID, 'TWO_FACTOR_CHALLENGE_INVALID');
      const user = await findUserById(db, userId);
      assertCanUse(user);
      if (!user.twoFactorEnabled)
        throw unauthorized(CHALLENGE_INVALID, 'TWO_FACTOR_CHALLENGE_INVALID');
      const keys = keysOf(c, user.email);
      const outcome = await throttledAttempt(deps, keys, async () => {
        try {
          const value = await db.transaction(async (tx) => {
            if (!(await spendSecondFactor(deps, tx, user, body))) return 'wrong' as const;
            // Spent with the code, in one transaction: a challenge signs in once.
            if (!(await spendChallenge(tx, challengeHash))) throw new ChallengeGone();
            return 'ok' as const;
          });
          return { ok: value === 'ok', value };
        } catch (err) {
          if (err instanceof ChallengeGone) return { ok: false, value: 'gone' as const };
          throw err;
        }
      });
      if (outcome === 'gone') throw unauthorized(CHALLENGE_INVALID, 'TWO_FACTOR_CHALLENGE_INVALID');
      const sessionLine = ownAccountLine(c, deps, user, 'session');
      if (outcome === 'wrong') {
        const refusal = wrongSecondFactor(body, 401);
        await recordAudit(db, { ...sessionLine, kind: 'sign_in_failed', summary: refusal.message });
        throw refusal;
      }
      // The password step stayed counted until now (see the login): it is given back too.
      await attemptSucceeded(db, keys, keys.known);
      deps.log.info('sign-in', { userId: user.id, twoStep: true });
      const session: AuthResponse = await issueSession(deps, user);
      await recordAudit(db, { ...sessionLine, kind: 'sign_in', summary: TWO_FACTOR_AUDIT.signIn });
      return c.json(session);
    },
  );

  return app;
}

class ChallengeGone extends Error {}
