/**
 * A PostgreSQL database closed to new connections (ALTER DATABASE … ALLOW_CONNECTIONS false,
 * as an operator does before maintenance or a restore) answers every new connection with
 * SQLSTATE 55000, "database … is not currently accepting connections". That is a database
 * that cannot serve now, like a restart: the driver's real error must be told apart from a
 * bad statement, and the API must say 503 "try again", never 500, while it lasts.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionError } from '../../server/platform/db/health';
import { UNAVAILABLE } from '../../server/platform/http/errors';
import type { RunningServer } from '../../server/start';
import { type Caller, signIn, startReal } from './alert-fixtures';
import { databaseFor, PG_ADMIN_URL, postgresAvailable } from './harness';

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

describe.runIf(await postgresAvailable())('a database closed to new connections', () => {
  let server: RunningServer;
  let drop: (() => Promise<unknown>) | undefined;
  let url: string;
  let name: string;
  let caller: Caller;

  beforeAll(async () => {
    const database = await databaseFor('postgres');
    drop = database.drop;
    url = database.env.DATABASE_URL ?? '';
    name = new URL(url).pathname.slice(1);
    server = await startReal(database.env);
    caller = await signIn(server.url, 'admin@rastro.demo');
  });

  afterAll(async () => {
    if (name) await admin(`alter database ${name} allow_connections true`).catch(() => undefined);
    await server?.close();
    await drop?.();
  });

  it('is a database that cannot serve now, and the API answers 503, then serves again', async () => {
    await admin(`alter database ${name} allow_connections false`);
    await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);

    // The driver's own error for a new connection.
    const client = new pg.Client({ connectionString: url });
    const refused = await client.connect().then(
      () => undefined,
      (err: unknown) => err,
    );
    await client.end().catch(() => undefined);
    expect((refused as { code?: string }).code).toBe('55000');
    expect(isConnectionError(refused)).toBe(true);

    // The API, whose pooled connections were just ended.
    const during = await caller.call('GET', `/registros/dashboard/clients`);
    expect(during.status).toBe(503);
    expect((during.body as { message?: string }).message).toBe(UNAVAILABLE);

    await admin(`alter database ${name} allow_connections true`);
    let after = 0;
    for (let i = 0; i < 200 && after !== 200; i++) {
      after = (await caller.call('GET', `/registros/dashboard/clients`)).status;
      if (after !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(after).toBe(200);
  });
});
