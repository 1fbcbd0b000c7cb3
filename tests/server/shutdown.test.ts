/**
 * SIGTERM under load: the real `server/main.ts` in a process of its own, OsmAnd and Wialon IPS
 * devices sending, then SIGTERM. Checked: the process stops gracefully within
 * SHUTDOWN_TIMEOUT_SECONDS (exit code 0: past the bound it exits with 1), every fix a device
 * was told was stored is stored, and every OsmAnd fix stored was answered (a request under
 * way is finished and answered before the process ends).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../../server/platform/db/client';
import { customers, signIn, vehicleWithTracker } from './alert-fixtures';
import { type Answer, type Device, startLoad } from './fixtures/device-load';
import { databaseFor, everyBackend, TEST_SECRET } from './harness';

const ROOT = path.join(import.meta.dirname, '..', '..');

interface Started {
  child: ChildProcess;
  url: string;
  osmandPort: number;
  wialonPort: number;
  /** The process's log lines (JSON). */
  log: Record<string, unknown>[];
  exited: Promise<number | null>;
}

/** `server/main.ts` as `npm run serve` runs it, on `env`; resolves once it listens. */
function startMain(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_SECRET: TEST_SECRET,
      LOG_LEVEL: 'info',
      STATIC_DIR: path.join(ROOT, '.tmp', 'no-static'),
      OSMAND_PORT: '0',
      WIALON_IPS_PORT: '0',
      // The makers' listeners off: their fixed default ports would clash with another suite's
      // process running at the same time (vitest runs files in parallel).
      GT06_PORT: 'off',
      SUNTECH_PORT: 'off',
      TELTONIKA_PORT: 'off',
      QUECLINK_PORT: 'off',
      SEED_DEMO_FLEET: 'false',
      SEED_DEMO_HISTORY_DAYS: '0',
      PAYMENTS_DEMO: 'false',
      LOGIN_SLOWDOWN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: Record<string, unknown>[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let buffered = '';
    const read = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        log.push(entry);
        if (entry.msg === 'Rastro no ar')
          resolve({
            child,
            url: entry.url as string,
            osmandPort: entry.osmandPort as number,
            wialonPort: entry.wialonPort as number,
            log,
            exited,
          });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then((code) => reject(new Error(`the server exited while starting (${code})`)));
  });
}

/** The positions of the load's trackers, as `identifier fixTime` keys. */
async function storedFixes(env: Record<string, string>) {
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR ?? 'memory://',
  });
  try {
    const rows = rowsOf<{ identifier: string; fix_time: Date | string }>(
      await database.db.execute(sql`
        select t.identifier, p.fix_time from positions p join trackers t on t.id = p.tracker_id
         where t.identifier like 'parada-%'`),
    );
    return new Set(rows.map((r) => `${r.identifier} ${new Date(r.fix_time).toISOString()}`));
  } finally {
    await database.close();
  }
}

const key = (a: Answer) => `${a.identifier} ${a.fixTime.toISOString()}`;

describe.each(await everyBackend())('SIGTERM under load on %s', (backend) => {
  it('stops within the bound with every acknowledged fix stored', async () => {
    const database = await databaseFor(backend);
    let server: Started | undefined;
    try {
      server = await startMain({ ...database.env, SHUTDOWN_TIMEOUT_SECONDS: '8' });
      const admin = await signIn(server.url, 'admin@rastro.demo');
      const { north } = await customers(admin);
      const devices: Device[] = [];
      for (let i = 0; i < 8; i += 1) {
        const identifier = `parada-${i}`;
        await vehicleWithTracker(admin, north, `PRD${i}B${String(i).padStart(2, '0')}`, identifier);
        devices.push({ identifier, protocol: i % 2 === 0 ? 'osmand' : 'wialon' });
      }
      const load = startLoad(
        { osmand: server.osmandPort, wialon: server.wialonPort },
        devices,
        new Date(Date.now() - 3600_000),
      );
      await load.until((answers) => answers.filter((a) => a.acked).length >= 60);
      server.child.kill('SIGTERM');
      const code = await server.exited;
      await load.stop();

      // Exit 0: stopped gracefully before SHUTDOWN_TIMEOUT_SECONDS (past it, the exit is 1).
      expect(code).toBe(0);
      expect(server.log.find((e) => e.msg === 'stopped')).toMatchObject({ drained: true });
      // The devices' connections ended with the stop: none was left for the deadline to cut.
      expect(server.log.map((e) => e.msg)).not.toContain('stop: deadline reached, connections cut');

      const stored = await storedFixes(database.env);
      const acked = load.answers.filter((a) => a.acked);
      expect(acked.filter((a) => !stored.has(key(a)))).toEqual([]);
      // An OsmAnd request under way is finished and answered before the process ends.
      const osmandAnswered = new Set(
        load.answers.filter((a) => a.acked && a.answer === '200').map(key),
      );
      const osmandStored = [...stored].filter((k) =>
        devices.some((d) => d.protocol === 'osmand' && k.startsWith(`${d.identifier} `)),
      );
      expect(osmandStored.filter((k) => !osmandAnswered.has(k))).toEqual([]);
    } finally {
      // A server that did not stop does not outlive the test.
      if (server?.child.exitCode === null) server.child.kill('SIGKILL');
      await database.drop();
    }
  }, 120_000);
});
