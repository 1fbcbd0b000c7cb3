/**
 * The tenancy matrix: users of every role in one child company try every route the server
 * has on the resources of its sibling company, and must get "not found" or "forbidden",
 * never data. A route added to the server without a line here fails the last test.
 */
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords';
import { findUserByEmail, setUserPassword } from '../../server/db/users';
import { ROLES, type Role } from '../../src/contract';
import { as, backends, demoClients, type TestServer, useServer } from './harness';

interface Target {
  client: string;
  user: string;
}
type Attempt = (other: Target, own: Target) => { path: string; body?: unknown };
type Case =
  | { exempt: string }
  | { attempt: Attempt; list?: (body: unknown, other: Target) => void };

const someCustomer = (motherCompanyId: string) => ({
  personKind: 'juridical',
  name: 'Intrusa',
  clientCNPJ: '45.997.418/0001-53',
  motherCompanyId,
});

/** Every route of the API. Exempt routes carry no customer data or only the caller's own. */
const ROUTES: Record<string, Case> = {
  'GET /health': { exempt: 'saúde do servidor, sem dados' },
  'GET /registros/openapi.json': { exempt: 'documentação pública' },
  'POST /registros/auth/login': { exempt: 'público: entrada' },
  'POST /registros/auth/refresh': { exempt: 'público: o refresh token identifica a sessão' },
  'GET /registros/auth/validation': { exempt: 'só os dados do próprio usuário' },
  'POST /registros/auth/activeEmail': { exempt: 'público: token de uso único' },
  'POST /registros/auth/forgetPassword': { exempt: 'público, mesma resposta para qualquer e-mail' },
  'PUT /registros/push/subscribe-token': { exempt: 'token do próprio navegador' },
  'PUT /registros/push/unsubscribe-token': { exempt: 'remove só tokens do próprio usuário' },
  'GET /registros/autocomplete/cep/:cep': { exempt: 'endereço público, sem dados de cliente' },
  'GET /registros/client': {
    attempt: () => ({ path: '/registros/client?limit=1000' }),
    list: (body, other) => {
      const ids = (body as { clients: { id: string }[] }).clients.map((c) => c.id);
      expect(ids).not.toContain(other.client);
    },
  },
  'POST /registros/client': {
    attempt: (o) => ({ path: '/registros/client', body: someCustomer(o.client) }),
  },
  'GET /registros/client/:id': { attempt: (o) => ({ path: `/registros/client/${o.client}` }) },
  'PATCH /registros/client/:id': {
    attempt: (o) => ({ path: `/registros/client/${o.client}`, body: { name: 'Invadida' } }),
  },
  'DELETE /registros/client/:id': { attempt: (o) => ({ path: `/registros/client/${o.client}` }) },
  'GET /registros/client/motherCompany/:id': {
    attempt: (o) => ({ path: `/registros/client/motherCompany/${o.client}` }),
  },
  'GET /registros/client/motherCompanyPagineted/:id': {
    attempt: (o) => ({ path: `/registros/client/motherCompanyPagineted/${o.client}` }),
  },
  'POST /registros/user': {
    attempt: (o) => ({
      path: '/registros/user',
      body: { name: 'Intruso', email: 'intruso@x.com', role: 'VISITOR', clientId: o.client },
    }),
  },
  'GET /registros/user': { attempt: (o) => ({ path: `/registros/user?clientId=${o.client}` }) },
  'GET /registros/user/:id': { attempt: (o) => ({ path: `/registros/user/${o.user}` }) },
  'PATCH /registros/user/:id': {
    attempt: (o) => ({ path: `/registros/user/${o.user}`, body: { name: 'Invadido' } }),
  },
  'DELETE /registros/user/:id': { attempt: (o) => ({ path: `/registros/user/${o.user}` }) },
};

const API = /^\/(registros|tech-integracao|registro)(\/|$)|^\/health$/;

function serverRoutes(s: TestServer): string[] {
  const keys = s.app.routes
    .filter((r) => r.method !== 'ALL' && API.test(r.path) && !r.path.endsWith('/*'))
    .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`);
  return [...new Set(keys)].sort();
}

/** Users of every role in both sibling companies, each with the demo password. */
async function staff(s: TestServer, north: string, south: string) {
  const admin = await as(s, 'admin@rastro.demo');
  const hash = await hashPassword('rastro-demo');
  const accounts: Record<'north' | 'south', Partial<Record<Role, string>>> = {
    north: {},
    south: {},
  };
  for (const [side, clientId] of [
    ['north', north],
    ['south', south],
  ] as const) {
    for (const role of ROLES) {
      const email = `${role.toLowerCase()}.${side}@matriz.test`;
      const res = await admin.call('POST', '/registros/user', {
        name: `${role} ${side}`,
        email,
        role,
        clientId,
      });
      expect(res.status).toBe(201);
      const user = await findUserByEmail(s.deps.database.db, email);
      if (!user) throw new Error('user missing');
      await setUserPassword(s.deps.database.db, user.id, hash);
      accounts[side][role] = email;
    }
  }
  return accounts;
}

describe.each(await backends())('tenancy matrix on %s', (backend) => {
  const server = useServer(backend);

  it('keeps every role of each sibling company out of the other', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const accounts = await staff(s, north, south);
    const targets = {
      north: {
        client: north,
        user: (await findUserByEmail(s.deps.database.db, 'gestor.norte@rastro.demo'))?.id ?? '',
      },
      south: {
        client: south,
        user: (await findUserByEmail(s.deps.database.db, 'gestor.sul@rastro.demo'))?.id ?? '',
      },
    };
    let tried = 0;
    for (const [side, otherSide] of [
      ['north', 'south'],
      ['south', 'north'],
    ] as const) {
      for (const role of ROLES) {
        const actor = await as(s, accounts[side][role] ?? '');
        for (const [key, test] of Object.entries(ROUTES)) {
          if ('exempt' in test) continue;
          const [method = 'GET'] = key.split(' ');
          const { path, body } = test.attempt(targets[otherSide], targets[side]);
          const res = await actor.call(method, path, body);
          const label = `${role} de ${side} → ${key}`;
          if (test.list && res.status === 200) test.list(res.body, targets[otherSide]);
          else
            expect([403, 404], `${label}: ${res.status} ${JSON.stringify(res.body)}`).toContain(
              res.status,
            );
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(100);
    // Nothing of the other company changed.
    const admin = await as(s, 'admin@rastro.demo');
    const southNow = await admin.call('GET', `/registros/client/${south}`);
    expect(southNow.body.name).toBe('Logística Sul');
    const intruders = await admin.call('GET', '/registros/client?search=Intrusa');
    expect(intruders.body.total).toBe(0);
  });

  it('covers every route the server has', () => {
    const covered = Object.keys(ROUTES).sort();
    expect(serverRoutes(server())).toEqual(covered);
  });
});
