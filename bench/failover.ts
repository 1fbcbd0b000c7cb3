/**
 * `npx tsx bench/failover.ts`: what the database's maintenance does to a server under load,
 * on a PostgreSQL of the bench's own (Debian's initdb/pg_ctl in a temporary folder, on port
 * FAILOVER_PG_PORT; as the `postgres` user when run as root), never the shared one. The server
 * runs in a process of its own with FAILOVER_DEVICES devices (half OsmAnd, half Wialon IPS,
 * one fix every FAILOVER_INTERVAL_MS each). Two drills, as in the field:
 *
 * 1. `pg_ctl restart -m fast` (a minor upgrade, a configuration change);
 * 2. `pg_ctl stop -m fast`, FAILOVER_STOP_SECONDS without a database, `pg_ctl start`.
 *
 * Prints, for each: whether the server process lived, the seconds from the database back
 * (pg_ctl returned) to the first fix stored and acknowledged, and the gap the devices saw;
 * at the end, fixes acknowledged against fixes stored (every acknowledged one must be there)
 * and the writes the server counted as refused. Asserts nothing.
 */
import { type ChildProcess, execFile, execFileSync, fork } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { type Ack, pacedLoad } from './devices';

const PG_BIN = process.env.FAILOVER_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const PG_PORT = Number(process.env.FAILOVER_PG_PORT ?? 55433);
const DEVICES = Number(process.env.FAILOVER_DEVICES ?? 300);
const INTERVAL_MS = Number(process.env.FAILOVER_INTERVAL_MS ?? 1000);
const STOP_SECONDS = Number(process.env.FAILOVER_STOP_SECONDS ?? 20);
const SETTLE_MS = 10_000;
const METRICS_TOKEN = 'failover-metrics-token-0123';

const folder = mkdtempSync(path.join(tmpdir(), 'rastro-failover-'));
const data = path.join(folder, 'data');
const asRoot = process.getuid?.() === 0;

/**
 * A PostgreSQL program, as the `postgres` user when the bench runs as root; run without
 * blocking, so that the devices of this process go on sending meanwhile.
 */
async function pgTool(tool: string, args: string[]) {
  const program = path.join(PG_BIN, tool);
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', program, ...args]]
    : [program, args];
  await promisify(execFile)(file, argv);
}

const pgCtl = (...args: string[]) =>
  pgTool('pg_ctl', [
    '-D',
    data,
    '-w',
    '-l',
    path.join(folder, 'postgres.log'),
    '-o',
    `-p ${PG_PORT} -k ${folder} -c listen_addresses=127.0.0.1`,
    ...args,
  ]);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function metric(url: string, name: string) {
  const res = await fetch(`${url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  }).catch(() => undefined);
  const text = (await res?.text()) ?? '';
  return text
    .split('\n')
    .filter((line) => line.startsWith(name))
    .map((line) => `${line.slice(name.length)}`.trim())
    .join(' ');
}

async function main() {
  if (asRoot) chownSync(folder, Number(execFileSync('id', ['-u', 'postgres']).toString()), -1);
  await pgTool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  await pgCtl('start');
  const url = `postgres://postgres@127.0.0.1:${PG_PORT}/postgres`;
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'soak-server.ts'), [], {
    execArgv: ['--max-semi-space-size=64', '--import', 'tsx'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      OSMAND_PORT: '0',
      WIALON_IPS_PORT: '0',
      METRICS_TOKEN,
      STATIC_DIR: path.join(folder, 'no-static'),
      SEED_DEMO_FLEET: 'false',
      SIMULATOR: 'off',
      SOAK_DEVICES: String(DEVICES),
      LOG_LEVEL: process.env.FAILOVER_LOG_LEVEL ?? 'error',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  const server = await new Promise<{ url: string; osmandPort: number; wialonPort: number }>(
    (resolve, reject) => {
      child.once('message', (m) =>
        resolve(m as { url: string; osmandPort: number; wialonPort: number }),
      );
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    },
  );
  const identifiers = Array.from({ length: DEVICES }, (_, d) => `soak${d}`);
  const load = pacedLoad({
    osmandPort: server.osmandPort,
    wialonPort: server.wialonPort,
    identifiers,
    intervalMs: INTERVAL_MS,
    record: true,
  });
  console.log(
    `failover: ${DEVICES} devices (half OsmAnd, half Wialon IPS), a fix every ${INTERVAL_MS} ms each, PostgreSQL on :${PG_PORT}`,
  );
  await wait(SETTLE_MS);

  const drill = async (
    name: string,
    takeAway: () => Promise<unknown>,
    bringBack: () => Promise<unknown>,
  ) => {
    const before = load.acks.length;
    const down = Date.now();
    await takeAway();
    const stoppedAt = Date.now();
    await bringBack();
    const back = Date.now();
    await wait(SETTLE_MS);
    const lastBefore = load.acks.slice(0, before).reduce((latest, a) => Math.max(latest, a.at), 0);
    const first = load.acks.slice(before).find((a) => a.at > back);
    console.log(`\n${name}`);
    console.log(`  server process alive: ${exited === undefined ? 'yes' : `no (exit ${exited})`}`);
    console.log(
      `  database away ${((back - down) / 1000).toFixed(1)} s (stopped in ${((stoppedAt - down) / 1000).toFixed(1)} s)`,
    );
    console.log(
      `  database back → first fix stored and acknowledged: ${first ? ((first.at - back) / 1000).toFixed(2) : '—'} s`,
    );
    console.log(
      `  devices without acknowledgement for ${first ? ((first.at - lastBefore) / 1000).toFixed(1) : '—'} s`,
    );
    console.log(`  rastro_database_up ${await metric(server.url, 'rastro_database_up')}`);
  };
  await drill(
    'pg_ctl restart -m fast',
    async () => {},
    () => pgCtl('restart', '-m', 'fast'),
  );
  await drill(
    `pg_ctl stop -m fast, ${STOP_SECONDS} s, pg_ctl start`,
    async () => {
      await pgCtl('stop', '-m', 'fast');
      await wait(STOP_SECONDS * 1000);
    },
    () => pgCtl('start'),
  );
  load.stop();
  await wait(1000);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ identifier: string; fix_time: Date }>(
    `select t.identifier, p.fix_time from positions p join trackers t on t.id = p.tracker_id
      where t.identifier like 'soak%'`,
  );
  await client.end();
  const stored = new Set(rows.map((r) => `${r.identifier} ${r.fix_time.toISOString()}`));
  const lost = load.acks.filter(
    (a: Ack) => !stored.has(`${a.identifier} ${a.fixTime.toISOString()}`),
  );
  console.log('\ntotal');
  console.log(
    `  sent ${load.counts.sent}, acknowledged ${load.counts.acked}, refused or unanswered ${load.counts.refused}`,
  );
  console.log(`  acknowledged and not stored: ${lost.length}`);
  console.log(
    `  rastro_database_refused_writes_total ${await metric(server.url, 'rastro_database_refused_writes_total')}`,
  );
  console.log(
    `  rastro_database_outages_total ${await metric(server.url, 'rastro_database_outages_total')}`,
  );
  if (exited === undefined) {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.send('stop');
    await gone;
  }
}

try {
  await main();
} finally {
  await pgCtl('stop', '-m', 'immediate').catch(() => {});
  rmSync(folder, { recursive: true, force: true });
}
