/**
 * Opens the one database of the process. Without DATABASE_URL it is an embedded PGlite
 * (PostgreSQL in WebAssembly) in the data folder, so `npm start` needs no server; with
 * DATABASE_URL it is a PostgreSQL server through node-postgres. Both give the same drizzle
 * PgDatabase type, so every query in server/db/ runs unchanged on either.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
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
  return openPglite(options.dataDir);
}

async function openPglite(dataDir: string): Promise<Database> {
  const dir = dataDir === 'memory://' ? dataDir : path.join(dataDir, 'pglite');
  if (dir !== 'memory://') mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const db = drizzlePglite({ client, schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS }),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, onIdleError?: (err: Error) => void): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection can be dropped by the server (restart, failover, admin): the pool
  // replaces it on next use; without a handler node-postgres would crash the process.
  pool.on('error', (err) => onIdleError?.(err));
  const db = drizzlePg({ client: pool, schema });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    async migrate() {
      const conn = await pool.connect();
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg({ client: conn, schema }), { migrationsFolder: MIGRATIONS });
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        conn.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Rows of a raw `db.execute(sql…)`; both drivers answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
