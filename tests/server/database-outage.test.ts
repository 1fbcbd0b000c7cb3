/**
 * A real PostgreSQL taken away under load and brought back, as a restart (pg_ctl restart -m
 * fast) or a network cut does: a TCP proxy in front of the shared server refuses connections
 * and the server ends the ones open (FATAL 57P01, as a restart sends), or the proxy breaks
 * them. The Rastro server runs in a process of its own, with OsmAnd and Wialon IPS devices
 * sending and a live stream open. Checked: the process lives; no device was told a fix was
 * stored that was not; the API answers 503 with its message and the health tells the truth;
 * /metrics says the database is down and counts the refused writes; writing resumes by itself
 * when the database is back; the live stream stays open and catches up with every tracker's
 * last position. The embedded database's own failure, its thread ending, is ridden through
 * the same way: a new thread on the same data folder.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/platform/db/client';
import type { RunningServer } from '../../server/start';
import { type Caller, customers, signIn, startReal, vehicleWithTracker } from './alert-fixtures';
import { type Answer, type Device, startLoad } from './fixtures/device-load';
import { openStream } from './fixtures/live-stream';
import { type SecondProcess, startSecondProcess } from './fixtures/second-process';
import { startProxy, type TcpProxy } from './fixtures/tcp-proxy';
import { databaseFor, PG_ADMIN_URL, postgresAvailable } from './harness';

const METRICS_TOKEN = 'metricas-dos-testes-de-queda';
const UNAVAILABLE = 'Serviço temporariamente indisponível. Tente novamente em instantes.';

/** Polls `check` until it holds: a wait for a condition, not for a time. */
async function until(check: () => Promise<boolean> | boolean) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** `waiting`, or a failure as soon as the server process exits (it must not). */
function alive<T>(server: SecondProcess, waiting: Promise<T>): Promise<T> {
  const exited = new Promise<never>((_, reject) => {
    if (server.child.exitCode !== null) reject(new Error('the server process is gone'));
    server.child.once('exit', (code) => reject(new Error(`the server process exited (${code})`)));
  });
  return Promise.race([waiting, exited]);
}

/** One figure of the server's /metrics (labels as written there), or undefined. */
async function metric(url: string, name: string) {
  const res = await fetch(`${url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/** A query on the database straight, not through the proxy. */
async function direct<T extends pg.QueryResultRow>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Ends every connection of the database from the server's side, as a restart does. */
async function terminateConnections(databaseUrl: string) {
  const name = new URL(databaseUrl).pathname.slice(1);
  await direct(
    PG_ADMIN_URL,
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [name],
  );
}

/** Every fix a device was told was stored is in `positions` (no false acknowledgement). */
async function expectEveryAckStored(databaseUrl: string, answers: Answer[]) {
  const acked = answers.filter((a) => a.acked);
  const rows = await direct<{ identifier: string; fix_time: Date }>(
    databaseUrl,
    `select t.identifier, p.fix_time from positions p join trackers t on t.id = p.tracker_id
      where t.identifier like 'queda-%'`,
  );
  const stored = new Set(rows.map((r) => `${r.identifier} ${r.fix_time.toISOString()}`));
  const missing = acked.filter((a) => !stored.has(`${a.identifier} ${a.fixTime.toISOString()}`));
  expect(missing).toEqual([]);
  return acked.length;
}

describe.runIf(await postgresAvailable())('a PostgreSQL that goes away under load', () => {
  let database: Awaited<ReturnType<typeof databaseFor>>;
  let proxy: TcpProxy;
  let server: SecondProcess;
  let admin: Caller;
  const devices: Device[] = [];

  beforeAll(async () => {
    database = await databaseFor('postgres');
    proxy = await startProxy(5432);
    const url = new URL(database.env.DATABASE_URL as string);
    url.port = String(proxy.port);
    server = await startSecondProcess(url.toString(), {
      WIALON_IPS_PORT: '0',
      METRICS_TOKEN,
      STREAM_HEARTBEAT_SECONDS: '1',
      // Short pauses between attempts to reach the database: the test waits for conditions.
      DATABASE_RETRY_MAX_MS: '100',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
    });
    admin = await signIn(server.url, 'admin@rastro.demo');
    const { north } = await customers(admin);
    for (let i = 0; i < 8; i += 1) {
      const identifier = `queda-${i}`;
      await vehicleWithTracker(admin, north, `QDA${i}A${String(i).padStart(2, '0')}`, identifier);
      devices.push({ identifier, protocol: i % 2 === 0 ? 'osmand' : 'wialon' });
    }
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  });

  /**
   * Devices send and a stream is open; `takeAway` takes the database away; checked while it is
   * away and after `proxy.restore()` brings it back.
   */
  async function rideThrough(what: string, from: Date, takeAway: () => Promise<void>) {
    const stream = await openStream(server.url, admin);
    const load = startLoad(
      { osmand: server.port, wialon: server.wialonPort ?? undefined },
      devices,
      from,
    );
    try {
      await alive(
        server,
        load.until((answers) => answers.filter((a) => a.acked).length >= 40),
      );
      expect(await metric(server.url, 'rastro_database_up')).toBe(1);

      const outages = (await metric(server.url, 'rastro_database_outages_total')) ?? 0;
      await takeAway();
      await alive(
        server,
        until(async () => (await metric(server.url, 'rastro_database_up')) === 0),
      );
      const down = Date.now();
      await alive(
        server,
        load.until((answers) => answers.some((a) => a.at > down && !a.acked)),
      );

      // Meanwhile: alive, not ready, the API says why, the figures tell the truth.
      const live = await fetch(`${server.url}/health/live`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${server.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'database_unreachable' });
      expect((await fetch(`${server.url}/health`)).status).toBe(503);
      const api = await admin.call('GET', '/registros/client?limit=100');
      expect(api).toEqual({
        status: 503,
        body: { statusCode: 503, code: 'SERVER_ERROR', message: UNAVAILABLE },
      });
      await until(
        async () =>
          ((await metric(server.url, 'rastro_database_refused_writes_total{source="osmand"}')) ??
            0) > 0,
      );
      expect(await metric(server.url, 'rastro_database_outages_total')).toBe(outages + 1);
      expect(server.child.exitCode).toBeNull();

      // Back: writing resumes by itself.
      await proxy.restore();
      const back = Date.now();
      await alive(
        server,
        load.until((answers) => answers.filter((a) => a.acked && a.at > back).length >= 40),
      );
      const first = load.answers.find((a) => a.acked && a.at > back);
      console.info(
        `${what}: database back → first fix stored and acknowledged: ${(((first?.at ?? back) - back) / 1000).toFixed(2)} s`,
      );
      expect(await metric(server.url, 'rastro_database_up')).toBe(1);
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
      expect((await admin.call('GET', '/registros/client?limit=100')).status).toBe(200);
      await load.stop();

      const acked = await expectEveryAckStored(database.env.DATABASE_URL as string, load.answers);
      expect(acked).toBeGreaterThanOrEqual(80);
      expect(load.answers.filter((a) => !a.acked).length).toBeGreaterThan(0);

      // The stream stayed open through it all and reached every tracker's last position.
      const last = await direct<{ tracker_id: string; fix_time: Date }>(
        database.env.DATABASE_URL as string,
        `select l.tracker_id, l.fix_time from last_locations l
         join trackers t on t.id = l.tracker_id where t.identifier like 'queda-%'`,
      );
      expect(last).toHaveLength(devices.length);
      for (const { tracker_id, fix_time } of last)
        await stream.next(
          (e) =>
            e.event === 'location' &&
            e.data.trackerId === tracker_id &&
            e.data.fixTime === fix_time.toISOString(),
        );
      expect(stream.closed()).toBe(false);
      expect(stream.events.filter((e) => e.event === 'end')).toEqual([]);
      const ids = stream.events.filter((e) => e.id !== undefined).map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(server.child.exitCode).toBeNull();
    } finally {
      await load.stop();
      stream.close();
    }
  }

  it(
    'lives through a restart: nothing falsely acknowledged, writing and the stream resume',
    () =>
      // No new connection is taken, and the server ends the ones open (FATAL 57P01).
      rideThrough('restart', new Date(Date.now() - 3 * 3600_000), async () => {
        await proxy.refuse();
        await terminateConnections(database.env.DATABASE_URL as string);
      }),
    120_000,
  );

  it(
    'lives through a network cut the same way',
    () =>
      // Connections broken with no word from the server, and new ones refused.
      rideThrough('network cut', new Date(Date.now() - 2 * 3600_000), async () => {
        await proxy.refuse();
        proxy.drop();
      }),
    120_000,
  );
});

describe('an embedded database whose thread crashes under load', () => {
  let folder: Awaited<ReturnType<typeof databaseFor>>;
  let server: RunningServer;
  let admin: Caller;
  const devices: Device[] = [];

  beforeAll(async () => {
    folder = await databaseFor('pglite');
    server = await startReal({
      ...folder.env,
      STREAM_HEARTBEAT_SECONDS: '1',
      DATABASE_RETRY_MAX_MS: '100',
    });
    admin = await signIn(server.url, 'admin@rastro.demo');
    const { south } = await customers(admin);
    for (let i = 0; i < 6; i += 1) {
      const identifier = `queda-${i}`;
      await vehicleWithTracker(admin, south, `QDB${i}C${String(i).padStart(2, '0')}`, identifier);
      devices.push({ identifier, protocol: i % 2 === 0 ? 'osmand' : 'wialon' });
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await folder?.drop();
  });

  it('starts a new thread on the same folder, with nothing acknowledged lost', async () => {
    const stream = await openStream(server.url, admin);
    const load = startLoad(
      { osmand: server.osmandPort ?? 0, wialon: server.wialonPort ?? undefined },
      devices,
      new Date(Date.now() - 3600_000),
    );
    try {
      await load.until((answers) => answers.filter((a) => a.acked).length >= 30);
      const { database } = server.deps;
      await database.crash?.();
      const crashed = Date.now();
      await load.until((answers) => answers.filter((a) => a.acked && a.at > crashed).length >= 30);
      await load.stop();
      // Every fix acknowledged, before the crash and after it, is in the folder.
      const stored = new Set(
        rowsOf<{ identifier: string; fix_time: Date | string }>(
          await database.db.execute(sql`
            select t.identifier, p.fix_time from positions p
              join trackers t on t.id = p.tracker_id where t.identifier like 'queda-%'`),
        ).map((r) => `${r.identifier} ${new Date(r.fix_time).toISOString()}`),
      );
      const acked = load.answers.filter((a) => a.acked);
      expect(
        acked.filter((a) => !stored.has(`${a.identifier} ${a.fixTime.toISOString()}`)),
      ).toEqual([]);
      // The stream stayed open and reached every tracker's last position.
      const last = rowsOf<{ tracker_id: string; fix_time: Date | string }>(
        await database.db.execute(sql`
          select l.tracker_id, l.fix_time from last_locations l
            join trackers t on t.id = l.tracker_id where t.identifier like 'queda-%'`),
      );
      expect(last).toHaveLength(devices.length);
      for (const { tracker_id, fix_time } of last)
        await stream.next(
          (e) =>
            e.event === 'location' &&
            e.data.trackerId === tracker_id &&
            e.data.fixTime === new Date(fix_time).toISOString(),
        );
      expect(stream.closed()).toBe(false);
    } finally {
      await load.stop();
      stream.close();
    }
  }, 120_000);
});
