/**
 * Server test harness. A server suite runs on a fresh database (`backends`): on the PostgreSQL
 * server at 127.0.0.1:5432 when one answers there (created for the suite, dropped afterwards),
 * else on an in-memory PGlite; the suites about the database itself run on both. The app is
 * the real one, driven in-process with app.request(); SMTP is a real local server
 * (tests/server/smtp.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../server/app';
import type { Deps } from '../../server/deps';
import type { NativeProtocol } from '../../server/ingest/native/codecs';
import type { NativeListener } from '../../server/ingest/native/listener';
import { startNativeListeners } from '../../server/ingest/native/start';
import { type Config, loadConfig } from '../../server/platform/config';
import { createLogger } from '../../server/platform/log';
import { prepare, startServer } from '../../server/start';
import type { ApiError, AuthResponse, CustomerRowPage } from '../../src/contract';
import { cpfFromBase } from '../../src/lib/documents';
import { createTestDatabase, pgliteFolder, pgliteSnapshot } from './template-db';

export type Backend = 'pglite' | 'postgres';
export const PG_ADMIN_URL =
  process.env.RASTRO_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let pgAvailable: Promise<boolean> | undefined;

export function postgresAvailable(): Promise<boolean> {
  if (process.env.RASTRO_TEST_PG === 'off') return Promise.resolve(false);
  pgAvailable ??= (async () => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 1500 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return pgAvailable;
}

/**
 * The database a suite about what the server does runs on: the PostgreSQL server when one
 * answers (the database of real fleets), else PGlite. Both are PostgreSQL, reached through the
 * same driver and the same queries, so a route, a report or a protocol behaves alike on either.
 * Where the two differ (PGlite is one connection in a thread of the server, PostgreSQL a pool on
 * a server of its own: concurrency and locks, LISTEN, restarts, a second process, partitions,
 * time zones), the suites that test it run on both (`everyBackend`), and the journeys run the
 * whole app on PGlite. RASTRO_TEST_DATABASES=all runs every suite on both, as before a release.
 */
export async function backends(): Promise<Backend[]> {
  const databases = process.env.RASTRO_TEST_DATABASES ?? 'one';
  if (databases === 'all') return everyBackend();
  if (databases !== 'one')
    throw new Error(`RASTRO_TEST_DATABASES deve ser 'one' ou 'all' (recebido: ${databases})`);
  return (await postgresAvailable()) ? ['postgres'] : ['pglite'];
}

/** Every database that answers, for the suites about how the database itself behaves. */
export async function everyBackend(): Promise<Backend[]> {
  return (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestServer {
  deps: Deps;
  app: ReturnType<typeof createApp>;
  config: Config;
  /** The makers' protocols' listeners `env` turned on (GT06_PORT: '0' …), by protocol. */
  nativePorts: Partial<Record<NativeProtocol, number>>;
  /** Those listeners themselves, for tests that read their counters (`stats()`). */
  nativeListeners: Partial<Record<NativeProtocol, NativeListener>>;
  request(path: string, init?: RequestInit & { json?: unknown; token?: string }): Promise<Response>;
}

export const TEST_SECRET = 'rastro-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/**
 * The configuration every test server starts from: an in-memory database with a small page
 * cache, the test secret, no logs, no login slow-down, no demo fleet (nor its past week) and
 * no device listeners; `env` overrides.
 */
export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://rastro.test',
    LOGIN_SLOWDOWN_MS: '0',
    SEED_DEMO_FLEET: 'false',
    // Suites that turn the demo fleet on test it without its past week (tests/server/demo-history).
    SEED_DEMO_HISTORY_DAYS: '0',
    OSMAND_PORT: 'off',
    WIALON_IPS_PORT: 'off',
    GT06_PORT: 'off',
    SUNTECH_PORT: 'off',
    TELTONIKA_PORT: 'off',
    QUECLINK_PORT: 'off',
    // A suite starts dozens of embedded databases, each setting up its whole page cache at
    // start; none holds more than a few megabytes.
    PGLITE_SHARED_BUFFERS: '16MB',
    ...env,
  });
}

/**
 * DATA_SNAPSHOT for an in-memory database, so that the server starts from a copy: seeded when
 * its configuration seeds as the copy was seeded, else only migrated (tests/server/template-db.ts).
 */
export async function snapshotEnv(env: Record<string, string>): Promise<Record<string, string>> {
  const config = testConfig(env);
  if (config.dataDir !== 'memory://' || config.databaseUrl) return {};
  return { DATA_SNAPSHOT: await pgliteSnapshot(config) };
}

/**
 * A place for a database that outlives one server (restarts, several processes, a crash
 * drill): a database of its own on PostgreSQL, a data folder of its own on PGlite. `seedEnv` is
 * what of the servers' environment decides the seed (SEED_DEMO…): the database is a copy of the
 * seeded template (PostgreSQL) or snapshot (PGlite) when that seeds as the copy did; else an
 * empty database (PostgreSQL) or the migrated snapshot (PGlite), which the server seeds.
 */
export async function databaseFor(backend: Backend, seedEnv: Record<string, string> = {}) {
  if (backend === 'postgres') {
    const name = `rastro_test_${randomBytes(6).toString('hex')}`;
    const url = await createTestDatabase(PG_ADMIN_URL, name, testConfig(seedEnv));
    return {
      env: { DATABASE_URL: url } as Record<string, string>,
      drop: () => adminQuery(`drop database if exists ${name} with (force)`),
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'rastro-db-'));
  await pgliteFolder(dir, testConfig(seedEnv));
  return {
    env: { DATA_DIR: dir } as Record<string, string>,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A server's dependencies without its listeners (prepare()), on a copy of the database as
 * every test server starts from, for tests that read what a start does (its logs, its headers).
 */
export async function prepareTest(
  env: Record<string, string> = {},
  logger = createLogger('silent'),
) {
  return prepare(await copiedConfig(env), logger);
}

/** A real server listening on a free port (with the listeners `env` turns on). */
export async function startTestServer(env: Record<string, string> = {}) {
  return startServer(await copiedConfig(env), createLogger('silent'));
}

/** The test configuration for `env`, on a copy of the database when it is in memory. */
async function copiedConfig(env: Record<string, string>) {
  return testConfig({ ...(await snapshotEnv(env)), ...env });
}

/** Registers beforeAll/afterAll that start a fresh server on the backend; returns a getter. */
export function useServer(
  backend: Backend,
  env: () => Record<string, string> = () => ({}),
): () => TestServer {
  let server: TestServer | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  const natives: NativeListener[] = [];
  beforeAll(async () => {
    const given = env();
    let database: Record<string, string>;
    if (backend === 'postgres') {
      const name = `rastro_test_${randomBytes(6).toString('hex')}`;
      database = {
        DATABASE_URL: await createTestDatabase(PG_ADMIN_URL, name, testConfig(given)),
      };
      dropDb = () => adminQuery(`drop database if exists ${name} with (force)`);
    } else {
      database = await snapshotEnv(given);
    }
    const config = testConfig({ ...database, ...given });
    const deps = await prepare(config, createLogger('silent'));
    const app = createApp(deps, { serveStatic: false });
    const nativePorts: TestServer['nativePorts'] = {};
    const nativeListeners: TestServer['nativeListeners'] = {};
    for (const [protocol, listener] of await startNativeListeners(config, deps, '127.0.0.1')) {
      natives.push(listener);
      nativePorts[protocol] = listener.port;
      nativeListeners[protocol] = listener;
    }
    server = {
      deps,
      app,
      config,
      nativePorts,
      nativeListeners,
      request(path, init = {}) {
        const { json, token, ...rest } = init;
        const headers = new Headers(rest.headers);
        if (json !== undefined) headers.set('content-type', 'application/json');
        if (token) headers.set('authorization', `Bearer ${token}`);
        return Promise.resolve(
          app.request(path, {
            ...rest,
            headers,
            ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
          }),
        );
      },
    };
  });
  afterAll(async () => {
    await Promise.all(natives.splice(0).map((listener) => listener.close()));
    await server?.deps.database.close();
    await dropDb?.();
  });
  return () => {
    if (!server) throw new Error('server not started');
    return server;
  };
}

export async function login(s: TestServer, email: string, password = 'rastro-demo') {
  const res = await s.request('/registros/auth/login', {
    method: 'POST',
    json: { email, password },
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return jsonOf<AuthResponse>(res);
}

/**
 * What every failure of the API answers (server/platform/http/errors.ts): `{ statusCode, code,
 * message }`, with `reason` on some identity errors and `issues` on some 400s.
 */
export type ErrorBody = ApiError;

/**
 * A parsed answer: the JSON body (or the text when it is not JSON). `T` is what the test
 * expects the body to be (a type of src/contract/ where the API has one); it is not checked
 * at run time, the test's assertions do that.
 */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

/**
 * An item of an answer the test goes on with (`list[0]`, `list.find(…)`), or a failure naming
 * what is missing: the test must not carry on without it.
 */
export function present<T>(item: T | undefined, what: string): T {
  if (item === undefined) throw new Error(`${what}: missing from the answer`);
  return item;
}

/**
 * The JSON body of a response, typed as what the test expects it to be (`T`: a type of
 * src/contract/, `ErrorBody`, …). Like `ApiResponse`, not checked at run time: the test's
 * assertions do that.
 */
export async function jsonOf<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** Parses a response body as JSON, falling back to its text. */
export async function parseBody(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Signs in and returns a caller bound to that user's token. */
export async function as(s: TestServer, email: string, password = 'rastro-demo') {
  const session = await login(s, email, password);
  const call = async <T = unknown>(
    method: string,
    path: string,
    json?: unknown,
  ): Promise<ApiResponse<T>> => {
    const res = await s.request(path, {
      method,
      token: session.accessToken,
      ...(json !== undefined ? { json } : {}),
    });
    return { status: res.status, body: (await parseBody(res)) as T };
  };
  return { ...session, call };
}

/** The demo customers by name. */
/** Valid CPFs, a new one each call, from `seed` (each file that shares a server takes its own). */
export function cpfSequence(seed: number): () => string {
  let n = 0;
  return () => {
    n += 1;
    return cpfFromBase(String(seed + n * 7919).slice(0, 9));
  };
}

export async function demoClients(s: TestServer) {
  const admin = await as(s, 'admin@rastro.demo');
  const { body } = await admin.call<CustomerRowPage>('GET', '/registros/client?limit=100');
  const byName = (name: string) => {
    const found = body.clients.find((c) => c.name.startsWith(name));
    if (!found) throw new Error(`demo customer ${name} missing`);
    return found.id;
  };
  return {
    mother: byName('Rastro Demonstração'),
    north: byName('Transportes Norte'),
    south: byName('Logística Sul'),
  };
}
