import { afterAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/contract';
import type { UserPage } from './api-types';
import { as, backends, demoClients, type ErrorBody, login, useServer } from './harness';
import { startSmtp, tokenFromMail } from './smtp';

const smtp = await startSmtp();
afterAll(() => smtp.close());

describe.each(await backends())('users on %s', (backend) => {
  const server = useServer(backend, () => ({ SMTP_URL: smtp.url }));

  it('creates a user who gets a first-access e-mail and sets the password from it', async () => {
    const { north } = await demoClients(server());
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    const res = await manager.call<User>('POST', '/registros/user', {
      name: 'Paula Motorista',
      email: 'Paula@Norte.com.br',
      role: 'CLIENT',
      clientId: north,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: 'paula@norte.com.br',
      role: 'CLIENT',
      active: 1,
      clientId: north,
      companyId: north,
      clientName: 'Transportes Norte',
      passwordSet: false,
    });
    const mail = smtp.inbox.findLast((m) => m.to.includes('paula@norte.com.br'));
    const token = mail ? tokenFromMail(mail, '/create-password') : undefined;
    expect(token).toBeDefined();
    const set = await server().request('/registros/auth/activeEmail', {
      method: 'POST',
      token,
      json: { password: 'senha-da-paula-1' },
    });
    expect(set.status).toBe(200);
    await login(server(), 'paula@norte.com.br', 'senha-da-paula-1');
    const read = await manager.call<User>('GET', `/registros/user/${res.body.id}`);
    expect(read.body.passwordSet).toBe(true);
  });

  it('applies the level rules of SPEC §6 on the server', async () => {
    const { north } = await demoClients(server());
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    const admin = await as(server(), 'admin@rastro.demo');
    const user = (role: string, email: string) => ({
      name: `Teste ${role}`,
      email,
      role,
      clientId: north,
    });

    for (const role of ['VISITOR', 'CLIENT', 'OPERATOR', 'MANAGER']) {
      const res = await manager.call(
        'POST',
        '/registros/user',
        user(role, `${role.toLowerCase()}@nivel.com`),
      );
      expect(res.status, role).toBe(201);
    }
    const refused = await manager.call<ErrorBody>(
      'POST',
      '/registros/user',
      user('ADMINISTRATOR', 'adm@nivel.com'),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Você não pode atribuir o nível Administrador');

    const created = await admin.call<User>(
      'POST',
      '/registros/user',
      user('ADMINISTRATOR', 'adm.norte@nivel.com'),
    );
    expect(created.status).toBe(201);
    const edit = await manager.call<ErrorBody>('PATCH', `/registros/user/${created.body.id}`, {
      name: 'Outro nome',
    });
    expect(edit.status).toBe(403);
    expect(edit.body.message).toBe('Você não pode alterar um usuário de nível Administrador');
    const remove = await manager.call('DELETE', `/registros/user/${created.body.id}`);
    expect(remove.status).toBe(403);

    const operator = await as(server(), 'operador.norte@rastro.demo');
    const noCrud = await operator.call('POST', '/registros/user', user('VISITOR', 'v2@nivel.com'));
    expect(noCrud.status).toBe(403);
    const list = await operator.call('GET', `/registros/user?clientId=${north}`);
    expect(list.status).toBe(403);
    const self = await operator.call('GET', `/registros/user/${operator.user.id}`);
    expect(self.status).toBe(200);
  });

  it('lists the users of the selected customer only, with filters, sorting and paging', async () => {
    const { north, south } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const missing = await admin.call<ErrorBody>('GET', '/registros/user');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Cliente não informado');

    const south1 = await admin.call<UserPage>('GET', `/registros/user?clientId=${south}&sort=name`);
    expect(south1.body.users.map((u) => u.email)).toEqual([
      'operador.sul@rastro.demo',
      'gestor.sul@rastro.demo',
    ]);
    expect(south1.body).toMatchObject({ page: 1, limit: 10, total: 2 });
    const managers = await admin.call<UserPage>(
      'GET',
      `/registros/user?clientId=${north}&role=MANAGER&sort=email&order=desc`,
    );
    expect(managers.body.users.every((u) => u.role === 'MANAGER')).toBe(true);
    const search = await admin.call<UserPage>(
      'GET',
      `/registros/user?clientId=${north}&search=nubia`,
    );
    expect(search.body.users.map((u) => u.email)).toEqual(['gestor.norte@rastro.demo']);
    const paged = await admin.call<UserPage>(
      'GET',
      `/registros/user?clientId=${north}&limit=2&page=2&sort=email`,
    );
    expect(paged.body.users).toHaveLength(2);
    expect(paged.body.page).toBe(2);

    const manager = await as(server(), 'gestor.norte@rastro.demo');
    const other = await manager.call('GET', `/registros/user?clientId=${south}`);
    expect(other.status).toBe(404);
  });

  it('deactivates and reactivates users, revoking their sessions', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const operator = await login(server(), 'operador.sul@rastro.demo');
    const off = await admin.call<User>('PATCH', `/registros/user/${operator.user.id}`, {
      active: 0,
    });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(0);
    const refresh = await server().request('/registros/auth/refresh', {
      method: 'POST',
      json: { refreshToken: operator.refreshToken },
    });
    expect(refresh.status).toBe(401);
    const denied = await server().request('/registros/auth/login', {
      method: 'POST',
      json: { email: 'operador.sul@rastro.demo', password: 'rastro-demo' },
    });
    expect(denied.status).toBe(401);
    const on = await admin.call<User>('PATCH', `/registros/user/${operator.user.id}`, {
      active: true,
    });
    expect(on.body.active).toBe(1);
    await login(server(), 'operador.sul@rastro.demo');
  });

  it('protects a user from changing their own level, status or existence', async () => {
    const manager = await as(server(), 'gestor.sul@rastro.demo');
    const id = manager.user.id;
    expect(
      (await manager.call<ErrorBody>('PATCH', `/registros/user/${id}`, { role: 'OPERATOR' })).body
        .message,
    ).toBe('Você não pode alterar o seu próprio nível');
    expect(
      (await manager.call<ErrorBody>('PATCH', `/registros/user/${id}`, { active: 0 })).body.message,
    ).toBe('Você não pode desativar o seu próprio usuário');
    expect((await manager.call<ErrorBody>('DELETE', `/registros/user/${id}`)).body.message).toBe(
      'Você não pode remover o seu próprio usuário',
    );
    const renamed = await manager.call<User>('PATCH', `/registros/user/${id}`, {
      name: 'Sílvia S.',
    });
    expect(renamed.body.name).toBe('Sílvia S.');
  });

  it('answers bad input with 400 or 409 and stores nothing', async () => {
    const { north } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const before = (
      await admin.call<UserPage>('GET', `/registros/user?clientId=${north}&limit=100`)
    ).body.total;
    const base = { name: 'Fulano', email: 'fulano@teste.com', role: 'CLIENT', clientId: north };
    const cases: [unknown, number, string][] = [
      [{ ...base, role: 'ROOT' }, 400, 'role: Nível de acesso inválido'],
      [{ ...base, email: 'fulano' }, 400, 'email: E-mail inválido'],
      [{ ...base, name: ' ' }, 400, 'name: Campo obrigatório'],
      [{ ...base, senha: '123' }, 400, 'senha: Campo não permitido'],
      [{ ...base, active: 'sim' }, 400, 'active: Status inválido'],
      [{ ...base, clientId: 'x' }, 400, 'clientId: Identificador inválido'],
      [{ ...base, email: 'gestor.norte@rastro.demo' }, 409, 'E-mail já cadastrado'],
    ];
    for (const [json, status, message] of cases) {
      const res = await admin.call<ErrorBody>('POST', '/registros/user', json);
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect(res.body.message).toContain(message);
    }
    expect(
      (await admin.call<UserPage>('GET', `/registros/user?clientId=${north}&limit=100`)).body.total,
    ).toBe(before);
  });

  it('removes a user softly: gone from lists, sessions revoked, e-mail free again', async () => {
    const { north } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const created = await admin.call<User>('POST', '/registros/user', {
      name: 'Temporário',
      email: 'temp@norte.com',
      role: 'VISITOR',
      clientId: north,
    });
    expect((await admin.call('DELETE', `/registros/user/${created.body.id}`)).status).toBe(200);
    expect((await admin.call('GET', `/registros/user/${created.body.id}`)).status).toBe(404);
    const again = await admin.call('POST', '/registros/user', {
      name: 'Temporário 2',
      email: 'temp@norte.com',
      role: 'VISITOR',
      clientId: north,
    });
    expect(again.status).toBe(201);
  });
});
