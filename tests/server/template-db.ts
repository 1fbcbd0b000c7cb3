/**
 * One migrated and seeded database, copied for each test server instead of migrating and
 * seeding an empty one every time (20 migrations and the demo seed, for every suite and both
 * databases, were most of the server suite's time).
 *
 * - PostgreSQL: a template database, built once and copied with CREATE DATABASE … TEMPLATE.
 *   Its name carries a hash of what made it (the server's sources, the day), so a changed
 *   migration or seed builds a new one and the old ones are dropped after an hour.
 * - PGlite: the in-memory database's data folder as a tarball (dumpDataDir), kept in the
 *   temporary folder under the same kind of hash; each server starts from it (DATA_SNAPSHOT),
 *   and a data folder on disk for a database that outlives one server is unpacked from it
 *   (`pgliteFolder`).
 *
 * Either way the server still runs its whole start (prepare()): the migrations find nothing
 * to do and the seed finds the database not empty. Only a configuration whose seed is the
 * one the copy was built with gets a seeded copy (`seedsAsTemplate`). Any other gets, on
 * PGlite, a copy that is only migrated, and seeds it itself; on PostgreSQL, an empty database.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Config } from '../../server/platform/config';
import { type Database, openDatabase } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import { migrateAndSeed } from '../../server/start';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * What the copied database is made of: a change to any of these makes a new one. The whole
 * server rather than the folders the seed reads today: the seed reaches into many rooms (the
 * schema of each, the simulators, the journey and score code that write the demo's week), and a
 * list of folders missed some of them, which served a stale copy after a change there. Hashing
 * a few hundred more files costs milliseconds.
 */
const INPUTS = [
  'server',
  // How the copies are made, this file included.
  'tests/server/template-db.ts',
  'src/contract',
  'src/lib',
  'node_modules/@electric-sql/pglite/package.json',
];
const TEMPLATE_PREFIX = 'rastro_test_template_';
const SNAPSHOT_PREFIX = 'rastro-test-pglite-';
/** Advisory lock held on the admin connection while a template is looked for or built. */
const TEMPLATE_LOCK = 727_037;
/** SQLSTATE of "database is being accessed by other users". */
const OBJECT_IN_USE = '55006';

function filesUnder(relative: string): string[] {
  const full = path.join(ROOT, relative);
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full)
    .sort()
    .flatMap((entry) => filesUnder(path.join(relative, entry)));
}

let hashed: string | undefined;
function inputsHash() {
  if (hashed) return hashed;
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder)) {
    hash.update(file);
    hash.update(readFileSync(path.join(ROOT, file)));
  }
  // The seed stamps some rows with the time it ran: a copy is at most a day old.
  hash.update(new Date().toISOString().slice(0, 10));
  hashed = hash.digest('hex').slice(0, 16);
  return hashed;
}

/**
 * Whether this configuration seeds what the copy holds: the demo customers and users only
 * (the test default), not the demo fleet (rows dated from when it ran) nor nothing at all.
 */
export function seedsAsTemplate(config: Config): boolean {
  return config.seedDemo && !config.seedDemoFleet;
}

const quiet = createLogger('silent');

/** Copies in the temporary folder, one per kind (see `pgliteSnapshot`). */
const snapshots = new Map<'seeded' | 'migrated', Promise<string>>();

/**
 * The tarball of an in-memory PGlite, migrated and, when the configuration seeds as the copy
 * was seeded (`seedsAsTemplate`), seeded. Any other configuration (the demo fleet, no demo at
 * all) gets the migrated one and seeds it at its start as it would an empty database: initdb
 * and the migrations were most of such a start (3.7 to 7 s to the database being ready, for a
 * dozen servers in one run of the suite). Test files may each run in a process of their own, so each copy is kept on disk
 * under its hash and built only when missing; it appears by rename, whole (two processes
 * building at once both write a good one).
 */
export function pgliteSnapshot(config: Config): Promise<string> {
  const kind = seedsAsTemplate(config) ? 'seeded' : 'migrated';
  let snapshot = snapshots.get(kind);
  if (snapshot) return snapshot;
  snapshot = (async () => {
    const file = path.join(tmpdir(), `${SNAPSHOT_PREFIX}${kind}-${inputsHash()}.tar`);
    if (existsSync(file)) return file;
    const database = await openDatabase({
      dataDir: 'memory://',
      log: quiet,
      pgliteSharedBuffers: config.database.pgliteSharedBuffers,
    });
    try {
      if (kind === 'seeded') await migrateAndSeed(database, config, quiet);
      else await database.migrate();
      await dropTemplateDatabases(database);
      if (!database.dump) throw new Error('PGlite: no dump');
      const partial = `${file}.${process.pid}.${randomBytes(3).toString('hex')}`;
      writeFileSync(partial, await database.dump());
      renameSync(partial, file);
    } finally {
      await database.close();
    }
    // Copies of other migrations or days, left for an hour in case a run still starts one.
    for (const entry of readdirSync(tmpdir())) {
      const other = path.join(tmpdir(), entry);
      if (entry.startsWith(SNAPSHOT_PREFIX) && !entry.includes(inputsHash()))
        try {
          if (Date.now() - statSync(other).mtimeMs > 3_600_000) rmSync(other, { force: true });
        } catch {
          // Gone already: another process cleaned it.
        }
    }
    return file;
  })();
  snapshots.set(kind, snapshot);
  return snapshot;
}

/**
 * Leaves out PostgreSQL's template databases, which only CREATE DATABASE reads and PGlite
 * never runs: each is some 400 files the copy unpacks at every server start. Without them a
 * start takes 650 ms of CPU instead of 990 (medians of six, this machine).
 */
async function dropTemplateDatabases(database: Database) {
  await database.db.execute(
    sql.raw(
      `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
    ),
  );
  for (const name of ['template0', 'template1'])
    await database.db.execute(sql.raw(`drop database ${name}`));
  // Whatever the drops left in the write-ahead log goes to the data files before the copy.
  await database.db.execute(sql.raw('checkpoint'));
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function urlOf(adminUrl: string, name: string) {
  return adminUrl.replace(/\/[^/]*$/, `/${name}`);
}

/**
 * Runs a statement that needs nobody connected to a database (a copy of the template, a
 * rename): a connection that just closed can linger for a moment on the server's side.
 */
async function whenUnused(client: pg.Client, sql: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(sql);
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== OBJECT_IN_USE || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

let template: Promise<string> | undefined;

/**
 * The name of the PostgreSQL template database, built if missing. Test processes run in
 * parallel: the advisory lock lets one build it while the others wait, and it gets its final
 * name only when built and closed, so nobody copies a half-made one.
 */
function postgresTemplate(adminUrl: string, config: Config): Promise<string> {
  template ??= withAdmin(adminUrl, async (client) => {
    const name = `${TEMPLATE_PREFIX}${inputsHash()}`;
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      // Each template's comment is the time it was built (see below).
      const { rows } = await client.query<{ datname: string; built: string | null }>(
        `select datname, shobj_description(oid, 'pg_database') as built
           from pg_database where datname like $1`,
        [`${TEMPLATE_PREFIX}%`],
      );
      if (!rows.some((row) => row.datname === name)) {
        const building = `${name}_building`;
        await client.query(`drop database if exists ${building} with (force)`);
        await client.query(`create database ${building}`);
        const database = await openDatabase({
          databaseUrl: urlOf(adminUrl, building),
          log: quiet,
          dataDir: 'memory://',
        });
        try {
          await migrateAndSeed(database, config, quiet);
        } finally {
          await database.close();
        }
        await whenUnused(client, `alter database ${building} rename to ${name}`);
        await client.query(`comment on database ${name} is '${new Date().toISOString()}'`);
      }
      // Templates of other migrations or days, left for an hour like the PGlite snapshots:
      // another checkout on this machine (a second work tree) may be running its own suite
      // from one, and dropping it at once failed that suite's next copy.
      for (const { datname, built } of rows) {
        const age = built ? Date.now() - Date.parse(built) : Number.POSITIVE_INFINITY;
        if (datname !== name && !datname.endsWith('_building') && !(age < 3_600_000))
          await client.query(`drop database if exists ${datname}`).catch(() => {});
      }
    } finally {
      await client.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => {});
    }
    return name;
  });
  return template;
}

/**
 * Creates a database for one test server: a copy of the template when the configuration
 * seeds as the template was seeded, else an empty one. Answers its URL.
 */
export async function createTestDatabase(
  adminUrl: string,
  name: string,
  config: Config,
): Promise<string> {
  const source = seedsAsTemplate(config) ? await postgresTemplate(adminUrl, config) : undefined;
  await withAdmin(adminUrl, (client) =>
    source
      ? whenUnused(client, `create database ${name} template ${source}`)
      : client.query(`create database ${name}`).then(() => undefined),
  );
  return urlOf(adminUrl, name);
}

/**
 * A PGlite data folder on disk (DATA_DIR) that starts as a copy of the snapshot, for a
 * database that outlives one server (restarts, a second process). An empty folder made PGlite
 * run initdb, the migrations and the seed at the first start; a CPU profile of the suite put
 * about 5 s of CPU in initdb alone for each new folder. The server finds the copy migrated (and seeded, when
 * its configuration seeds as the copy did), as it finds a deployment's folder after an upgrade.
 */
export async function pgliteFolder(dataDir: string, config: Config): Promise<void> {
  untar(readFileSync(await pgliteSnapshot(config)), path.join(dataDir, 'pglite'));
}

/** Unpacks a ustar archive (PGlite's dumpDataDir: folders and regular files) into `into`. */
function untar(archive: Buffer, into: string) {
  const root = path.resolve(into);
  mkdirSync(root, { recursive: true });
  for (let at = 0; at + 512 <= archive.length; ) {
    const header = archive.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) return;
    const text = (start: number, length: number) => {
      const field = header.subarray(start, start + length);
      const end = field.indexOf(0);
      return field.subarray(0, end < 0 ? length : end).toString('utf8');
    };
    const size = Number.parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1) || '0';
    const name = path.posix.join(text(345, 155), text(0, 100)).replace(/^\/+/, '');
    const target = path.resolve(root, name);
    if (target !== root && !target.startsWith(`${root}${path.sep}`))
      throw new Error(`tar: ${name} fora da pasta`);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0') {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, archive.subarray(at + 512, at + 512 + size));
    } else throw new Error(`tar: tipo ${type} inesperado em ${name}`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
}
