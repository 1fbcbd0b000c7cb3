/**
 * The permanent fuzz walk: every route of the OpenAPI document (`/registros/openapi.json`)
 * is sent malformed path ids, queries and bodies — wrong types, NUL, huge and deeply nested
 * values, unknown fields, impossible dates, another content type — signed in as an
 * administrator (who may call everything). No answer may be a 5xx; every error is the pt-BR
 * body `{ statusCode, code, message }`; a malformed body is always refused; and nothing is
 * stored (the row count of every table is the same before and after).
 *
 * The walk fails when the application has a route that it does not cover: Hono's own route
 * list is compared with the document, so a route missing from the document fails too.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/platform/db/client';
import {
  type Driver,
  type DriverLinkCreated,
  type DriverSession,
  ERROR_CODES,
} from '../../src/contract';
import { inParallel } from '../../src/lib/in-parallel';
import { as, backends, jsonOf, login, type TestServer, useServer } from './harness';

const FLESPI_SECRET = 'segredo-do-fuzz-0123456789';
/** Calls of the walk in flight at once. */
const IN_FLIGHT = 8;

interface JsonSchema {
  type?: string | string[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  enum?: unknown[];
  minimum?: number;
}
interface Operation {
  parameters?: { in: 'path' | 'query'; name: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
type Doc = { paths: Record<string, Record<string, Operation>> };

interface Case {
  label: string;
  path: string;
  query?: string;
  body?: string;
  contentType?: string;
  /** Only a 4xx will do (a malformed body of a route that declares one). */
  mustRefuse?: boolean;
}

const NUL = '\u0000';
const HUGE = 'x'.repeat(200_000);
const DEEP = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
// The last is in year 9999 as written and year 10000 in UTC, which the database refuses.
const IMPOSSIBLE_DATES = [
  '0000-01-01T00:00:00Z',
  '2024-02-30T10:00:00Z',
  '2024-13-01',
  '9999-12-31T23:00:00-05:00',
];
/** Values of a path parameter that no route can take. */
const BAD_PATH_VALUES = [
  'abc',
  '%00',
  `${'f'.repeat(600)}`,
  '-1',
  '1e309',
  '%E0%A4%A',
  '..%2F..%2Fetc',
  encodeURIComponent(IMPOSSIBLE_DATES[0] as string),
];
/** Values of a query parameter: wrong types, NUL, huge, impossible dates, bad encoding. */
const BAD_QUERY_VALUES = [
  '%00',
  'a%00b',
  encodeURIComponent(HUGE.slice(0, 20_000)),
  '-1',
  'abc',
  '1e309',
  '%E0%A4%A',
  ...IMPOSSIBLE_DATES.map(encodeURIComponent),
];

/** A plausible value for a property, so that one mutation at a time reaches each field. */
function plausible(schema: JsonSchema): unknown {
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'email') return 'fuzz@rastro.test';
  return 'texto';
}

/** Values that make a property wrong, whatever its declared type. */
function wrongValues(schema: JsonSchema): unknown[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const values: unknown[] = [`a${NUL}b`, { [`k${NUL}`]: 1 }, [[[[NUL]]]], { aninhado: { x: 1 } }];
  if (type === 'string' || type === undefined) values.push(12345, false, ['lista']);
  if (type === 'integer' || type === 'number') values.push('doze', 1.5e308, -1e308, true);
  if (type === 'boolean') values.push('talvez', 2);
  if (type === 'array') values.push('não é lista', [NUL, { x: NUL }]);
  if (schema.format?.startsWith('date') || schema.format === 'uuid')
    values.push(...IMPOSSIBLE_DATES);
  values.push(HUGE);
  return values;
}

function casesOf(path: string, op: Operation): Case[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
  const query = params.filter((p) => p.in === 'query').map((p) => p.name);
  const fill = (value: (name: string) => string) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
  // A well-formed path for the query and body cases: valid shapes, records that do not exist.
  const basePath = fill((name) =>
    name === 'integration' ? 'getrak' : name === 'cep' ? '50000000' : randomUUID(),
  );
  const cases: Case[] = [];

  for (const value of BAD_PATH_VALUES)
    if (pathParams.length)
      cases.push({ label: `path ${value.slice(0, 20)}`, path: fill(() => value) });
  if (pathParams.some((name) => /id$/i.test(name)))
    cases.push({ label: 'path id inexistente', path: fill(() => randomUUID()) });

  for (const name of query)
    for (const value of BAD_QUERY_VALUES)
      cases.push({
        label: `query ${name}=${value.slice(0, 20)}`,
        path: basePath,
        query: `${name}=${value}`,
      });
  if (query.length)
    cases.push({ label: 'query repetida', path: basePath, query: `${query[0]}=a&${query[0]}=b` });
  cases.push({ label: 'query desconhecida', path: basePath, query: `desconhecido=1&x${NUL}=1` });

  // Bodies go to the routes that declare one; a malformed body for a JSON object is refused.
  if (!op.requestBody) return cases;
  const declared = op.requestBody.content?.['application/json']?.schema;
  const mustRefuse = declared?.type === 'object';
  const body = (label: string, text: string, extra: Partial<Case> = {}) =>
    cases.push({ label, path: basePath, body: text, mustRefuse, ...extra });
  for (const [label, text] of [
    ['corpo null', 'null'],
    ['corpo número', '42'],
    ['corpo texto', '"texto"'],
    ['corpo lista', '[]'],
    ['corpo lista de objeto', '[{"a":1}]'],
    ['corpo aninhado', DEEP],
    ['corpo malformado', '{"a":'],
    ['corpo com NUL', JSON.stringify({ [NUL]: NUL })],
    ['corpo desconhecido', '{"campoDesconhecido":1}'],
    ['corpo enorme', JSON.stringify({ enorme: 'x'.repeat(1_100_000) })],
  ] as const)
    body(label, text);
  if (declared) {
    body('tipo texto', '{"a":1}', { contentType: 'text/plain', mustRefuse: true });
    body('sem tipo', '{"a":1}', { contentType: '', mustRefuse: true });
    const properties = declared.properties ?? {};
    const base = Object.fromEntries(
      Object.entries(properties).map(([key, schema]) => [key, plausible(schema)]),
    );
    for (const [key, schema] of Object.entries(properties))
      for (const wrong of wrongValues(schema))
        body(
          `${key}=${JSON.stringify(wrong).slice(0, 24)}`,
          JSON.stringify({ ...base, [key]: wrong }),
        );
    body('base + desconhecido', JSON.stringify({ ...base, campoDesconhecido: true }));
  }
  return cases;
}

const ENGLISH =
  /\b(the|is|are|invalid|expected|received|error|failed|not|required|must|malformed|unauthorized|forbidden|found|request)\b/i;

async function tableCounts(s: TestServer): Promise<Record<string, number>> {
  const { db } = s.deps.database;
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`),
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    // The walk's logout-all takes no input and is accepted: its sign-out line in the audit
    // log is a true record, not something a malformed call stored.
    const where = name === 'audit_events' ? ` where kind <> 'sign_out'` : '';
    // So is the driver's page's sign-out: it ends the walk's own driver session.
    if (name === 'driver_sessions') continue;
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql.raw(`select count(*)::int as n from "${name}"${where}`)),
    );
    counts[name] = row?.n ?? 0;
  }
  return counts;
}

const API = /^\/(registros|tech-integracao|registro)(\/|$)|^\/health$/;

/** Opens sessions of a driver's page (a driver and a link with a PIN made by the admin). */
async function driverSessions(s: TestServer) {
  const admin = await as(s, 'admin@rastro.demo');
  const driver = await admin.call<Driver>('POST', '/registros/driver', {
    clientId: admin.user.clientId,
    completName: 'Motorista da varredura',
    cpf: '529.982.247-25',
  });
  expect(driver.status, JSON.stringify(driver.body)).toBe(201);
  const made = await admin.call<DriverLinkCreated>('POST', '/registros/driver-links', {
    driverId: driver.body.id,
    pin: '2468',
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const token = made.body.path.replace('/motorista/', '');
  return async () => {
    const res = await s.request('/registros/driver-page/session', {
      method: 'POST',
      json: { token, pin: '2468' },
    });
    return (await jsonOf<DriverSession>(res)).sessionToken;
  };
}

describe.each(await backends())('fuzz walk of the API on %s', (backend) => {
  // A local stand-in for the CEP service (an outside service): it knows no CEP.
  let cep: Server;
  beforeAll(async () => {
    cep = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"erro":true}');
    });
    await new Promise<void>((resolve) => cep.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => cep.close(() => resolve())));
  const server = useServer(backend, () => ({
    FLESPI_STREAM_SECRET: FLESPI_SECRET,
    // Payments' webhook is walked set up (unset, it answers 503 like the flespi stream).
    PAYMENTS_WEBHOOK_TOKEN: 'fuzz-webhook-token-0123',
    CEP_URL: `http://127.0.0.1:${(cep.address() as AddressInfo).port}`,
  }));

  async function documented(s: TestServer): Promise<Doc> {
    return jsonOf<Doc>(await s.request('/registros/openapi.json'));
  }

  // Its limit is there to stop a walk that hangs, not to time it: the walk is some 2,500 calls,
  // 20 s alone here, and took 68 s, and once over 120 s, beside the other suites on two cores.
  it('never answers a malformed call with a 5xx, always in pt-BR, and stores nothing', async () => {
    const s = server();
    const doc = await documented(s);
    // Signing out of every session comes last: it ends the walk's sessions too.
    const operations = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })))
      .sort(
        (a, b) => Number(a.path.endsWith('/logout-all')) - Number(b.path.endsWith('/logout-all')),
      );
    // A session of its own for each route that can end one (signing out, the password, the
    // two-step sign-in): the walk of logout-all must not end the others'. The other routes share
    // one; a call that ended it anyway shows below as 'a sessão do teste caiu'. A sign-in per
    // route was a fifth of the walk's time (232 password checks).
    const sessions: string[] = [];
    const openDriverSession = await driverSessions(s);
    const shared = (await login(s, 'admin@rastro.demo')).accessToken;
    for (const { path } of operations)
      sessions.push(
        // The driver's own page answers only a driver's session.
        path.startsWith('/registros/driver-page/me/')
          ? await openDriverSession()
          : path.startsWith('/registros/auth/')
            ? (await login(s, 'admin@rastro.demo')).accessToken
            : shared,
      );
    const before = await tableCounts(s);
    const problems: string[] = [];
    let sent = 0;
    const calls = operations.flatMap(({ path, method, op }, i) =>
      casesOf(path, op).map((c) => ({ path, method, c, session: sessions[i] })),
    );
    async function send({ path, method, c, session }: (typeof calls)[number]) {
      const token = path.includes('/flespi/') ? FLESPI_SECRET : session;
      const headers = new Headers({ authorization: `Bearer ${token}` });
      if (c.body !== undefined) {
        const type = c.contentType ?? 'application/json';
        if (type) headers.set('content-type', type);
      }
      const res = await s.app.request(`${c.path}${c.query ? `?${c.query}` : ''}`, {
        method: method.toUpperCase(),
        headers,
        ...(c.body !== undefined ? { body: c.body } : {}),
      });
      sent += 1;
      const where = `${method.toUpperCase()} ${path} [${c.label}]`;
      if (res.status < 400) {
        await res.body?.cancel();
        if (c.mustRefuse) problems.push(`${where}: aceitou (${res.status})`);
        return;
      }
      const text = await res.text();
      let body: { statusCode?: unknown; code?: unknown; message?: unknown; reason?: unknown } = {};
      try {
        body = JSON.parse(text);
      } catch {
        problems.push(`${where}: corpo não é JSON: ${text.slice(0, 80)}`);
        return;
      }
      // The walk itself must stay signed in, or it proves nothing.
      if (body.reason === 'SESSION_REVOKED' || body.reason === 'NO_TOKEN')
        problems.push(`${where}: a sessão do teste caiu`);
      if (res.status >= 500) problems.push(`${where}: ${res.status} ${text.slice(0, 120)}`);
      else if (
        body.statusCode !== res.status ||
        !ERROR_CODES.includes(body.code as never) ||
        typeof body.message !== 'string' ||
        ENGLISH.test(body.message)
      )
        problems.push(`${where}: corpo de erro fora do padrão: ${text.slice(0, 160)}`);
    }
    // Several calls in flight, as a server meets them: 20 s alone instead of 23 s one at a
    // time, 50 s instead of 55 s beside two busy cores. Signing out of every session still
    // comes last, on its own.
    const last = (call: (typeof calls)[number]) => call.path.endsWith('/logout-all');
    await inParallel(
      calls.filter((call) => !last(call)),
      IN_FLIGHT,
      send,
    );
    await inParallel(calls.filter(last), 1, send);

    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(2000);
    expect(await tableCounts(s)).toEqual(before);
  }, 300_000);

  it('covers every route the application has (the document lists them all)', async () => {
    const s = server();
    const doc = await documented(s);
    const walked = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const routes = s.app.routes
      .filter((r) => r.method !== 'ALL' && API.test(r.path) && !r.path.endsWith('/*'))
      .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`);
    const uncovered = [...new Set(routes)].filter((route) => !walked.has(route));
    expect(uncovered).toEqual([]);
  });
});
