/**
 * The PWA's API client against the real server over HTTP: an expired access token is
 * renewed once for all the calls that failed together, the calls are sent again, and a
 * failed renewal signs the user out with the spec's message.
 */
import { sign } from 'hono/jwt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/start';
import { startTestServer, TEST_SECRET } from '../server/harness';
import { installStorage } from './memory-storage';

const storage = installStorage();
const { login, validateSession } = await import('../../src/api/auth');
const client = await import('../../src/api/client');
const { session, STORAGE_KEYS } = await import('../../src/api/session');
const { toastQueue } = await import('../../src/ui/feedback/toasts');

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
  client.setApiBase(server.url);
});
afterAll(() => server.close());

beforeEach(() => {
  storage.clear();
  for (const item of toastQueue.visibleToasts) toastQueue.close(item.key);
});

async function expiredTokenFor(user: { id: string; clientId: string; role: string }) {
  const past = Math.floor(Date.now() / 1000) - 60;
  return sign(
    {
      sub: user.id,
      cid: user.clientId,
      role: user.role,
      typ: 'access',
      iat: past - 900,
      exp: past,
    },
    TEST_SECRET,
    'HS256',
  );
}

const titles = () => toastQueue.visibleToasts.map((item) => item.content.title);

describe('API client', () => {
  it('stores the session under the spec keys on sign-in', async () => {
    session.set(await login({ email: 'admin@rastro.demo', password: 'rastro-demo' }));
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toMatch(/\./);
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBeTruthy();
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.authState) ?? '{}').user.email).toBe(
      'admin@rastro.demo',
    );
  });

  it('renews an expired token once for parallel calls and retries them all', async () => {
    const auth = await login({ email: 'gestor@rastro.demo', password: 'rastro-demo' });
    session.set(auth);
    const expired = await expiredTokenFor(auth.user);
    storage.setItem(STORAGE_KEYS.accessToken, expired);

    const users = await Promise.all([
      validateSession(),
      validateSession(),
      validateSession(),
      validateSession(),
    ]);
    expect(users.map((u) => u.email)).toEqual(Array(4).fill('gestor@rastro.demo'));
    expect(
      titles().filter((title) => title === 'Token expirado. Renovando autenticação..'),
    ).toHaveLength(1);
    expect(
      titles().filter((title) => title === 'Autenticado com sucesso. Por favor, aguarde.'),
    ).toHaveLength(1);
    expect(session.accessToken()).not.toBe(expired);
    expect(session.refreshToken()).not.toBe(auth.refreshToken);

    // One refresh happened: the rotated token still works (a second refresh would have
    // presented a used token and revoked the family).
    const res = await client.api.post('registros/auth/refresh', {
      json: { refreshToken: session.refreshToken() },
    });
    expect(res.status).toBe(200);
  });

  it('signs out with the spec message when the refresh fails', async () => {
    const auth = await login({ email: 'operador@rastro.demo', password: 'rastro-demo' });
    session.set(auth);
    storage.setItem(STORAGE_KEYS.accessToken, await expiredTokenFor(auth.user));
    storage.setItem(STORAGE_KEYS.refreshToken, 'revogado');

    await expect(validateSession()).rejects.toThrow();
    expect(titles()).toContain('Erro de autenticação na Api! Faça login novamente.');
    await expect.poll(() => session.get()).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.authState)).toBeNull();
  });

  it('does not try to refresh on a failed sign-in', async () => {
    await expect(login({ email: 'admin@rastro.demo', password: 'errada-123' })).rejects.toThrow();
    expect(titles()).toEqual([]);
  });
});

describe('signOut', () => {
  it('clears the session and unregisters this browser push token on the server', async () => {
    const { pushTokensOf } = await import('../../server/alerts/queries/push');
    const auth = await login({ email: 'cliente@rastro.demo', password: 'rastro-demo' });
    session.set(auth);
    await client.api.put('registros/push/subscribe-token', {
      json: { token: 'fcm-deste-navegador' },
    });
    storage.setItem(STORAGE_KEYS.fcmToken, 'fcm-deste-navegador');
    expect(await pushTokensOf(server.deps.database.db, auth.user.id)).toEqual([
      'fcm-deste-navegador',
    ]);

    await client.signOut({ reload: false });

    expect(await pushTokensOf(server.deps.database.db, auth.user.id)).toEqual([]);
    for (const key of Object.values(STORAGE_KEYS)) expect(storage.getItem(key)).toBeNull();
  });
});
