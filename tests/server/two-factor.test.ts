/**
 * Two-step sign-in: the codes against the RFCs' own vectors, then the whole path on the real
 * server — turning it on, signing in with a code or a recovery code, the throttle, replays,
 * the challenge's single use and lifetime, turning it off, and a company that requires it.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  decryptSecret,
  encryptSecret,
  hotp,
  matchingStep,
  totp,
  totpStep,
} from '../../server/accounts/auth/two-factor';
import { rowsOf } from '../../server/platform/db/client';
import type { AuthResponse, SessionUser } from '../../src/contract';
import {
  as,
  backends,
  demoClients,
  type ErrorBody,
  jsonOf,
  type TestServer,
  useServer,
} from './harness';

describe('one-time codes', () => {
  const rfcKey = Buffer.from('12345678901234567890');

  it('matches the HOTP vectors of RFC 4226 (appendix D)', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(rfcKey, counter))).toEqual(expected);
  });

  it('matches the TOTP vectors of RFC 6238 (appendix B, SHA-1, 8 digits)', () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) expect(totp(rfcKey, seconds * 1000, 8)).toBe(code);
  });

  it('accepts one step either side of now, and no further', () => {
    const now = 1_800_000_000_000;
    const step = totpStep(now);
    expect(matchingStep(rfcKey, hotp(rfcKey, step), now)).toBe(step);
    expect(matchingStep(rfcKey, hotp(rfcKey, step - 1), now)).toBe(step - 1);
    expect(matchingStep(rfcKey, hotp(rfcKey, step + 1), now)).toBe(step + 1);
    expect(matchingStep(rfcKey, hotp(rfcKey, step + 2), now)).toBeUndefined();
    expect(matchingStep(rfcKey, hotp(rfcKey, step - 2), now)).toBeUndefined();
  });

  it('round-trips base32 and the encrypted secret, bound to its user', () => {
    expect(base32Encode(Buffer.from('12345678901234567890'))).toBe(
      'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
    );
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString()).toBe(
      '12345678901234567890',
    );
    const sealed = encryptSecret('JBSWY3DPEHPK3PXP', 'user-a', 'server-secret');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(decryptSecret(sealed, 'user-a', 'server-secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(decryptSecret(sealed, 'user-b', 'server-secret')).toBeUndefined();
    expect(decryptSecret(sealed, 'user-a', 'another-secret')).toBeUndefined();
  });
});

interface Setup {
  secret: string;
  otpauthUri: string;
  qrSvg: string;
}
interface Challenge {
  twoFactorRequired: true;
  challenge: string;
}

const codeAt = (secret: string, offsetSteps = 0) =>
  hotp(base32Decode(secret), totpStep(Date.now()) + offsetSteps);

async function signIn(s: TestServer, email: string, password = 'rastro-demo') {
  return s.request('/registros/auth/login', { method: 'POST', json: { email, password } });
}

async function challengeOf(s: TestServer, email: string): Promise<string> {
  const res = await signIn(s, email);
  expect(res.status).toBe(200);
  const body = await jsonOf<Challenge & { accessToken?: string }>(res);
  expect(body).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
  return body.challenge;
}

const verify = (s: TestServer, json: Record<string, string>) =>
  s.request('/registros/auth/2fa/verify', { method: 'POST', json });

/** Turns two steps on for the user; returns the secret and the recovery codes. */
async function turnOn(s: TestServer, email: string) {
  const me = await as(s, email);
  const setup = await me.call<Setup>('POST', '/registros/auth/2fa/setup', {
    currentPassword: 'rastro-demo',
  });
  expect(setup.status).toBe(200);
  const enabled = await me.call<{ recoveryCodes: string[] }>('POST', '/registros/auth/2fa/enable', {
    code: codeAt(setup.body.secret),
  });
  expect(enabled.status).toBe(200);
  return { me, secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
}

async function userRow(s: TestServer, email: string) {
  const rows = rowsOf<{ totp_secret: string | null; totp_enabled_at: unknown }>(
    await s.deps.database.db.execute(
      sql`select totp_secret, totp_enabled_at from users where email = ${email}`,
    ),
  );
  return rows[0];
}

describe.each(await backends())('two-step sign-in on %s', (backend) => {
  const server = useServer(backend, () => ({
    LOGIN_BLOCK_AFTER: '6',
    LOGIN_SLOWDOWN_AFTER: '50',
  }));

  it('turns on with a QR code and a first code, then asks a code at sign-in', async () => {
    const s = server();
    const email = 'gestor@rastro.demo';
    const me = await as(s, email);
    const wrongPassword = await me.call<ErrorBody>('POST', '/registros/auth/2fa/setup', {
      currentPassword: 'errada-123',
    });
    expect(wrongPassword.status).toBe(400);
    const setup = await me.call<Setup>('POST', '/registros/auth/2fa/setup', {
      currentPassword: 'rastro-demo',
    });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUri).toBe(
      `otpauth://totp/Rastro%3Agestor%40rastro.demo?secret=${setup.body.secret}&issuer=Rastro&algorithm=SHA1&digits=6&period=30`,
    );
    expect(setup.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // Not on before a code confirms it: the sign-in is still one step.
    expect(await jsonOf<AuthResponse>(await signIn(s, email))).toHaveProperty('accessToken');

    const wrong = await me.call<ErrorBody>('POST', '/registros/auth/2fa/enable', {
      code: codeAt(setup.body.secret, 5),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues?.[0]?.path).toBe('code');
    // Kept to replay below: computed again later, it would be the next step's code whenever a
    // 30-second step ends in between, and that one is rightly taken.
    const enableCode = codeAt(setup.body.secret);
    const enabled = await me.call<{ recoveryCodes: string[] }>(
      'POST',
      '/registros/auth/2fa/enable',
      { code: enableCode },
    );
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.body.recoveryCodes).size).toBe(10);

    // The secret is stored encrypted, and never answered again.
    const row = await userRow(s, email);
    expect(row?.totp_enabled_at).toBeTruthy();
    expect(row?.totp_secret).not.toContain(setup.body.secret);
    expect(row?.totp_secret).toMatch(/^v1\./);
    const again = await me.call('POST', '/registros/auth/2fa/setup', {
      currentPassword: 'rastro-demo',
    });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).not.toContain(setup.body.secret);
    const status = await me.call('GET', '/registros/auth/2fa');
    expect(status.body).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect(JSON.stringify(status.body)).not.toContain(setup.body.secret);

    // The password alone gives no session now.
    const challenge = await challengeOf(s, email);
    // The code of the enable step is spent: the same code is refused (replay).
    const replay = await verify(s, { challenge, code: enableCode });
    expect(replay.status).toBe(401);
    expect((await jsonOf<ErrorBody>(replay)).reason).toBe('WRONG_TWO_FACTOR_CODE');
    const next = codeAt(setup.body.secret, 1);
    const ok = await verify(s, { challenge, code: next });
    expect(ok.status).toBe(200);
    const session = await jsonOf<AuthResponse>(ok);
    expect(session.user.email).toBe(email);
    const validation = await s.request('/registros/auth/validation', {
      token: session.accessToken,
    });
    expect(validation.status).toBe(200);
    // The refresh flow is the usual one.
    const refreshed = await s.request('/registros/auth/refresh', {
      method: 'POST',
      json: { refreshToken: session.refreshToken },
    });
    expect(refreshed.status).toBe(200);

    // The challenge is spent; and the same code with a fresh challenge is a replay.
    expect((await verify(s, { challenge, code: next })).status).toBe(401);
    const fresh = await challengeOf(s, email);
    expect((await verify(s, { challenge: fresh, code: next })).status).toBe(401);
  });

  it('signs in with each recovery code once', async () => {
    const s = server();
    const email = 'operador@rastro.demo';
    const { recoveryCodes } = await turnOn(s, email);
    const [first, second] = recoveryCodes;
    if (!first || !second) throw new Error('no recovery codes');
    const challenge = await challengeOf(s, email);
    // Typed in capitals and without the dash, it still counts.
    const ok = await verify(s, { challenge, recoveryCode: first.toUpperCase().replace('-', '') });
    expect(ok.status).toBe(200);
    const used = await verify(s, { challenge: await challengeOf(s, email), recoveryCode: first });
    expect(used.status).toBe(401);
    expect((await jsonOf<ErrorBody>(used)).message).toBe(
      'Código de recuperação inválido ou já usado',
    );
    const other = await verify(s, { challenge: await challengeOf(s, email), recoveryCode: second });
    expect(other.status).toBe(200);
    const me = await s.request('/registros/auth/2fa', {
      token: (await jsonOf<AuthResponse>(other)).accessToken,
    });
    expect((await jsonOf<{ recoveryCodesLeft: number }>(me)).recoveryCodesLeft).toBe(8);
  });

  it('counts wrong codes in the sign-in throttle, the right password included', async () => {
    const s = server();
    const email = 'cliente@rastro.demo';
    const { secret } = await turnOn(s, email);
    let last: Response | undefined;
    // The password step stays counted until a code is right: signing in again does not
    // wipe the count of wrong codes.
    for (let i = 0; i < 3; i++) {
      const challenge = await challengeOf(s, email);
      // Five steps ahead: outside the window whatever the clock.
      last = await verify(s, { challenge, code: codeAt(secret, 5) });
      if (last.status === 429) break;
    }
    const blocked = await signIn(s, email);
    expect(blocked.status).toBe(429);
    expect(last?.status === 401 || last?.status === 429).toBe(true);
  });

  it('refuses a challenge that ran out, and a malformed code with a clear message', async () => {
    const s = server();
    const email = 'operador.sul@rastro.demo';
    const { secret } = await turnOn(s, email);
    const challenge = await challengeOf(s, email);
    const bad = await verify(s, { challenge, code: '12a' });
    expect(bad.status).toBe(400);
    expect((await jsonOf<ErrorBody>(bad)).message).toContain('Informe os 6 dígitos do código');
    const both = await verify(s, { challenge, code: '123456', recoveryCode: 'abcde-fghij' });
    expect(both.status).toBe(400);
    await s.deps.database.db.execute(
      sql`update two_factor_challenges set expires_at = now() - interval '1 second'`,
    );
    const late = await verify(s, { challenge, code: codeAt(secret, 1) });
    expect(late.status).toBe(401);
    expect((await jsonOf<ErrorBody>(late)).reason).toBe('TWO_FACTOR_CHALLENGE_INVALID');
    expect((await verify(s, { challenge: 'made-up', code: '123456' })).status).toBe(401);
  });

  it('turns off with the password and a code; a password link keeps it on', async () => {
    const s = server();
    const email = 'terceiro@rastro.demo';
    const { me, secret, recoveryCodes } = await turnOn(s, email);
    const noCode = await me.call('POST', '/registros/auth/2fa/disable', {
      currentPassword: 'rastro-demo',
    });
    expect(noCode.status).toBe(400);
    const wrongPassword = await me.call<ErrorBody>('POST', '/registros/auth/2fa/disable', {
      currentPassword: 'errada-123',
      code: codeAt(secret, 1),
    });
    expect(wrongPassword.body.issues?.[0]?.path).toBe('currentPassword');
    const regenerated = await me.call<{ recoveryCodes: string[] }>(
      'POST',
      '/registros/auth/2fa/recovery-codes',
      { currentPassword: 'rastro-demo', code: codeAt(secret, 1) },
    );
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.recoveryCodes).toHaveLength(10);
    // The old codes went with the new ones.
    const stale = await me.call('POST', '/registros/auth/2fa/disable', {
      currentPassword: 'rastro-demo',
      recoveryCode: recoveryCodes[0],
    });
    expect(stale.status).toBe(400);

    // A recovery e-mail's link sets a new password, and asks the code all the same.
    const { sendSetPasswordMail } = await import('../../server/accounts/auth/session');
    const { findUserByEmail } = await import('../../server/accounts/queries/users');
    const user = await findUserByEmail(s.deps.database.db, email);
    if (!user) throw new Error('no user');
    const link = await sendSetPasswordMail(s.deps, user, 'recovery');
    const token = new URL(link).searchParams.get('token') ?? '';
    const set = await s.request('/registros/auth/activeEmail', {
      method: 'POST',
      token,
      json: { password: 'nova-senha-1' },
    });
    expect(set.status).toBe(200);
    expect(await jsonOf<Challenge>(set)).toEqual({
      twoFactorRequired: true,
      challenge: expect.any(String),
    });
    expect((await userRow(s, email))?.totp_enabled_at).toBeTruthy();

    const challenge = (await jsonOf<Challenge>(await signIn(s, email, 'nova-senha-1'))).challenge;
    const session = await jsonOf<AuthResponse>(
      await verify(s, { challenge, recoveryCode: regenerated.body.recoveryCodes[1] ?? '' }),
    );
    const off = await s.request('/registros/auth/2fa/disable', {
      method: 'POST',
      token: session.accessToken,
      json: { currentPassword: 'nova-senha-1', recoveryCode: regenerated.body.recoveryCodes[2] },
    });
    expect(off.status).toBe(200);
    expect(await userRow(s, email)).toEqual({ totp_secret: null, totp_enabled_at: null });
    const plain = await jsonOf<AuthResponse>(await signIn(s, email, 'nova-senha-1'));
    expect(plain.accessToken).toEqual(expect.any(String));
  });

  it('tells the audit log of each two-step change and sign-in', async () => {
    const s = server();
    const email = 'gestor.sul@rastro.demo';
    const { me, secret, recoveryCodes } = await turnOn(s, email);
    const challenge = await challengeOf(s, email);
    expect((await verify(s, { challenge, code: '000000' })).status).toBe(401);
    const again = await challengeOf(s, email);
    expect((await verify(s, { challenge: again, code: codeAt(secret, 1) })).status).toBe(200);
    const off = await me.call('POST', '/registros/auth/2fa/disable', {
      currentPassword: 'rastro-demo',
      recoveryCode: recoveryCodes[0] ?? '',
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const admin = await as(s, 'admin@rastro.demo');
    const log = await admin.call<{
      events: { kind: string; summary: string; actorEmail: string }[];
    }>('GET', `/registros/audit?userId=${me.user.id}&pageSize=50`);
    expect(log.status).toBe(200);
    const lines = log.body.events
      // Leaving out the sign-in with the password alone, before two steps were on.
      .filter((e) => e.kind !== 'sign_in' || e.summary !== '')
      .map((e) => [e.kind, e.summary])
      .reverse();
    expect(lines).toEqual([
      ['two_factor', 'Verificação em duas etapas ativada'],
      ['sign_in_failed', 'Código de verificação inválido'],
      ['sign_in', 'Entrada com código de verificação'],
      ['two_factor', 'Verificação em duas etapas desativada'],
    ]);
  });

  it("holds a company's Gestores to the setup until they turn it on", async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const patched = await admin.call<{ requireTwoFactor: boolean }>(
      'PATCH',
      `/registros/client/${north}`,
      { requireTwoFactor: true },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.requireTwoFactor).toBe(true);

    // An Operador of the company is not held.
    const operator = await as(s, 'operador.norte@rastro.demo');
    expect(operator.user).not.toHaveProperty('twoFactorSetupRequired');
    expect((await operator.call('GET', '/registros/real-time/lastLocation')).status).toBe(200);

    const manager = await as(s, 'gestor.norte@rastro.demo');
    expect(manager.user.twoFactorSetupRequired).toBe(true);
    const held = await manager.call<ErrorBody>('GET', `/registros/client/${north}`);
    expect(held.status).toBe(403);
    expect(held.body.message).toBe('Ative a verificação em duas etapas para continuar');
    expect((await manager.call('GET', '/registros/real-time/stream')).status).toBe(403);
    const me = await manager.call<SessionUser>('GET', '/registros/auth/validation');
    expect(me.body.twoFactorSetupRequired).toBe(true);
    const status = await manager.call('GET', '/registros/auth/2fa');
    expect(status.body).toEqual({ enabled: false, required: true, recoveryCodesLeft: 0 });

    const setup = await manager.call<Setup>('POST', '/registros/auth/2fa/setup', {
      currentPassword: 'rastro-demo',
    });
    expect(setup.status).toBe(200);
    const enabled = await manager.call('POST', '/registros/auth/2fa/enable', {
      code: codeAt(setup.body.secret),
    });
    expect(enabled.status).toBe(200);
    // The same session goes on, now free.
    expect((await manager.call('GET', `/registros/client/${north}`)).status).toBe(200);
    const after = await manager.call<SessionUser>('GET', '/registros/auth/validation');
    expect(after.body).not.toHaveProperty('twoFactorSetupRequired');
    // And it cannot be turned off while the company requires it.
    const off = await manager.call<ErrorBody>('POST', '/registros/auth/2fa/disable', {
      currentPassword: 'rastro-demo',
      code: codeAt(setup.body.secret, 1),
    });
    expect(off.status).toBe(400);
    expect(off.body.message).toBe('Sua empresa exige a verificação em duas etapas');
  });
});
