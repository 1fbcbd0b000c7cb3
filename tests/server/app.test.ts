import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clients, users } from '../../server/schema';
import type { Command, CustomerPage, CustomerRowPage, CustomerTree } from '../../src/contract';
import type { CommandHistory, PositionsReport } from './api-types';
import {
  backends,
  demoClients,
  type ErrorBody,
  jsonOf,
  login,
  present,
  type TestServer,
  useServer,
} from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';

/** What the tests read of the OpenAPI document. */
interface DocSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, DocSchema>;
  required?: string[];
  items?: DocSchema;
}
interface DocOperation {
  requestBody?: unknown;
  responses?: Record<string, { content?: Record<string, { schema?: DocSchema }> }>;
}
interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, DocOperation>>;
  components?: { schemas?: Record<string, DocSchema> };
}

async function openApi(s: TestServer) {
  const res = await s.request('/registros/openapi.json');
  expect(res.status).toBe(200);
  const doc = await jsonOf<OpenApiDoc>(res);
  /** A schema, or the component its `$ref` names (which the document must hold). */
  const resolve = (schema: DocSchema | undefined, what: string): DocSchema => {
    const prefix = '#/components/schemas/';
    if (!schema?.$ref) return present(schema, what);
    expect(schema.$ref.startsWith(prefix), `${what}: ${schema.$ref}`).toBe(true);
    return present(doc.components?.schemas?.[schema.$ref.slice(prefix.length)], schema.$ref);
  };
  return {
    doc,
    resolve,
    /** The documented JSON body of a GET's 200. */
    answer: (path: string) =>
      resolve(
        doc.paths[path]?.get?.responses?.['200']?.content?.['application/json']?.schema,
        path,
      ),
    /** A documented property, resolved. */
    property: (schema: DocSchema, key: string) => resolve(schema.properties?.[key], key),
  };
}

/** The documented fields of an object, sorted, to compare with the keys of a body. */
const fields = (schema: DocSchema) => Object.keys(schema.properties ?? {}).sort();
const keys = (body: object) => Object.keys(body).sort();

describe.each(await backends())('application on %s', (backend) => {
  const server = useServer(backend);

  it('answers the health route with the database kind', async () => {
    const res = await server().request('/health');
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ status: 'ok', database: backend });
  });

  it('serves an OpenAPI document generated from the contract schemas', async () => {
    const { doc } = await openApi(server());
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
    const login = doc.paths['/registros/auth/login']?.post;
    expect(JSON.stringify(login?.requestBody)).toContain('"email"');
  });

  it('documents the answers of the commands, positions and customer routes as they are sent', async () => {
    const s = server();
    const { answer, property, resolve } = await openApi(s);
    const { vehicleId, trackerId, identifier, admin } = await vehicleWithTracker(s);
    const now = Date.now();
    await ingest(s.deps, identifier, [
      { fixTime: new Date(now - 60_000), latitude: -23.55, longitude: -46.63, attributes: {} },
    ]);
    const enabled = await admin.call<Command>('PUT', '/registro/commands/enableDevice', {
      trackerId,
    });
    expect(enabled.status).toBe(200);

    // The command history is a list under `commands`, not one command.
    const history = answer('/registros/commands');
    expect(fields(history)).toEqual(['commands']);
    expect(history.required).toEqual(['commands']);
    const commandList = property(history, 'commands');
    expect(commandList.type).toBe('array');
    const command = resolve(commandList.items, 'commands[]');
    expect(fields(command)).toContain('status');
    const sentHistory = await admin.call<CommandHistory>(
      'GET',
      `/registros/commands?vehicleId=${vehicleId}`,
    );
    expect(keys(sentHistory.body)).toEqual(fields(history));
    expect(keys(present(sentHistory.body.commands[0], 'the command'))).toEqual(fields(command));

    // The positions open with the vehicle and the period.
    const positions = answer('/registros/reports/positions/{vehicleId}');
    expect(fields(positions)).toEqual(
      ['beginAt', 'endAt', 'name', 'plate', 'positions', 'vehicleId'].sort(),
    );
    const row = resolve(property(positions, 'positions').items, 'positions[]');
    const period = new URLSearchParams({
      beginAt: new Date(now - 3_600_000).toISOString(),
      endAt: new Date(now).toISOString(),
    });
    const sentPositions = await admin.call<PositionsReport>(
      'GET',
      `/registros/reports/positions/${vehicleId}?${period}`,
    );
    expect(sentPositions.status).toBe(200);
    expect(keys(sentPositions.body)).toEqual(fields(positions));
    expect(keys(present(sentPositions.body.positions[0], 'the position'))).toEqual(fields(row));

    // A customer, and a mother company, come with `children` at every level: one component
    // whose children are that component again.
    const { mother, north } = await demoClients(s);
    for (const path of ['/registros/client/{id}', '/registros/client/motherCompany/{id}']) {
      const tree = answer(path);
      expect(tree.required).toContain('children');
      const children = property(tree, 'children');
      expect(children.type).toBe('array');
      expect(resolve(children.items, `${path} children[]`)).toBe(tree);
    }
    const tree = answer('/registros/client/{id}');
    for (const id of [mother, north]) {
      for (const route of ['/registros/client', '/registros/client/motherCompany']) {
        const sent = await admin.call<CustomerTree>('GET', `${route}/${id}`);
        expect(sent.status).toBe(200);
        expect(keys(sent.body)).toEqual(fields(tree));
        for (const child of sent.body.children) expect(keys(child)).toEqual(fields(tree));
      }
    }

    // The descendants' page holds plain customers; the list's rows add the mother's name.
    const descendants = answer('/registros/client/motherCompanyPagineted/{id}');
    const plain = resolve(property(descendants, 'clients').items, 'clients[]');
    expect(fields(plain)).not.toContain('motherCompanyName');
    expect(fields(plain)).not.toContain('children');
    const page = await admin.call<CustomerPage>(
      'GET',
      `/registros/client/motherCompanyPagineted/${mother}`,
    );
    expect(keys(page.body)).toEqual(fields(descendants));
    expect(page.body.clients.length).toBeGreaterThan(0);
    for (const client of page.body.clients) expect(keys(client)).toEqual(fields(plain));
    const listRow = resolve(property(answer('/registros/client'), 'clients').items, 'clients[]');
    expect(fields(listRow)).toContain('motherCompanyName');
    const list = await admin.call<CustomerRowPage>('GET', '/registros/client');
    for (const client of list.body.clients) expect(keys(client)).toEqual(fields(listRow));
  });

  it('answers unknown API routes with a JSON 404 under every prefix', async () => {
    for (const path of ['/registros/nada', '/tech-integracao/v1/nada', '/registro/nada']) {
      const res = await server().request(path);
      expect(res.status).toBe(404);
      expect(await jsonOf<ErrorBody>(res)).toMatchObject({
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
    expect((await jsonOf<ErrorBody>(validation)).message).toBe(
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
    expect((await jsonOf<ErrorBody>(again)).message).toBe(
      'Usuário inativo. Procure o administrador da sua empresa.',
    );

    const manager = await login(s, 'gestor.norte@rastro.demo');
    await db.update(clients).set({ active: false }).where(eq(clients.id, manager.user.clientId));
    const locked = await s.request('/registros/auth/validation', { token: manager.accessToken });
    expect(locked.status).toBe(401);
    expect((await jsonOf<ErrorBody>(locked)).message).toBe('Cliente inativo. Procure o suporte.');
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
