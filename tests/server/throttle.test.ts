import { describe, expect, it } from 'vitest';
import { backends, type ErrorBody, jsonOf, login, useServer } from './harness';

const wrong = (email: string) => ({ method: 'POST', json: { email, password: 'senha-errada-1' } });

describe.each(await backends())('login throttling on %s', (backend) => {
  const server = useServer(backend, () => ({
    LOGIN_SLOWDOWN_AFTER: '2',
    LOGIN_SLOWDOWN_MS: '60',
    LOGIN_BLOCK_AFTER: '4',
    LOGIN_ADDRESS_BLOCK_AFTER: '7',
    LOGIN_BLOCK_MINUTES: '15',
  }));

  it('slows repeated failures down, then blocks the account even for the right password', async () => {
    const email = 'cliente@rastro.demo';
    expect((await server().request('/registros/auth/login', wrong(email))).status).toBe(401);
    expect((await server().request('/registros/auth/login', wrong(email))).status).toBe(401);
    const started = performance.now();
    expect((await server().request('/registros/auth/login', wrong(email))).status).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);

    const blocked = await server().request('/registros/auth/login', wrong(email));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await jsonOf<ErrorBody>(blocked)).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      message: 'Muitas tentativas de acesso sem sucesso. Tente novamente em 15 minutos.',
    });
    const right = await server().request('/registros/auth/login', {
      method: 'POST',
      json: { email, password: 'rastro-demo' },
    });
    expect(right.status).toBe(429);
  });

  it('counts per address too, across accounts', async () => {
    // The address already has 4 failures from the previous test; 3 more on other accounts block it.
    expect(
      (await server().request('/registros/auth/login', wrong('gestor@rastro.demo'))).status,
    ).toBe(401);
    expect(
      (await server().request('/registros/auth/login', wrong('operador@rastro.demo'))).status,
    ).toBe(401);
    expect(
      (await server().request('/registros/auth/login', wrong('terceiro@rastro.demo'))).status,
    ).toBe(429);
    const other = await server().request('/registros/auth/login', {
      method: 'POST',
      json: { email: 'admin@rastro.demo', password: 'rastro-demo' },
    });
    expect(other.status).toBe(429);
  });

  it('resets the account counter after a successful sign-in', async () => {
    const s = server();
    await s.deps.database.db.execute('delete from login_throttle');
    const email = 'gestor.norte@rastro.demo';
    await s.request('/registros/auth/login', wrong(email));
    await login(s, email);
    for (let i = 0; i < 3; i++) {
      expect((await s.request('/registros/auth/login', wrong(email))).status).toBe(401);
    }
  });
});
