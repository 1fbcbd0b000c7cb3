/**
 * The embedded database on its worker thread (server/platform/db/pglite-thread.ts): the server's
 * event loop keeps running while PGlite works, statements and transactions stay in order as
 * with one connection, PostgreSQL's errors keep their SQLSTATE, large results arrive whole,
 * a data folder keeps its data across a restart and flushes its commits to the disk, a crashed
 * thread comes back with the settings it was started with, an in-memory database starts from a
 * dump of another, every thread runs the PostgreSQL the process compiled once, and close()
 * ends the thread.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../../server/platform/db/client';
import { compiledPglite, startPgliteThread } from '../../server/platform/db/pglite-thread';

/** The database's own error under drizzle's wrapper. */
function databaseError(err: unknown): { code?: string; constraint?: string } {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (typeof (e as { code?: unknown }).code === 'string') return e as { code: string };
  }
  return {};
}

/** The page cache the database runs with (PGLITE_SHARED_BUFFERS). */
async function pageCache(database: Database): Promise<string | undefined> {
  const [row] = rowsOf<{ size: string }>(
    await database.db.execute(sql`select current_setting('shared_buffers') as size`),
  );
  return row?.size;
}

describe('PGlite on its own thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await database.db.execute(sql`create table t (id int primary key, note text not null)`);
  });
  afterAll(() => database.close());

  it('leaves the event loop free while a statement runs', async () => {
    let finished = false;
    const sleeping = database.db.execute(sql`select pg_sleep(1.5)`).then(() => {
      finished = true;
    });
    // In-process, PGlite held the thread for the whole statement: this timer could only
    // fire after it, by which time the statement had already resolved.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(finished).toBe(false);
    await sleeping;
    expect(finished).toBe(true);
  });

  it('keeps a transaction whole: a statement outside it waits for its end', async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let begun: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (1, 'dentro')`);
      begun();
      await held;
      order.push('commit');
    });
    await inside;
    const outside = database.db.execute(sql`select count(*)::int as n from t`).then((result) => {
      order.push('outside');
      return rowsOf<{ n: number }>(result)[0]?.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    // The outside read ran after the commit and saw the row.
    expect(await outside).toBe(1);
    expect(order).toEqual(['commit', 'outside']);
  });

  it('rolls a failed transaction back, with the SQLSTATE and constraint of the failure', async () => {
    const failure = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into t values (2, 'primeiro')`);
        await tx.execute(sql`insert into t values (1, 'repetido')`);
      })
      .catch((err: unknown) => err);
    expect(databaseError(failure)).toMatchObject({ code: '23505', constraint: 't_pkey' });
    const rows = rowsOf<{ id: number }>(await database.db.execute(sql`select id from t`));
    expect(rows.map((r) => r.id)).toEqual([1]);
  });

  it('rolls back only a failed savepoint inside a transaction', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (3, 'fica')`);
      const inner = await tx
        .transaction(async (nested) => {
          await nested.execute(sql`insert into t values (4, 'sai')`);
          await nested.execute(sql`select 'x'::int`);
        })
        .catch((err: unknown) => err);
      expect(databaseError(inner).code).toBe('22P02');
    });
    const rows = rowsOf<{ id: number }>(
      await database.db.execute(sql`select id from t order by id`),
    );
    expect(rows.map((r) => r.id)).toEqual([1, 3]);
  });

  it('answers a large result whole and in order', async () => {
    const rows = rowsOf<{ n: number; label: string }>(
      await database.db.execute(
        sql`select n, repeat('x', 40) || n as label from generate_series(1, 60000) n order by n`,
      ),
    );
    expect(rows).toHaveLength(60_000);
    expect(rows[0]).toEqual({ n: 1, label: `${'x'.repeat(40)}1` });
    expect(rows.at(-1)?.n).toBe(60_000);
    expect(rows.every((row, i) => row.n === i + 1)).toBe(true);
  });

  it('still answers after a statement fails outside a transaction', async () => {
    const failure = await database.db.execute(sql`select 1 / 0`).catch((err: unknown) => err);
    expect(databaseError(failure).code).toBe('22012');
    const [row] = rowsOf<{ one: number }>(await database.db.execute(sql`select 1 as one`));
    expect(row?.one).toBe(1);
  });

  it('runs every thread on the PostgreSQL the process compiled once', async () => {
    const compiled = await compiledPglite();
    expect(await compiledPglite()).toBe(compiled);
    // The thread runs the module it is handed: an empty one has no PostgreSQL in it.
    const empty = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    await expect(startPgliteThread({ dataDir: 'memory://', wasmModule: empty })).rejects.toThrow();
    // This suite's database, opened as the server opens one, started on the process's module
    // and answers.
    const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select 41 + 1 as n`));
    expect(row?.n).toBe(42);
  });
});

describe('PGlite in a data folder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rastro-pglite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates, keeps its data across a restart, and refuses work once closed', async () => {
    const first = await openDatabase({ dataDir: dir, pgliteSharedBuffers: '16MB' });
    // Every commit is flushed to the disk: PGlite's own start runs with fsync off, and an
    // acknowledged fix would be lost on a power cut.
    expect(
      rowsOf<{ name: string; setting: string }>(
        await first.db.execute(
          sql`select name, setting from pg_settings where name in ('fsync', 'wal_sync_method')
               order by name`,
        ),
      ),
    ).toEqual([
      { name: 'fsync', setting: 'on' },
      { name: 'wal_sync_method', setting: 'fsync' },
    ]);
    expect(await pageCache(first)).toBe('16MB');
    // A thread that crashed is started again on the folder, with the page cache it was given.
    await first.crash?.();
    await expect
      .poll(() => pageCache(first).catch(() => 'fora do ar'), { timeout: 20_000 })
      .toBe('16MB');
    await first.migrate();
    await first.db.execute(sql`create table kept (note text)`);
    await first.db.execute(sql`insert into kept values ('gravado')`);
    await first.close();
    const closed = await first.db.execute(sql`select 1`).catch((err: unknown) => err);
    expect(closed).toBeInstanceOf(Error);

    const second = await openDatabase({ dataDir: dir });
    try {
      await second.migrate();
      const rows = rowsOf<{ note: string }>(await second.db.execute(sql`select note from kept`));
      expect(rows).toEqual([{ note: 'gravado' }]);
      // The page cache is a start parameter, not kept in the folder: PostgreSQL's default.
      expect(await pageCache(second)).toBe('128MB');
      const [users] = rowsOf<{ found: boolean }>(
        await second.db.execute(sql`select to_regclass('users') is not null as found`),
      );
      expect(users?.found).toBe(true);
    } finally {
      await second.close();
    }
  });
});

describe('PGlite from a snapshot', () => {
  it('starts an in-memory database from a dump of another, which stays apart', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rastro-snapshot-'));
    const first = await openDatabase({ dataDir: 'memory://' });
    try {
      await first.db.execute(sql`create table kept (id int primary key)`);
      await first.db.execute(sql`insert into kept values (1), (2)`);
      const file = path.join(dir, 'data.tar');
      if (!first.dump) throw new Error('PGlite: no dump');
      writeFileSync(file, await first.dump());
      // Work after the dump is not in it.
      await first.db.execute(sql`insert into kept values (3)`);
      const copy = await openDatabase({
        dataDir: 'memory://',
        snapshot: file,
        pgliteSharedBuffers: '16MB',
      });
      try {
        expect(await pageCache(copy)).toBe('16MB');
        const ids = rowsOf<{ id: number }>(
          await copy.db.execute(sql`select id from kept order by id`),
        );
        expect(ids.map((row) => row.id)).toEqual([1, 2]);
        // Writes to the copy stay in the copy.
        await copy.db.execute(sql`insert into kept values (9)`);
        const [row] = rowsOf<{ n: number }>(
          await first.db.execute(sql`select count(*)::int as n from kept where id = 9`),
        );
        expect(row?.n).toBe(0);
      } finally {
        await copy.close();
      }
    } finally {
      await first.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
