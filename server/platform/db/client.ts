/**
 * Opens the one database of the process. Without DATABASE_URL it is an embedded PGlite
 * (PostgreSQL in WebAssembly) in the data folder, so `npm start` needs no server; with
 * DATABASE_URL it is a PostgreSQL server. Either way the server talks to it with
 * node-postgres and drizzle, so every room's queries run unchanged on both, with the same
 * types and errors.
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
import * as schema from '../../schema';
import { createLogger, type Logger } from '../log';
import { createDatabaseHealth, type DatabaseHealth, DatabaseUnavailable } from './health';
import { type Listening, listenTo, type NoticeHandlers } from './listen';
import { startPgliteThread } from './pglite-thread';

/**
 * The database, or a transaction on it: a transaction is a database whose statements commit
 * together, so every query function takes a `Db` and runs inside a transaction when given one.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Whether the database answers now, and when that changes (server/platform/db/health.ts). */
  health: DatabaseHealth;
  migrate(): Promise<void>;
  /**
   * PostgreSQL only: LISTEN on these channels over a connection of its own, kept open (and
   * reopened) until the database is closed. Undefined on PGlite, which one process owns.
   */
  listen?(channels: string[], handlers: NoticeHandlers): Promise<void>;
  /** PGlite only: how busy its thread has been (benches print it beside the server's). */
  utilization?(since?: EventLoopUtilization): EventLoopUtilization;
  /**
   * PGlite only: ends the database's thread as a crash of it would (a fault drill: the
   * server must start a new one on the same data folder and carry on).
   */
  crash?(): Promise<void>;
  /**
   * PGlite only: the whole data folder as a tarball, which `snapshot` opens again (tests copy
   * one migrated and seeded database rather than migrate and seed one for each server).
   */
  dump?(): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** In memory only: a tarball of `dump()` the database starts from instead of empty. */
  snapshot?: string | undefined;
  log?: Logger | undefined;
  /** The longest pause between two attempts to reach a database that is down. */
  retryMaxMs?: number | undefined;
  /** How long opening a connection to PostgreSQL may take before it counts as failed. */
  connectTimeoutMs?: number | undefined;
  /** PGlite only: its page cache (shared_buffers, e.g. '16MB'); PostgreSQL's default if unset. */
  pgliteSharedBuffers?: string | undefined;
}

/** The migrations drizzle-kit writes from server/schema.ts (drizzle.config.ts). */
const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Advisory lock id held while migrating, so that parallel starts do not race. */
const MIGRATION_LOCK = 727_001;
/** Connections of the pool to PostgreSQL (plus one for LISTEN: docs/deployment.md). */
const POOL_SIZE = 10;
export const DEFAULT_RETRY_MAX_MS = 2000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options.dataDir, options);
}

/**
 * A pool client that is never left without an `'error'` listener. node-postgres's pool
 * listens for errors only while a client is idle in it; a client lent out (inside a
 * transaction, between two statements) whose server goes away emits `'error'` to nobody, and
 * Node ends the process for it: that is how a PostgreSQL restart used to kill Rastro. Here
 * every client reports its errors to the health for its whole life, and while the database
 * is known to be down no new connection is even tried (the health's probe does that).
 */
type ConnectCallback = ((err: Error) => void) | ((err: null, client: pg.Client) => void);

function guardedClient(health: DatabaseHealth) {
  return class GuardedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', (err) => health.report(err));
    }
    override connect(): Promise<pg.Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<pg.Client> | undefined {
      if (!health.connectable()) {
        const refused = new DatabaseUnavailable();
        if (!callback) return Promise.reject(refused);
        process.nextTick(callback as (err: Error) => void, refused);
        return undefined;
      }
      if (!callback) return super.connect();
      super.connect(callback);
      return undefined;
    }
  };
}

async function openPglite(dataDir: string, options: DatabaseOptions): Promise<Database> {
  const log = options.log ?? createLogger('silent');
  const dir = dataDir === 'memory://' ? dataDir : path.join(dataDir, 'pglite');
  if (dir !== 'memory://') mkdirSync(dir, { recursive: true });
  const thread = await startPgliteThread({
    dataDir: dir,
    snapshot: dir === 'memory://' ? options.snapshot : undefined,
    sharedBuffers: options.pgliteSharedBuffers,
  });
  const health = createDatabaseHealth({
    log,
    retryMaxMs: options.retryMaxMs ?? DEFAULT_RETRY_MAX_MS,
    async probe() {
      // A thread that failed is started again on the same folder (its data is on disk).
      if (thread.failed()) await thread.restart();
      await pool.query('select 1');
    },
  });
  thread.onError((err) => {
    log.error('database: the PGlite thread failed', { err });
    health.down(err);
  });
  // One connection: PGlite is one backend. It is never closed for being idle, so its
  // session lasts as long as the process (or the thread: a new thread, a new connection).
  const pool = new pg.Pool({
    max: 1,
    idleTimeoutMillis: 0,
    user: 'postgres',
    database: 'postgres',
    stream: thread.stream,
    Client: guardedClient(health),
  });
  const database = poolDatabase(pool, 'pglite', health, log, async () => {
    health.close();
    await pool.end();
    await thread.close();
  });
  database.utilization = (since) => thread.utilization(since);
  database.crash = () => thread.crash();
  database.dump = () => thread.dump();
  return database;
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const log = options.log ?? createLogger('silent');
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const retryMaxMs = options.retryMaxMs ?? DEFAULT_RETRY_MAX_MS;
  const health = createDatabaseHealth({
    log,
    retryMaxMs,
    probe: () => probePostgres(url, connectTimeoutMs),
  });
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    // A server that does not answer at all (a failover moving its address) fails the
    // connection after this long instead of holding the request for ever.
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    Client: guardedClient(health),
  });
  const listening: Listening[] = [];
  const database = poolDatabase(pool, 'postgres', health, log, async () => {
    health.close();
    await Promise.all(listening.map((l) => l.close()));
    await pool.end();
  });
  database.listen = async (channels, handlers) => {
    listening.push(
      await listenTo(
        url,
        channels,
        {
          ...handlers,
          error(err) {
            health.report(err);
            handlers.error?.(err);
          },
        },
        { retryMaxMs, connectTimeoutMs, health },
      ),
    );
  };
  return database;
}

/**
 * Whether PostgreSQL serves writes: a connection of its own (the pool's may all be busy or
 * waiting), one statement, closed. A standby (the old primary after a failover) does not.
 */
async function probePostgres(url: string, timeoutMs: number) {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // Its failures come back through connect() and query(); an 'error' event must not crash.
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ standby: boolean }>(
      'select pg_is_in_recovery() as standby',
    );
    if (rows[0]?.standby) throw new DatabaseUnavailable('PostgreSQL em modo somente leitura');
  } finally {
    await client.end().catch(() => {});
  }
}

function poolDatabase(
  pool: pg.Pool,
  kind: Database['kind'],
  health: DatabaseHealth,
  log: Logger,
  close: () => Promise<void>,
): Database {
  // An idle connection can be dropped by the server (restart, failover, admin): the pool
  // replaces it on next use, and the health checks whether the database went away.
  pool.on('error', (err) => {
    if (!health.report(err)) log.warn('database: idle connection lost', { err: err.message });
  });
  const db = drizzle({ client: pool, schema });
  return {
    db: db as unknown as Db,
    kind,
    health,
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
