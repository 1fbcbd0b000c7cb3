/**
 * Opens the one database of the process. Without DATABASE_URL it is an embedded PGlite
 * (PostgreSQL in WebAssembly) in the data folder, so `npm start` needs no server; with
 * DATABASE_URL it is a PostgreSQL server. Either way the server talks to it with
 * node-postgres and drizzle, so every query in server/db/ runs unchanged on both, with the
 * same types and errors.
 *
 * PGlite runs on a worker thread of its own (pglite-thread.ts), reached through in-memory
 * streams: on this thread a long query stopped ingest, the API and the live stream.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type Listening, listenTo, type NoticeHandlers } from './listen';
import { startPgliteThread } from './pglite-thread';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /**
   * PostgreSQL only: LISTEN on these channels over a connection of its own, kept open (and
   * reopened) until the database is closed. Undefined on PGlite, which one process owns.
   */
  listen?(channels: string[], handlers: NoticeHandlers): Promise<void>;
  /** PGlite only: how busy its thread has been (benches print it beside the server's). */
  utilization?(since?: EventLoopUtilization): EventLoopUtilization;
  close(): Promise<void>;
}

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Advisory lock id held while migrating, so that parallel starts do not race. */
const MIGRATION_LOCK = 727_001;

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  onIdleError?: (err: Error) => void;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.onIdleError);
  return openPglite(options.dataDir, options.onIdleError);
}

async function openPglite(dataDir: string, onIdleError?: (err: Error) => void): Promise<Database> {
  const dir = dataDir === 'memory://' ? dataDir : path.join(dataDir, 'pglite');
  if (dir !== 'memory://') mkdirSync(dir, { recursive: true });
  const thread = await startPgliteThread(dir);
  thread.onError((err) => onIdleError?.(err));
  // One connection: PGlite is one backend. It is never closed for being idle, so its
  // session lasts as long as the process.
  const pool = new pg.Pool({
    max: 1,
    idleTimeoutMillis: 0,
    user: 'postgres',
    database: 'postgres',
    stream: thread.stream,
  });
  const database = poolDatabase(pool, 'pglite', onIdleError, async () => {
    await pool.end();
    await thread.close();
  });
  database.utilization = (since) => thread.utilization(since);
  return database;
}

async function openPostgres(url: string, onIdleError?: (err: Error) => void): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const listening: Listening[] = [];
  const database = poolDatabase(pool, 'postgres', onIdleError, async () => {
    await Promise.all(listening.map((l) => l.close()));
    await pool.end();
  });
  database.listen = async (channels, handlers) => {
    listening.push(await listenTo(url, channels, handlers));
  };
  return database;
}

function poolDatabase(
  pool: pg.Pool,
  kind: Database['kind'],
  onIdleError: ((err: Error) => void) | undefined,
  close: () => Promise<void>,
): Database {
  // An idle connection can be dropped by the server (restart, failover, admin): the pool
  // replaces it on next use; without a handler node-postgres would crash the process.
  pool.on('error', (err) => onIdleError?.(err));
  const db = drizzle({ client: pool, schema });
  return {
    db: db as unknown as Db,
    kind,
    async migrate() {
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzle({ client: conn, schema }), { migrationsFolder: MIGRATIONS });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        conn.release();
      }
    },
    close,
  };
}

/** Rows of a raw `db.execute(sql…)` (node-postgres answers `{ rows, … }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
