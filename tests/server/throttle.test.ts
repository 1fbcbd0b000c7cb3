import { describe, expect, it } from 'vitest';
import { backends, type ErrorBody, jsonOf, login, type TestServer, useServer } from './harness';

const wrong = (email: string) => ({ method: 'POST', json: { email, password: 'senha-errada-1' } });

describe.each(await backends())('login throttling on %s', (backend) => {
  const server = useServer(backend, () => ({
    LOGIN_SLOWDOWN_AFTER: '2',
    LOGIN_SLOWDOWN_MS: '60',
    LOGIN_BLOCK_AFTER: '4',
    LOGIN_ADDRESS_BLOCK_AFTER: '7',
    LOGIN_BLOCK_MINUTES: '15',
  }));

  it('slows repeated failures down, then blocks the address for the account even for the right password', async () => {
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

const byAddress =
  (server: () => TestServer) => (address: string, email: string, password: string) =>
    server().request('/registros/auth/login', {
      method: 'POST',
      headers: { 'x-forwarded-for': address },
      json: { email, password },
    });

describe.each(await backends())('login throttling by address and account on %s', (backend) => {
  const server = useServer(backend, () => ({
    TRUST_PROXY: 'true',
    LOGIN_SLOWDOWN_AFTER: '3',
    LOGIN_SLOWDOWN_MS: '5',
    LOGIN_BLOCK_AFTER: '10',
    LOGIN_ADDRESS_BLOCK_AFTER: '1000',
  }));
  const from = byAddress(server);

  it('blocks the guessing address for the account, never the owner elsewhere, and slows everyone', async () => {
    const email = 'admin@rastro.demo';
    const attacker = '203.0.113.9';
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await from(attacker, email, 'chute-1234')).status);
    expect(answers.slice(0, 9).every((status) => status === 401)).toBe(true);
    expect(answers[9]).toBe(429);
    expect((await from(attacker, email, 'rastro-demo')).status).toBe(429);
    // The same address may still sign in to other accounts.
    expect((await from(attacker, 'gestor@rastro.demo', 'rastro-demo')).status).toBe(200);
    // The owner, from another address, signs in; the account's failures slow it down.
    const started = performance.now();
    expect((await from('198.51.100.20', email, 'rastro-demo')).status).toBe(200);
    // Ten failures before it: 5 ms doubled seven times.
    expect(performance.now() - started).toBeGreaterThanOrEqual(600);
  });
});

describe.each(await backends())('login throttling ceiling of an account on %s', (backend) => {
  const server = useServer(backend, () => ({
    TRUST_PROXY: 'true',
    LOGIN_SLOWDOWN_AFTER: '1000',
    LOGIN_BLOCK_AFTER: '10',
    LOGIN_ACCOUNT_CEILING: '25',
    LOGIN_ADDRESS_BLOCK_AFTER: '1000',
  }));
  const from = byAddress(server);

  it('stops a guess spread over many addresses at the ceiling, except from known addresses', async () => {
    const email = 'gestor.sul@rastro.demo';
    const home = '198.51.100.30';
    expect((await from(home, email, 'rastro-demo')).status).toBe(200);
    await server().deps.database.db.execute(
      `update login_throttle set failures = 20 where key = 'account:${email}'`,
    );
    const answers: number[] = [];
    for (let i = 0; i < 6; i++)
      answers.push((await from(`192.0.2.${i + 1}`, email, 'chute-1234')).status);
    expect(answers).toContain(429);
    // A new address is refused even with the right password; the owner's usual one is not.
    expect((await from('192.0.2.200', email, 'rastro-demo')).status).toBe(429);
    expect((await from(home, email, 'rastro-demo')).status).toBe(200);
  });
});
