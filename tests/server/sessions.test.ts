/**
 * Sessions hold under pressure: sign-in attempts are counted before the password is checked
 * (a hundred at once cannot all be tried), the client address behind a proxy is the hop the
 * client could not forge, logout ends a session and its access tokens, a session has an
 * absolute lifetime, 'Minha conta' changes the password and signs out everywhere, and the
 * live stream ends when its user or token does.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuthResponse, User } from '../../src/contract';
import type { Message } from './api-types';
import {
  as,
  backends,
  type ErrorBody,
  everyBackend,
  jsonOf,
  login,
  type TestServer,
  useServer,
} from './harness';

const wrong = (email: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers,
  json: { email, password: 'senha-errada-1' },
});

async function statuses(responses: Promise<Response>[]) {
  const all = await Promise.all(responses);
  const count = (status: number) => all.filter((r) => r.status === status).length;
  return { ok: count(200), wrong: count(401), blocked: count(429), total: all.length };
}

describe.each(await everyBackend())(
  'sign-in throttling under parallel attempts on %s',
  (backend) => {
    const server = useServer(backend, () => ({
      LOGIN_BLOCK_AFTER: '5',
      LOGIN_ACCOUNT_CEILING: '5',
      LOGIN_ADDRESS_BLOCK_AFTER: '1000',
      LOGIN_MAX_CONCURRENT: '1000',
      TRUST_PROXY: 'true',
    }));
    const attempt = (s: TestServer, email: string, from: string) =>
      s.request('/registros/auth/login', wrong(email, { 'x-forwarded-for': from }));

    it('checks no more than the ceiling of 100 parallel wrong passwords, then blocks the right one', async () => {
      const s = server();
      const email = 'cliente@rastro.demo';
      const result = await statuses(
        Array.from({ length: 100 }, (_, i) => attempt(s, email, `10.0.0.${i}`)),
      );
      expect(result.wrong).toBeLessThanOrEqual(4);
      expect(result.blocked).toBeGreaterThanOrEqual(96);
      const right = await s.request('/registros/auth/login', {
        method: 'POST',
        json: { email, password: 'rastro-demo' },
      });
      expect(right.status).toBe(429);
      // A later failure does not clear the block either.
      expect((await attempt(s, email, '10.0.1.1')).status).toBe(429);
    });

    it('counts the right-most untrusted X-Forwarded-For hop, not the forgeable left-most', async () => {
      const s = server();
      // The client rotates what it writes on the left; the proxy appends the real address.
      const res = await statuses(
        Array.from({ length: 30 }, (_, i) =>
          s.request(
            '/registros/auth/login',
            wrong(`naoexiste${i}@x.com`, {
              'x-forwarded-for': `1.2.3.${i}, 198.51.100.7`,
            }),
          ),
        ),
      );
      expect(res.total).toBe(30);
      const { rows } = (await s.deps.database.db.execute(
        sql`select key, failures from login_throttle where key like 'address:%'`,
      )) as unknown as { rows: { key: string; failures: number }[] };
      const keys = rows.map((r) => r.key);
      expect(keys).toContain('address:198.51.100.7');
      expect(keys.some((key) => key.startsWith('address:1.2.3.'))).toBe(false);
      expect(rows.find((r) => r.key === 'address:198.51.100.7')?.failures).toBe(30);
    });
  },
);

describe.each(await everyBackend())(
  'concurrent sign-in attempts of one account on %s',
  (backend) => {
    const server = useServer(backend, () => ({ LOGIN_BLOCK_AFTER: '50' }));

    it('checks at most LOGIN_MAX_CONCURRENT of them at a time', async () => {
      const s = server();
      const result = await statuses(
        Array.from({ length: 100 }, () =>
          s.request('/registros/auth/login', wrong('gestor@rastro.demo')),
        ),
      );
      // Two at a time are checked; the rest of the burst is refused without a password check.
      expect(result.wrong).toBeLessThan(10);
      expect(result.wrong + result.blocked).toBe(100);
      const res = await s.request('/registros/auth/login', wrong('gestor@rastro.demo'));
      expect(res.status).toBe(401);
    });
  },
);

describe.each(await backends())('sessions on %s', (backend) => {
  const server = useServer(backend, () => ({
    SESSION_MAX_AGE: '3600',
    STREAM_HEARTBEAT_SECONDS: '1',
  }));
  const refresh = (s: TestServer, refreshToken: string) =>
    s.request('/registros/auth/refresh', { method: 'POST', json: { refreshToken } });

  it('ends a session at logout: its refresh token and its access tokens', async () => {
    const s = server();
    const session = await login(s, 'operador@rastro.demo');
    const other = await login(s, 'operador@rastro.demo');
    const res = await s.request('/registros/auth/logout', {
      method: 'POST',
      json: { refreshToken: session.refreshToken },
    });
    expect(res.status).toBe(200);
    expect(await jsonOf<Message>(res)).toEqual({ message: 'Sessão encerrada.' });
    expect((await refresh(s, session.refreshToken)).status).toBe(401);
    const validation = await s.request('/registros/auth/validation', {
      token: session.accessToken,
    });
    expect(validation.status).toBe(401);
    expect(await jsonOf<ErrorBody>(validation)).toMatchObject({ reason: 'SESSION_REVOKED' });
    // Another session of the same user goes on.
    expect((await refresh(s, other.refreshToken)).status).toBe(200);
    // The same answer for a token that never existed.
    const unknown = await s.request('/registros/auth/logout', {
      method: 'POST',
      json: { refreshToken: 'nunca-existiu' },
    });
    expect(await jsonOf<Message>(unknown)).toEqual({ message: 'Sessão encerrada.' });
  });

  it('ends a session at its absolute lifetime, however often it was refreshed', async () => {
    const s = server();
    const session = await login(s, 'gestor.sul@rastro.demo');
    const renewed = await jsonOf<AuthResponse>(await refresh(s, session.refreshToken));
    await s.deps.database.db.execute(
      sql`update refresh_tokens set session_started_at = now() - interval '2 hours'`,
    );
    const late = await refresh(s, renewed.refreshToken);
    expect(late.status).toBe(401);
    expect(await jsonOf<ErrorBody>(late)).toMatchObject({ reason: 'REFRESH_EXPIRED' });
  });

  it('changes the password with the current one and ends the other sessions', async () => {
    const s = server();
    const email = 'operador.sul@rastro.demo';
    const here = await login(s, email);
    const elsewhere = await login(s, email);
    const change = (body: unknown) =>
      s.request('/registros/auth/password', { method: 'PUT', token: here.accessToken, json: body });
    const bad = await change({ currentPassword: 'errada-123', newPassword: 'NovaSenha123' });
    expect(bad.status).toBe(400);
    expect(await jsonOf<ErrorBody>(bad)).toMatchObject({
      message: 'Senha atual incorreta',
      issues: [{ path: 'currentPassword', message: 'Senha atual incorreta' }],
    });
    const weak = await change({ currentPassword: 'rastro-demo', newPassword: 'curta' });
    expect((await jsonOf<ErrorBody>(weak)).message).toBe(
      'Requisição inválida: newPassword: A senha deve ter pelo menos 8 caracteres',
    );
    const same = await change({ currentPassword: 'Igual1234', newPassword: 'Igual1234' });
    expect((await jsonOf<ErrorBody>(same)).message).toMatch(
      /A nova senha deve ser diferente da atual/,
    );
    const noAuth = await s.request('/registros/auth/password', {
      method: 'PUT',
      json: { currentPassword: 'rastro-demo', newPassword: 'NovaSenha123' },
    });
    expect(noAuth.status).toBe(401);

    const ok = await change({ currentPassword: 'rastro-demo', newPassword: 'NovaSenha123' });
    expect(ok.status).toBe(200);
    expect(await jsonOf<Message>(ok)).toEqual({
      message: 'Senha alterada. As outras sessões foram encerradas.',
    });
    expect((await refresh(s, elsewhere.refreshToken)).status).toBe(401);
    expect(
      (await s.request('/registros/auth/validation', { token: elsewhere.accessToken })).status,
    ).toBe(401);
    // This session goes on; the old password no longer signs in, the new one does.
    expect(
      (await s.request('/registros/auth/validation', { token: here.accessToken })).status,
    ).toBe(200);
    expect((await refresh(s, here.refreshToken)).status).toBe(200);
    const old = await s.request('/registros/auth/login', {
      method: 'POST',
      json: { email, password: 'rastro-demo' },
    });
    expect(old.status).toBe(401);
    await login(s, email, 'NovaSenha123');
  });

  it('signs out of every session of the user', async () => {
    const s = server();
    const email = 'gestor.norte@rastro.demo';
    const a = await login(s, email);
    const b = await login(s, email);
    const someoneElse = await login(s, 'admin@rastro.demo');
    const res = await s.request('/registros/auth/logout-all', {
      method: 'POST',
      token: a.accessToken,
    });
    expect(res.status).toBe(200);
    expect(await jsonOf<Message>(res)).toEqual({ message: 'Todas as sessões foram encerradas.' });
    for (const session of [a, b]) {
      expect((await refresh(s, session.refreshToken)).status).toBe(401);
      expect(
        (await s.request('/registros/auth/validation', { token: session.accessToken })).status,
      ).toBe(401);
    }
    expect(
      (await s.request('/registros/auth/validation', { token: someoneElse.accessToken })).status,
    ).toBe(200);
  });

  it('closes the live stream when the user is deactivated', async () => {
    const s = server();
    const admin = await as(s, 'admin@rastro.demo');
    const created = await admin.call<User>('POST', '/registros/user', {
      name: 'Vigia',
      email: 'vigia@rastro.test',
      role: 'CLIENT',
      clientId: admin.user.clientId,
    });
    const { findUserByEmail, setUserPassword } = await import(
      '../../server/accounts/queries/users'
    );
    const { hashPassword } = await import('../../server/accounts/auth/passwords');
    const user = await findUserByEmail(s.deps.database.db, 'vigia@rastro.test');
    await setUserPassword(s.deps.database.db, user?.id ?? '', await hashPassword('Vigia12345'));
    const watcher = await login(s, 'vigia@rastro.test', 'Vigia12345');
    const res = await s.request('/registros/real-time/stream', { token: watcher.accessToken });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) return true;
        text += decoder.decode(value);
      }
      return false;
    };
    await readUntil(/event: ready/);
    expect(
      (await admin.call('PATCH', `/registros/user/${created.body.id}`, { active: false })).status,
    ).toBe(200);
    // At the next heartbeat the stream says why and ends.
    await readUntil(/event: end/);
    expect(text).toMatch(/event: end\ndata: \{"reason":"USER_INACTIVE"/);
    expect(await readUntil(/never/)).toBe(true);
  });

  it('refuses a malformed resume point with a 400', async () => {
    const s = server();
    const admin = await login(s, 'admin@rastro.demo');
    for (const since of ['0000-01-01T00:00:00Z', '2024-02-30T10:00:00Z', 'ontem']) {
      const res = await s.request(
        `/registros/real-time/stream?since=${encodeURIComponent(since)}`,
        { token: admin.accessToken },
      );
      expect(res.status, since).toBe(400);
      expect((await jsonOf<ErrorBody>(res)).code).toBe('BAD_REQUEST');
    }
    const header = await s.request('/registros/real-time/stream', {
      token: admin.accessToken,
      headers: { 'last-event-id': '2024-01-01T00:00:00Z' },
    });
    expect(header.status).toBe(400);
    expect((await jsonOf<ErrorBody>(header)).message).toBe(
      'Last-Event-ID inválido: use o id de um evento recebido',
    );
  });
});
