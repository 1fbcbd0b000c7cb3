import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clients, users } from '../../server/db/schema';
import { backends, login, useServer } from './harness';

describe.each(await backends())('application on %s', (backend) => {
  const server = useServer(backend);

  it('answers the health route with the database kind', async () => {
    const res = await server().request('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', database: backend });
  });

  it('serves an OpenAPI document generated from the contract schemas', async () => {
    const res = await server().request('/registros/openapi.json');
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/registros/auth/login',
      '/registros/auth/refresh',
      '/registros/auth/validation',
      '/registros/auth/activeEmail',
      '/registros/auth/forgetPassword',
      '/registros/push/subscribe-token',
      '/registros/push/unsubscribe-token',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    const login = doc.paths['/registros/auth/login'].post;
    expect(JSON.stringify(login.requestBody)).toContain('"email"');
  });

  it('answers unknown API routes with a JSON 404 under every prefix', async () => {
    for (const path of ['/registros/nada', '/tech-integracao/v1/nada', '/registro/nada']) {
      const res = await server().request(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({
        code: 'NOT_FOUND',
        message: 'Recurso não encontrado',
      });
    }
  });

  it('refuses an oversized body with 413', async () => {
    const res = await server().request('/registros/auth/login', {
      method: 'POST',
      json: { email: 'a@b.com', password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(res.status).toBe(413);
  });

  it('locks out an inactive user, and the users of an inactive customer, at once', async () => {
    const s = server();
    const { db } = s.deps.database;
    const session = await login(s, 'operador.norte@rastro.demo');
    await db
      .update(users)
      .set({ active: false })
      .where(eq(users.email, 'operador.norte@rastro.demo'));

    const validation = await s.request('/registros/auth/validation', {
      token: session.accessToken,
    });
    expect(validation.status).toBe(401);
    expect((await validation.json()).message).toBe(
      'Usuário inativo. Procure o administrador da sua empresa.',
    );
    const refresh = await s.request('/registros/auth/refresh', {
      method: 'POST',
      json: { refreshToken: session.refreshToken },
    });
    expect(refresh.status).toBe(401);
    const again = await s.request('/registros/auth/login', {
      method: 'POST',
      json: { email: 'operador.norte@rastro.demo', password: 'rastro-demo' },
    });
    expect(again.status).toBe(401);
    expect((await again.json()).message).toBe(
      'Usuário inativo. Procure o administrador da sua empresa.',
    );

    const manager = await login(s, 'gestor.norte@rastro.demo');
    await db.update(clients).set({ active: false }).where(eq(clients.id, manager.user.clientId));
    const locked = await s.request('/registros/auth/validation', { token: manager.accessToken });
    expect(locked.status).toBe(401);
    expect((await locked.json()).message).toBe('Cliente inativo. Procure o suporte.');
  });

  it('keeps one user per e-mail regardless of case', async () => {
    const { db } = server().deps.database;
    const [client] = await db.select().from(clients).limit(1);
    await expect(
      db.insert(users).values({
        clientId: client?.id ?? '',
        email: 'ADMIN@rastro.demo',
        name: 'Outro',
        role: 'CLIENT',
      }),
    ).rejects.toThrow();
  });
});
