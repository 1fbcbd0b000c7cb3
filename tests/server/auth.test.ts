import { sql } from 'drizzle-orm';
import { sign } from 'hono/jwt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../server/platform/db/client';
import type { AuthResponse, SessionUser } from '../../src/contract';
import type { Message } from './api-types';
import {
  backends,
  type ErrorBody,
  jsonOf,
  login,
  present,
  TEST_SECRET,
  useServer,
} from './harness';
import { startSmtp, tokenFromMail, waitForMail } from './smtp';

const smtp = await startSmtp();
afterAll(() => smtp.close());

describe.each(await backends())('auth on %s', (backend) => {
  const server = useServer(backend, () => ({ SMTP_URL: smtp.url }));

  describe('login', () => {
    it('answers the user and both tokens for the demo administrator', async () => {
      const res = await server().request('/registros/auth/login', {
        method: 'POST',
        json: { email: 'Admin@Rastro.demo ', password: 'rastro-demo' },
      });
      expect(res.status).toBe(200);
      const body = await jsonOf<AuthResponse>(res);
      expect(body.user).toMatchObject({
        email: 'admin@rastro.demo',
        role: 'ADMINISTRATOR',
        active: 1,
      });
      expect(body.user.sub).toBe(body.user.id);
      expect(body.user.companyId).toBe(body.user.clientId);
      expect(body.user.permissions).toContain('AdvancedCommands');
      expect(body.accessToken.split('.')).toHaveLength(3);
      expect(body.refreshToken.length).toBeGreaterThan(30);
    });

    it('refuses a wrong password and an unknown e-mail alike', async () => {
      for (const json of [
        { email: 'cliente@rastro.demo', password: 'errada-123' },
        { email: 'ninguem@rastro.demo', password: 'rastro-demo' },
      ]) {
        const res = await server().request('/registros/auth/login', { method: 'POST', json });
        expect(res.status).toBe(401);
        expect(await jsonOf<ErrorBody>(res)).toMatchObject({
          statusCode: 401,
          code: 'IDENTITY_ERROR',
          message: 'E-mail ou senha inválidos',
        });
      }
    });

    it('answers bad input with a pt-BR 400, never a 500', async () => {
      const cases: [unknown, string][] = [
        [{ email: 'x', password: 'a' }, 'email: E-mail inválido'],
        [{ email: 'a@b.com' }, 'password: Campo obrigatório'],
        [{ email: 'a@b.com', password: 12 }, 'password: Tipo inválido: esperado texto'],
        [{ email: 'a@b.com', password: 'a', admin: true }, 'admin: Campo não permitido'],
        [[], 'Corpo inválido: envie um objeto JSON'],
        ['texto', 'Corpo inválido: envie um objeto JSON'],
      ];
      for (const [json, message] of cases) {
        const res = await server().request('/registros/auth/login', { method: 'POST', json });
        expect(res.status).toBe(400);
        const body = await jsonOf<ErrorBody>(res);
        expect(body.code).toBe('BAD_REQUEST');
        expect(body.message).toContain(message);
      }
      const malformed = await server().request('/registros/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email":',
      });
      expect(malformed.status).toBe(400);
      expect((await jsonOf<ErrorBody>(malformed)).message).toBe(
        'Corpo da requisição inválido: JSON malformado',
      );
    });
  });

  describe('refresh', () => {
    it('rotates the refresh token on every use', async () => {
      const first = await login(server(), 'operador@rastro.demo');
      const res = await server().request('/registros/auth/refresh', {
        method: 'POST',
        json: { refreshToken: first.refreshToken },
      });
      expect(res.status).toBe(200);
      const second = await jsonOf<AuthResponse>(res);
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(second.user.email).toBe('operador@rastro.demo');
      const third = await server().request('/registros/auth/refresh', {
        method: 'POST',
        json: { refreshToken: second.refreshToken },
      });
      expect(third.status).toBe(200);
    });

    it('revokes the whole family when a used refresh token comes back after the grace', async () => {
      const first = await login(server(), 'gestor@rastro.demo');
      const rotated = await jsonOf<AuthResponse>(
        await server().request('/registros/auth/refresh', {
          method: 'POST',
          json: { refreshToken: first.refreshToken },
        }),
      );
      // The token was used a minute ago: well past the grace of two tabs refreshing at once.
      await server().deps.database.db.execute(
        sql`update refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null`,
      );
      const replay = await server().request('/registros/auth/refresh', {
        method: 'POST',
        json: { refreshToken: first.refreshToken },
      });
      expect(replay.status).toBe(401);
      expect((await jsonOf<ErrorBody>(replay)).code).toBe('IDENTITY_ERROR');
      const legit = await server().request('/registros/auth/refresh', {
        method: 'POST',
        json: { refreshToken: rotated.refreshToken },
      });
      expect(legit.status).toBe(401);
    });

    it('lets two tabs refresh with the same token at once without signing out', async () => {
      const first = await login(server(), 'cliente@rastro.demo');
      const results = await Promise.all(
        [1, 2].map(() =>
          server().request('/registros/auth/refresh', {
            method: 'POST',
            json: { refreshToken: first.refreshToken },
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      const [a, b] = await Promise.all(results.map((r) => jsonOf<AuthResponse>(r)));
      const tabA = present(a, 'the first tab');
      const tabB = present(b, 'the second tab');
      // Both get the one successor the first of them minted; neither was revoked.
      expect(tabA.refreshToken).toBe(tabB.refreshToken);
      expect(tabA.refreshToken).not.toBe(first.refreshToken);
      for (const next of [tabA, tabB]) {
        const again = await server().request('/registros/auth/refresh', {
          method: 'POST',
          json: { refreshToken: next.refreshToken },
        });
        expect(again.status).toBe(200);
      }
    });

    it('refuses an unknown refresh token', async () => {
      const res = await server().request('/registros/auth/refresh', {
        method: 'POST',
        json: { refreshToken: 'nao-existe' },
      });
      expect(res.status).toBe(401);
    });
  });

  describe('validation', () => {
    it('answers the signed-in user', async () => {
      const { accessToken, user } = await login(server(), 'terceiro@rastro.demo');
      const res = await server().request('/registros/auth/validation', { token: accessToken });
      expect(res.status).toBe(200);
      expect(await jsonOf<SessionUser>(res)).toMatchObject({
        id: user.id,
        sub: user.id,
        clientId: user.clientId,
        role: 'VISITOR',
      });
    });

    it('tells an expired token apart from a bad one', async () => {
      const { user } = await login(server(), 'terceiro@rastro.demo');
      const past = Math.floor(Date.now() / 1000) - 3600;
      const expired = await sign(
        {
          sub: user.id,
          cid: user.clientId,
          role: 'VISITOR',
          typ: 'access',
          iat: past - 900,
          exp: past,
        },
        TEST_SECRET,
        'HS256',
      );
      const res = await server().request('/registros/auth/validation', { token: expired });
      expect(res.status).toBe(401);
      expect(await jsonOf<ErrorBody>(res)).toMatchObject({
        code: 'IDENTITY_ERROR',
        reason: 'TOKEN_EXPIRED',
      });
      const forged = await sign(
        { sub: user.id, typ: 'access', exp: past + 7200 },
        'outro-segredo',
        'HS256',
      );
      const bad = await server().request('/registros/auth/validation', { token: forged });
      expect(bad.status).toBe(401);
      expect((await jsonOf<ErrorBody>(bad)).reason).toBeUndefined();
      const none = await server().request('/registros/auth/validation');
      expect(none.status).toBe(401);
    });
  });

  describe('forgetPassword and activeEmail', () => {
    let before = 0;
    beforeAll(() => {
      before = smtp.inbox.length;
    });

    it('e-mails a recovery link and sets a new password with it, once', async () => {
      const res = await server().request('/registros/auth/forgetPassword', {
        method: 'POST',
        json: { email: 'operador.sul@rastro.demo' },
      });
      expect(res.status).toBe(200);
      expect((await jsonOf<Message>(res)).message).toContain('Se o e-mail estiver cadastrado');
      const mail = await waitForMail(
        smtp.inbox,
        (m) => m.to.includes('operador.sul@rastro.demo'),
        before,
      );
      expect(mail.raw).toContain('http://rastro.test/recover-password?token');
      const token = tokenFromMail(mail, '/recover-password');
      expect(token).toBeDefined();

      const weak = await server().request('/registros/auth/activeEmail', {
        method: 'POST',
        token,
        json: { password: 'curta' },
      });
      expect(weak.status).toBe(400);
      expect((await jsonOf<ErrorBody>(weak)).message).toContain('pelo menos 8 caracteres');

      const set = await server().request('/registros/auth/activeEmail', {
        method: 'POST',
        token,
        json: { password: 'nova-senha-2026' },
      });
      expect(set.status).toBe(200);
      const session = await jsonOf<AuthResponse>(set);
      expect(session.user.email).toBe('operador.sul@rastro.demo');
      expect(session.accessToken).toBeTruthy();

      const again = await server().request('/registros/auth/activeEmail', {
        method: 'POST',
        token,
        json: { password: 'outra-senha-2026' },
      });
      expect(again.status).toBe(401);
      expect((await jsonOf<ErrorBody>(again)).message).toBe(
        'Link inválido ou expirado. Solicite um novo.',
      );

      await login(server(), 'operador.sul@rastro.demo', 'nova-senha-2026');
      const old = await server().request('/registros/auth/login', {
        method: 'POST',
        json: { email: 'operador.sul@rastro.demo', password: 'rastro-demo' },
      });
      expect(old.status).toBe(401);
    });

    it('answers the same for an unknown e-mail and sends nothing', async () => {
      const count = smtp.inbox.length;
      const res = await server().request('/registros/auth/forgetPassword', {
        method: 'POST',
        json: { email: 'desconhecido@rastro.demo' },
      });
      expect(res.status).toBe(200);
      expect((await jsonOf<Message>(res)).message).toContain('Se o e-mail estiver cadastrado');
      expect(smtp.inbox.length).toBe(count);
    });

    it('lets a new user create the first password from the first-access link', async () => {
      const { sendSetPasswordMail } = await import('../../server/accounts/auth/session');
      const { findUserByEmail } = await import('../../server/accounts/queries/users');
      const { users } = await import('../../server/schema');
      const { eq } = await import('drizzle-orm');
      const s = server();
      const { db } = s.deps.database;
      await db
        .update(users)
        .set({ passwordHash: null })
        .where(eq(users.email, 'terceiro@rastro.demo'));
      const user = await findUserByEmail(db, 'terceiro@rastro.demo');
      if (!user) throw new Error('seed user missing');

      const noPassword = await s.request('/registros/auth/login', {
        method: 'POST',
        json: { email: 'terceiro@rastro.demo', password: 'rastro-demo' },
      });
      expect(noPassword.status).toBe(401);

      const link = await sendSetPasswordMail(s.deps, user, 'first_access');
      expect(link).toMatch(/^http:\/\/rastro\.test\/create-password\?token=/);
      const mail = smtp.inbox.at(-1);
      expect(mail?.to).toEqual(['terceiro@rastro.demo']);
      expect(mail?.raw).toContain('crie a sua senha');
      const token = mail ? tokenFromMail(mail, '/create-password') : undefined;
      const res = await s.request('/registros/auth/activeEmail', {
        method: 'POST',
        token,
        json: { password: 'primeira-senha-1' },
      });
      expect(res.status).toBe(200);
      expect((await jsonOf<AuthResponse>(res)).user.email).toBe('terceiro@rastro.demo');
      await login(s, 'terceiro@rastro.demo', 'primeira-senha-1');
    });

    it('refuses activeEmail without a token', async () => {
      const res = await server().request('/registros/auth/activeEmail', {
        method: 'POST',
        json: { password: 'nova-senha-2026' },
      });
      expect(res.status).toBe(401);
    });
  });

  describe('forgetPassword with an SMTP server that refuses or is slow', () => {
    // A real SMTP server whose greeting the test controls: refused, held, or given.
    let mode: 'refuse' | 'hold' | 'open' = 'refuse';
    let held: (() => void)[] = [];
    let gate: Awaited<ReturnType<typeof startSmtp>> | undefined;
    beforeAll(async () => {
      gate = await startSmtp(0, (_session, callback) => {
        if (mode === 'refuse') callback(new Error('Serviço indisponível'));
        else if (mode === 'hold') held.push(() => callback());
        else callback();
      });
    });
    afterAll(() => gate?.close());
    const gated = useServer(backend, () => ({ SMTP_URL: gate?.url ?? '' }));
    const inbox = () => gate?.inbox ?? [];
    const forget = async (email: string) => {
      const res = await gated().request('/registros/auth/forgetPassword', {
        method: 'POST',
        json: { email },
      });
      return { status: res.status, body: await res.text() };
    };

    it('answers an address with an account as it answers one without, whatever the SMTP server does', async () => {
      // Refused: the answer must not turn into an error only for the address that exists.
      mode = 'refuse';
      const unknown = await forget('ninguem@rastro.demo');
      expect(unknown.status).toBe(200);
      expect(await forget('operador.sul@rastro.demo')).toEqual(unknown);

      // Held: the answer comes while the server has not even greeted, so its time says
      // nothing; the message goes out once the server answers.
      mode = 'hold';
      expect(await forget('gestor.sul@rastro.demo')).toEqual(unknown);
      expect(inbox()).toEqual([]);
      await vi.waitFor(() => expect(held.length).toBeGreaterThan(0));
      mode = 'open';
      for (const release of held) release();
      held = [];
      const mail = await waitForMail(inbox(), (m) => m.to.includes('gestor.sul@rastro.demo'));
      expect(tokenFromMail(mail, '/recover-password')).toBeDefined();
    });

    it('makes one recovery link a minute for an address, however quickly it is asked again', async () => {
      mode = 'open';
      const email = 'gestor.norte@rastro.demo';
      for (let i = 0; i < 3; i += 1) expect((await forget(email)).status).toBe(200);
      // Counted where the links are stored, which the request does before it answers.
      const [row] = rowsOf<{ n: number }>(
        await gated().deps.database.db.execute(
          sql`select count(*)::int as n from password_tokens t join users u on u.id = t.user_id
            where u.email = ${email} and t.purpose = 'recovery'`,
        ),
      );
      expect(row?.n).toBe(1);
    });
  });

  describe('push tokens', () => {
    it('registers and removes a token for the signed-in user', async () => {
      const { accessToken } = await login(server(), 'cliente@rastro.demo');
      const sub = await server().request('/registros/push/subscribe-token', {
        method: 'PUT',
        token: accessToken,
        json: { token: 'fcm-token-1' },
      });
      expect(sub.status).toBe(200);
      const { pushTokensOf } = await import('../../server/alerts/queries/push');
      const { user } = await login(server(), 'cliente@rastro.demo');
      expect(await pushTokensOf(server().deps.database.db, user.id)).toEqual(['fcm-token-1']);
      const unsub = await server().request('/registros/push/unsubscribe-token', {
        method: 'PUT',
        token: accessToken,
        json: { token: 'fcm-token-1' },
      });
      expect(unsub.status).toBe(200);
      expect(await pushTokensOf(server().deps.database.db, user.id)).toEqual([]);
    });

    it('needs a signed-in user and a token', async () => {
      const anon = await server().request('/registros/push/subscribe-token', {
        method: 'PUT',
        json: { token: 'x' },
      });
      expect(anon.status).toBe(401);
      const { accessToken } = await login(server(), 'cliente@rastro.demo');
      const empty = await server().request('/registros/push/subscribe-token', {
        method: 'PUT',
        token: accessToken,
        json: { token: '' },
      });
      expect(empty.status).toBe(400);
      // Blanks are no token (they were stored, and 'Notificações ativadas' said).
      const blank = await server().request('/registros/push/subscribe-token', {
        method: 'PUT',
        token: accessToken,
        json: { token: '   ' },
      });
      expect(blank.status).toBe(400);
    });
  });
});
