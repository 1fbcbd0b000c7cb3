import { describe, expect, it } from 'vitest';
import type { Customer, CustomerPage, CustomerRowPage } from '../../src/contract';
import { as, backends, demoClients, type ErrorBody, useServer } from './harness';

const company = (name: string, cnpj: string, extra: Record<string, unknown> = {}) => ({
  personKind: 'juridical',
  name,
  clientCNPJ: cnpj,
  ...extra,
});

describe.each(await backends())('customers on %s', (backend) => {
  const server = useServer(backend);

  it('lists the visible customers with paging, search and sorting (default page 1 of 10)', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const all = await admin.call<CustomerRowPage>('GET', '/registros/client');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 10, total: 3 });
    expect(all.body.clients.map((c) => c.name)).toEqual([
      'Logística Sul',
      'Rastro Demonstração',
      'Transportes Norte',
    ]);
    const desc = await admin.call<CustomerRowPage>(
      'GET',
      '/registros/client?sort=name&order=desc&limit=2&page=1',
    );
    expect(desc.body.clients.map((c) => c.name)).toEqual([
      'Transportes Norte',
      'Rastro Demonstração',
    ]);
    expect(desc.body.total).toBe(3);
    const search = await admin.call<CustomerRowPage>('GET', '/registros/client?search=logis');
    expect(search.body.clients.map((c) => c.name)).toEqual(['Logística Sul']);
    const byDocument = await admin.call<CustomerRowPage>(
      'GET',
      '/registros/client?search=58.304.127',
    );
    expect(byDocument.body.clients.map((c) => c.name)).toEqual(['Transportes Norte']);
  });

  it('creates customers with CPF or alphanumeric CNPJ, unmasked, under a visible mother', async () => {
    const { north } = await demoClients(server());
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    const created = await manager.call<Customer>(
      'POST',
      '/registros/client',
      company('Filial Belém', '12.ABC.345/01DE-35', {
        phone: '(91) 3222-1111',
        email: 'belem@norte.com.br',
        address: { cep: '66010-000', street: 'Av. Presidente Vargas', city: 'Belém', state: 'PA' },
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Filial Belém',
      clientCNPJ: '12ABC34501DE35',
      clientCPF: null,
      phone: '9132221111',
      motherCompanyId: north,
      address: { cep: '66010000', city: 'Belém', state: 'PA' },
      active: true,
    });
    const person = await manager.call('POST', '/registros/client', {
      personKind: 'fisical',
      name: 'José da Silva',
      clientCPF: '529.982.247-25',
      motherCompanyId: created.body.id,
    });
    expect(person.status).toBe(201);
    expect(person.body).toMatchObject({
      clientCPF: '52998224725',
      clientCNPJ: null,
      motherCompanyId: created.body.id,
    });

    const tree = await manager.call<Customer>('GET', `/registros/client/motherCompany/${north}`);
    expect(tree.body.children?.[0]).toMatchObject({
      name: 'Filial Belém',
      children: [{ name: 'José da Silva', children: [] }],
    });
    const paged = await manager.call<CustomerPage>(
      'GET',
      `/registros/client/motherCompanyPagineted/${north}?limit=1&page=2`,
    );
    expect(paged.body).toMatchObject({ page: 2, limit: 1, total: 2 });
    expect(paged.body.clients.map((c) => c.name)).toEqual(['José da Silva']);
  });

  it('answers bad input with 400 and stores nothing', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const before = (await admin.call<CustomerRowPage>('GET', '/registros/client?limit=100')).body
      .total;
    const cases: [unknown, string][] = [
      [company('X', '11.222.333/0001-82'), 'clientCNPJ: CNPJ inválido'],
      [
        { personKind: 'fisical', name: 'X', clientCPF: '111.111.111-11' },
        'clientCPF: CPF inválido',
      ],
      [{ personKind: 'fisical', name: 'X' }, 'clientCPF: Informe o CPF'],
      // One document is kept: the other kind's was dropped without a word.
      [
        {
          personKind: 'fisical',
          name: 'X',
          clientCPF: '529.982.247-25',
          clientCNPJ: '11.222.333/0001-81',
        },
        'clientCNPJ: Pessoa física tem CPF, não CNPJ',
      ],
      [
        company('X', '11.222.333/0001-81', { clientCPF: '529.982.247-25' }),
        'clientCPF: Pessoa jurídica tem CNPJ, não CPF',
      ],
      [{ personKind: 'empresa', name: 'X' }, 'personKind: Tipo de pessoa inválido'],
      [company('', '11.222.333/0001-81'), 'name: Campo obrigatório'],
      [company('X', '11.222.333/0001-81', { email: 'nao-e-email' }), 'email: E-mail inválido'],
      [company('X', '11.222.333/0001-81', { phone: '123' }), 'phone: Telefone inválido'],
      [
        company('X', '11.222.333/0001-81', { address: { state: 'XX' } }),
        'address.state: UF inválida',
      ],
      [
        company('X', '11.222.333/0001-81', { address: { cep: '123' } }),
        'address.cep: CEP inválido',
      ],
      [company('X', '11.222.333/0001-81', { plano: 'ouro' }), 'plano: Campo não permitido'],
      [company('X', '11.222.333/0001-81', { active: 'sim' }), 'active: Tipo inválido'],
      [
        company('X', '11.222.333/0001-81', { motherCompanyId: 'abc' }),
        'motherCompanyId: Identificador inválido',
      ],
    ];
    for (const [json, message] of cases) {
      const res = await admin.call<ErrorBody>('POST', '/registros/client', json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const bad = await admin.call('GET', '/registros/client?page=0');
    expect(bad.status).toBe(400);
    const badSort = await admin.call<ErrorBody>('GET', '/registros/client?sort=senha');
    expect(badSort.body.message).toContain('Ordenação inválida');
    expect(
      (await admin.call<CustomerRowPage>('GET', '/registros/client?limit=100')).body.total,
    ).toBe(before);
  });

  it('refuses a list where an object goes (the address, the whole body) and changes nothing', async () => {
    const { north } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const read = async () => (await admin.call<Customer>('GET', `/registros/client/${north}`)).body;
    const before = await read();
    const total = async () =>
      (await admin.call<CustomerRowPage>('GET', '/registros/client?limit=100')).body.total;
    const count = await total();
    const created = await admin.call<ErrorBody>(
      'POST',
      '/registros/client',
      company('Lista', '11.222.333/0001-81', { address: [] }),
    );
    expect([created.status, created.body.message]).toEqual([
      400,
      'Requisição inválida: address: Tipo inválido: esperado objeto',
    ]);
    const patched = await admin.call<ErrorBody>('PATCH', `/registros/client/${north}`, {
      name: 'Nome trocado por engano',
      address: [{ city: 'Manaus' }],
    });
    expect(patched.status).toBe(400);
    expect(patched.body.issues).toEqual([
      { path: 'address', message: 'Tipo inválido: esperado objeto' },
    ]);
    const whole = await admin.call<ErrorBody>('PATCH', `/registros/client/${north}`, []);
    expect(whole.status).toBe(400);
    expect(whole.body.message).toMatch(/^(Corpo|Requisição) inválid[ao]: /);
    expect(await read()).toEqual(before);
    expect(await total()).toBe(count);
  });

  it('refuses a document already in use', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const res = await admin.call<ErrorBody>(
      'POST',
      '/registros/client',
      company('Cópia', '58.304.127/0001-84'),
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Já existe um cliente com este CPF/CNPJ');
  });

  it('updates with the whole result checked, and never under itself', async () => {
    const { north, south } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const renamed = await admin.call('PATCH', `/registros/client/${south}`, {
      name: 'Logística Sul Ltda',
      supportEmail: 'sac@sul.com.br',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Logística Sul Ltda',
      supportEmail: 'sac@sul.com.br',
      clientCNPJ: '69120534000158',
    });
    const toPerson = await admin.call<ErrorBody>('PATCH', `/registros/client/${south}`, {
      personKind: 'fisical',
    });
    expect(toPerson.status).toBe(400);
    expect(toPerson.body.message).toContain('Informe o CPF');
    const withCpf = await admin.call<ErrorBody>('PATCH', `/registros/client/${south}`, {
      clientCPF: '529.982.247-25',
    });
    expect([withCpf.status, withCpf.body.message]).toEqual([
      400,
      'Requisição inválida: clientCPF: Pessoa jurídica tem CNPJ, não CPF',
    ]);
    // A change of kind with the new kind's document: the old one goes.
    const person = await admin.call<Customer>('PATCH', `/registros/client/${south}`, {
      personKind: 'fisical',
      clientCPF: '987.654.321-00',
    });
    expect(person.status).toBe(200);
    expect([person.body.clientCPF, person.body.clientCNPJ]).toEqual(['98765432100', null]);
    const juridical = await admin.call<Customer>('PATCH', `/registros/client/${south}`, {
      personKind: 'juridical',
      clientCNPJ: '69.120.534/0001-58',
    });
    expect([juridical.status, juridical.body.clientCNPJ, juridical.body.clientCPF]).toEqual([
      200,
      '69120534000158',
      null,
    ]);
    const moved = await admin.call<Customer>('PATCH', `/registros/client/${south}`, {
      motherCompanyId: north,
    });
    expect(moved.body.motherCompanyId).toBe(north);
    const cycle = await admin.call<ErrorBody>('PATCH', `/registros/client/${north}`, {
      motherCompanyId: south,
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.message).toBe(
      'Um cliente não pode ficar abaixo de si mesmo ou de um descendente',
    );
    const { mother } = await demoClients(server());
    await admin.call('PATCH', `/registros/client/${south}`, { motherCompanyId: mother });
    const own = await admin.call<ErrorBody>('PATCH', `/registros/client/${mother}`, {
      active: false,
    });
    expect(own.body.message).toBe('Você não pode desativar a sua própria empresa');
  });

  it('soft-cancels, refusing while live children remain and never the own company', async () => {
    const { north, mother } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const parent = await admin.call<Customer>(
      'POST',
      '/registros/client',
      company('Matriz Temporária', '11.222.333/0001-81'),
    );
    const child = await admin.call<Customer>('POST', '/registros/client', {
      personKind: 'fisical',
      name: 'Filho Temporário',
      clientCPF: '111.444.777-35',
      motherCompanyId: parent.body.id,
    });
    const refused = await admin.call<ErrorBody>('DELETE', `/registros/client/${parent.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Este cliente tem 1 cliente filho ativo. Remova ou mova os filhos antes.',
    );
    expect((await admin.call('DELETE', `/registros/client/${child.body.id}`)).status).toBe(200);
    expect((await admin.call('DELETE', `/registros/client/${parent.body.id}`)).status).toBe(200);
    expect((await admin.call('GET', `/registros/client/${parent.body.id}`)).status).toBe(404);
    // The document is free again after a cancel.
    expect(
      (await admin.call('POST', '/registros/client', company('Nova Matriz', '11.222.333/0001-81')))
        .status,
    ).toBe(201);
    expect(
      (await admin.call<ErrorBody>('DELETE', `/registros/client/${mother}`)).body.message,
    ).toBe('Você não pode remover a sua própria empresa');
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    expect((await manager.call('DELETE', `/registros/client/${north}`)).status).toBe(400);
  });

  it('keeps writes to those with CrudCompany', async () => {
    const { north } = await demoClients(server());
    for (const email of [
      'operador.norte@rastro.demo',
      'cliente@rastro.demo',
      'terceiro@rastro.demo',
    ]) {
      const user = await as(server(), email);
      const res = await user.call<ErrorBody>(
        'POST',
        '/registros/client',
        company('Não pode', '45.997.418/0001-53', { motherCompanyId: north }),
      );
      expect(res.status, email).toBe(403);
      expect(res.body.message).toBe('Acesso negado');
    }
    const visitor = await as(server(), 'terceiro@rastro.demo');
    const list = await visitor.call<CustomerRowPage>('GET', '/registros/client');
    expect(list.body.clients.map((c) => c.name)).toEqual(['Rastro Demonstração']);
  });
});
