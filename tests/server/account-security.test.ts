/**
 * Account takeover paths: set-password links that outlive a password or e-mail change,
 * replays of a refresh token, and changing one's own e-mail without the password.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { sendSetPasswordMail } from '../../server/accounts/auth/session';
import { findUserByEmail } from '../../server/accounts/queries/users';
import { rowsOf } from '../../server/platform/db/client';
import type { AuthResponse, User } from '../../src/contract';
import { as, backends, type ErrorBody, jsonOf, login, type TestServer, useServer } from './harness';
import { startSmtp, tokenFromMail, waitForMail } from './smtp';

const smtp = await startSmtp();
afterAll(() => smtp.close());

/** A fresh set-password link of the user, as e-mailed; returns its token. */
async function mailLink(
  s: TestServer,
  email: string,
  purpose: 'first_access' | 'recovery',
): Promise<string> {
  const user = await findUserByEmail(s.deps.database.db, email);
  if (!user) throw new Error(`seed user ${email} missing`);
  const link = await sendSetPasswordMail(s.deps, user, purpose);
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error('link without a token');
  return token;
}

const setPassword = (s: TestServer, token: string, password: string) =>
  s.request('/registros/auth/activeEmail', { method: 'POST', token, json: { password } });

const refresh = (s: TestServer, refreshToken: string) =>
  s.request('/registros/auth/refresh', { method: 'POST', json: { refreshToken } });

describe.each(await backends())('account security on %s', (backend) => {
  const server = useServer(backend, () => ({ SMTP_URL: smtp.url }));

  describe('set-password links', () => {
    it('voids every other link of the user once one of them sets the password', async () => {
      const s = server();
      const email = 'operador.norte@rastro.demo';
      const firstAccess = await mailLink(s, email, 'first_access');
      const recovery = await mailLink(s, email, 'recovery');
      const session = await as(s, email);
      expect((await setPassword(s, recovery, 'nova-senha-norte-1')).status).toBe(200);
      const stale = await setPassword(s, firstAccess, 'senha-do-atacante-1');
      expect(stale.status).toBe(401);
      // The old link set nothing: the password is still the one the recovery link set.
      const attacker = await s.request('/registros/auth/login', {
        method: 'POST',
        json: { email, password: 'senha-do-atacante-1' },
      });
      expect(attacker.status).toBe(401);
      await as(s, email, 'nova-senha-norte-1');
      // The sessions from before the change are over.
      expect((await refresh(s, session.refreshToken)).status).toBe(401);
    });

    it('voids the links when the password is changed on the account page', async () => {
      const s = server();
      const email = 'operador.sul@rastro.demo';
      const recovery = await mailLink(s, email, 'recovery');
      const here = await as(s, email);
      const res = await here.call('PUT', '/registros/auth/password', {
        currentPassword: 'rastro-demo',
        newPassword: 'NovaSenha-sul-1',
      });
      expect(res.status).toBe(200);
      expect((await setPassword(s, recovery, 'senha-do-atacante-2')).status).toBe(401);
      await as(s, email, 'NovaSenha-sul-1');
    });

    it('voids the links and ends the sessions when an administrator changes the e-mail', async () => {
      const s = server();
      const email = 'cliente@rastro.demo';
      const recovery = await mailLink(s, email, 'recovery');
      const victim = await as(s, email);
      const admin = await as(s, 'admin@rastro.demo');
      const res = await admin.call<User>('PATCH', `/registros/user/${victim.user.id}`, {
        email: 'clara.nova@rastro.demo',
      });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe('clara.nova@rastro.demo');
      expect((await setPassword(s, recovery, 'senha-do-atacante-3')).status).toBe(401);
      expect((await refresh(s, victim.refreshToken)).status).toBe(401);
      const validation = await s.request('/registros/auth/validation', {
        token: victim.accessToken,
      });
      expect(validation.status).toBe(401);
    });
  });

  describe('refresh-token replays', () => {
    it('answers every replay within the grace with the one successor it minted', async () => {
      const s = server();
      const first = await login(s, 'gestor.norte@rastro.demo');
      const replies = [];
      for (let i = 0; i < 5; i++) {
        const res = await refresh(s, first.refreshToken);
        expect(res.status).toBe(200);
        replies.push(await jsonOf<AuthResponse>(res));
      }
      const successors = new Set(replies.map((r) => r.refreshToken));
      expect(successors.size).toBe(1);
      expect(successors.has(first.refreshToken)).toBe(false);
      // The five replays stored no more than the one successor.
      const rows = rowsOf<{ n: number }>(
        await s.deps.database.db.execute(sql`select count(*)::int as n from refresh_tokens where family_id = (
          select family_id from refresh_tokens where user_id = ${first.user.id}
            and used_at is not null order by created_at desc limit 1)`),
      );
      expect(Number(rows[0]?.n)).toBe(2);
    });

    it('revokes the family when the old token comes back after the grace', async () => {
      const s = server();
      const first = await login(s, 'gestor.sul@rastro.demo');
      const next = await jsonOf<AuthResponse>(await refresh(s, first.refreshToken));
      await s.deps.database.db.execute(
        sql`update refresh_tokens set used_at = now() - interval '1 minute'
          where user_id = ${first.user.id} and used_at is not null`,
      );
      const replay = await refresh(s, first.refreshToken);
      expect(replay.status).toBe(401);
      expect((await refresh(s, next.refreshToken)).status).toBe(401);
    });
  });

  describe("changing one's own e-mail", () => {
    it('needs the current password, and changes nothing without it', async () => {
      const s = server();
      const email = 'operador@rastro.demo';
      const me = await as(s, email);
      const path = `/registros/user/${me.user.id}`;
      const missing = await me.call<ErrorBody>('PATCH', path, { email: 'ladrao@exemplo.com' });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        message: 'Informe a senha atual para alterar o e-mail',
        issues: [{ path: 'currentPassword' }],
      });
      const wrong = await me.call<ErrorBody>('PATCH', path, {
        email: 'ladrao@exemplo.com',
        currentPassword: 'chute-errado-1',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({
        message: 'Senha atual incorreta',
        issues: [{ path: 'currentPassword', message: 'Senha atual incorreta' }],
      });
      const read = await me.call<User>('GET', path);
      expect(read.body.email).toBe(email);
      // The name alone needs no password.
      const renamed = await me.call<User>('PATCH', path, { name: 'Otávio O. Operador' });
      expect(renamed.status).toBe(200);
    });

    it('moves the account only when the link sent to the new address is opened', async () => {
      const s = server();
      const email = 'terceiro@rastro.demo';
      const me = await as(s, email);
      const recovery = await mailLink(s, email, 'recovery');
      const before = smtp.inbox.length;
      const res = await me.call<User>('PATCH', `/registros/user/${me.user.id}`, {
        email: 'tiago.novo@rastro.demo',
        currentPassword: 'rastro-demo',
      });
      expect(res.status).toBe(200);
      // Not yet: the account keeps its address until the new one confirms.
      expect(res.body.email).toBe(email);
      await as(s, email);
      const mails = smtp.inbox.slice(before);
      const toNew = mails.find((m) => m.to.includes('tiago.novo@rastro.demo'));
      const toOld = mails.find((m) => m.to.includes(email));
      expect(toOld?.raw).toContain('tiago.novo@rastro.demo');
      const token = toNew ? tokenFromMail(toNew, '/confirm-email') : undefined;
      if (!token) throw new Error('no confirmation link in the mail to the new address');
      // The confirmation link sets no password.
      expect((await setPassword(s, token, 'senha-pelo-link-1')).status).toBe(401);

      const confirm = () => s.request('/registros/auth/confirmEmail', { method: 'POST', token });
      const done = await confirm();
      expect(done.status).toBe(200);
      expect(await jsonOf<{ message: string }>(done)).toEqual({
        message: 'E-mail alterado. Entre com o novo endereço.',
      });
      expect((await confirm()).status).toBe(401);
      await as(s, 'tiago.novo@rastro.demo');
      const old = await s.request('/registros/auth/login', {
        method: 'POST',
        json: { email, password: 'rastro-demo' },
      });
      expect(old.status).toBe(401);
      // Links from before the move and the sessions opened before it are over.
      expect((await setPassword(s, recovery, 'senha-do-atacante-4')).status).toBe(401);
      expect((await refresh(s, me.refreshToken)).status).toBe(401);
    });

    it('lets the old address recover the password at once, which cancels the move', async () => {
      const s = server();
      const email = 'gestor@rastro.demo';
      const me = await as(s, email);
      const before = smtp.inbox.length;
      const res = await me.call<User>('PATCH', `/registros/user/${me.user.id}`, {
        email: 'gustavo.novo@rastro.demo',
        currentPassword: 'rastro-demo',
      });
      expect(res.status).toBe(200);
      const toNew = smtp.inbox.slice(before).find((m) => m.to.includes('gustavo.novo@rastro.demo'));
      const pending = toNew ? tokenFromMail(toNew, '/confirm-email') : undefined;
      if (!pending) throw new Error('no confirmation link');
      // The owner, told at the old address, asks for a recovery link right away.
      const forget = await s.request('/registros/auth/forgetPassword', {
        method: 'POST',
        json: { email },
      });
      expect(forget.status).toBe(200);
      const recoveryMail = await waitForMail(
        smtp.inbox,
        (m) => m.to.includes(email) && m.raw.includes('/recover-password?token'),
        before,
      );
      const recovery = tokenFromMail(recoveryMail, '/recover-password');
      if (!recovery) throw new Error('no recovery mail to the old address');
      expect((await setPassword(s, recovery, 'nova-senha-gestor-1')).status).toBe(200);
      const confirm = await s.request('/registros/auth/confirmEmail', {
        method: 'POST',
        token: pending,
      });
      expect(confirm.status).toBe(401);
      await as(s, email, 'nova-senha-gestor-1');
    });
  });
});
