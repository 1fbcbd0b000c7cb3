/**
 * `npm run bench`: prints figures, asserts nothing. Ingest end to end (OsmAnd HTTP → committed
 * position and last location) on PGlite and, when one answers on 127.0.0.1:5432, PostgreSQL,
 * with the event loop's longest pause; then `lastLocation` for every tracker: time and bytes.
 * BENCH_TRACKERS, BENCH_FIXES and BENCH_CONCURRENCY (devices sending at once) change the sizes;
 * BENCH_PARTS (pglite, postgres, ingest, batch, reports, alerts, dashboard, map, push, files;
 * comma-separated) runs only some parts; `ingest` is the throughput with the alert engine on
 * and the devices in a child process.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import pg from 'pg';
import { hashDevicePassword } from '../server/ingest/identity';
import { trackers, vehicles } from '../server/schema';
import type { RunningServer } from '../server/start';
import { benchAlerts } from './alerts';
import { benchBatch } from './batch';
import { benchDashboard } from './dashboard';
import { BENCH_DEVICE_PASSWORD } from './device-password';
import { benchFiles } from './files';
import { benchIngest } from './ingest';
import { benchLongQuery } from './long-query';
import { withLoopWatch } from './loop-watch';

import { benchMap } from './map';
import { benchPush } from './push';
import { benchReports } from './reports';
import { benchServer } from './server';

const TRACKERS = Number(process.env.BENCH_TRACKERS ?? 10_000);
const FIXES = Number(process.env.BENCH_FIXES ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 256);
const ADMIN_URL = process.env.RASTRO_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 1500 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `rastro_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    url: ADMIN_URL.replace(/\/[^/]*$/, `/${name}`),
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Bytes of an answer as they travel (compressed or not), and its Content-Encoding. */
function onTheWire(url: string, headers: Record<string, string>) {
  return new Promise<{ bytes: number; encoding: string }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () =>
        resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function bench(label: string, databaseUrl?: string) {
  const server: RunningServer = await benchServer(databaseUrl, {
    OSMAND_PORT: '0',
    WIALON_IPS_PORT: '0',
    INGEST_MAX_JUMP_KMH: '100000',
  });
  const { db } = server.deps.database;
  const [client] = await db.query.clients.findMany({ limit: 1 });
  if (!client) throw new Error('no customer');
  // A fleet as a customer has it: each tracker in a named vehicle with a plate and a type.
  for (let i = 0; i < TRACKERS; i += 500) {
    const batch = Array.from({ length: Math.min(500, TRACKERS - i) }, (_, k) => i + k);
    const made = await db
      .insert(vehicles)
      .values(
        batch.map((n) => ({
          clientId: client.id,
          name: `Veículo ${n}`,
          plate: `${String.fromCharCode(65 + (n % 26), 65 + ((n >> 5) % 26), 65 + ((n >> 10) % 26))}${n % 10}${String.fromCharCode(65 + ((n * 7) % 26))}${String(n % 100).padStart(2, '0')}`,
          type: ['truck', 'car', 'van', 'motorcycle', 'bus'][n % 5] ?? 'car',
        })),
      )
      .returning({ id: vehicles.id });
    await db.insert(trackers).values(
      made.map((vehicle, k) => ({
        clientId: client.id,
        identifier: `bench-${i + k}`,
        provider: 'rastro',
        protocol: 'osmand',
        devicePasswordHash: hashDevicePassword(BENCH_DEVICE_PASSWORD),
        vehicleId: vehicle.id,
      })),
    );
  }
  const base = `http://127.0.0.1:${server.osmandPort}`;
  const start = Math.floor(Date.now() / 1000) - FIXES;
  let next = 0;
  const { ms, pauseMs } = await withLoopWatch(() =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < FIXES; i = next++) {
          const tracker = i % TRACKERS;
          const step = Math.floor(i / TRACKERS);
          const res = await fetch(
            `${base}/?password=${BENCH_DEVICE_PASSWORD}&id=bench-${tracker}&lat=${(-8 - tracker / 1000 - step / 100000).toFixed(6)}&lon=-34.9&timestamp=${start + step}&speed=20`,
          );
          await res.text();
        }
      }),
    ),
  );
  const seconds = ms / 1000;
  const stats = server.deps.pipeline.stats();

  const login = await fetch(`${server.url}/registros/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@rastro.demo', password: 'rastro-demo' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const t1 = performance.now();
  const last = await fetch(`${server.url}/registros/real-time/lastLocation`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const body = await last.text();
  const lastMs = performance.now() - t1;

  console.log(`\n${label}`);
  console.log(
    `  ingest (OsmAnd → commit): ${FIXES} fixes, ${TRACKERS} trackers, ${CONCURRENCY} at a time`,
  );
  console.log(
    `    ${(stats.stored / seconds).toFixed(0)} positions/s stored (${stats.stored} stored in ${seconds.toFixed(2)} s)`,
  );
  console.log(`    event loop: longest pause ${pauseMs.toFixed(0)} ms`);
  console.log(
    `  lastLocation for ${TRACKERS} trackers: ${lastMs.toFixed(0)} ms, ${(body.length / 1024).toFixed(0)} KiB`,
  );
  const auth = { authorization: `Bearer ${accessToken}` };
  for (const [name, url] of [
    ['lastLocation', `${server.url}/registros/real-time/lastLocation`],
    [
      'lastLocation?format=compact',
      `${server.url}/registros/real-time/lastLocation?format=compact`,
    ],
  ] as const) {
    const sizes = [];
    for (const encoding of ['identity', 'gzip', 'br']) {
      const wire = await onTheWire(url, { ...auth, 'accept-encoding': encoding });
      sizes.push(`${encoding} ${(wire.bytes / 1024).toFixed(0)} KiB (${wire.encoding})`);
    }
    console.log(`    ${name} no fio: ${sizes.join(', ')}`);
  }
  const tracker = await db.query.trackers.findFirst({
    where: (t, { eq }) => eq(t.identifier, 'bench-0'),
  });
  if (tracker) await benchLongQuery(db, tracker);
  await server.close();
}

/** BENCH_PARTS (e.g. `pglite,map`) runs only those parts; all by default. BENCH_ONLY=reports
 * (kept for habit) is `BENCH_PARTS=reports`. */
const PARTS = (
  process.env.BENCH_ONLY === 'reports'
    ? 'reports'
    : (process.env.BENCH_PARTS ??
      'pglite,postgres,ingest,batch,reports,alerts,dashboard,map,push,files')
).split(',');

if (PARTS.includes('pglite')) await bench('PGlite (embedded)');
if (PARTS.includes('reports')) await benchReports('PGlite (embedded)');
const postgres =
  PARTS.includes('postgres') || PARTS.includes('reports') ? await postgresDatabase() : undefined;
if (postgres) {
  try {
    if (PARTS.includes('postgres')) await bench('PostgreSQL (127.0.0.1:5432)', postgres.url);
    if (PARTS.includes('reports')) await benchReports('PostgreSQL (127.0.0.1:5432)', postgres.url);
  } finally {
    await postgres.drop();
  }
} else if (PARTS.includes('postgres')) {
  console.log('\nPostgreSQL: nenhum servidor em 127.0.0.1:5432, etapa pulada');
}

/**
 * A part on PGlite, then on a fresh PostgreSQL database when one answers (dropped after);
 * `on` leaves one of them out.
 */
async function onEach(
  part: (label: string, databaseUrl?: string) => Promise<void>,
  on = ['pglite', 'postgres'],
) {
  if (on.includes('pglite')) await part('PGlite (embedded)');
  const database = on.includes('postgres') ? await postgresDatabase() : undefined;
  if (!database) return;
  try {
    await part('PostgreSQL (127.0.0.1:5432)', database.url);
  } finally {
    await database.drop();
  }
}

// BENCH_INGEST_ON=postgres (or pglite) measures one database only; BENCH_BATCH_ON the same.
if (PARTS.includes('ingest'))
  await onEach(benchIngest, (process.env.BENCH_INGEST_ON ?? 'pglite,postgres').split(','));
if (PARTS.includes('batch'))
  await onEach(benchBatch, (process.env.BENCH_BATCH_ON ?? 'pglite,postgres').split(','));

if (PARTS.includes('alerts')) {
  await benchAlerts('PGlite (embedded)', async () => ({ url: undefined, drop: async () => {} }));
  await benchAlerts('PostgreSQL (127.0.0.1:5432)', postgresDatabase);
}

if (PARTS.includes('dashboard')) {
  await benchDashboard('PostgreSQL (127.0.0.1:5432)', postgresDatabase);
  await benchDashboard('PGlite (embedded)', async () => ({ url: undefined, drop: async () => {} }));
}

// PGlite (the embedded default) and PostgreSQL: a fleet of 10,000 is a PostgreSQL deployment,
// where the round's ingest part is shorter.
if (PARTS.includes('map')) await onEach(benchMap);
if (PARTS.includes('push')) await benchPush();
if (PARTS.includes('files')) await benchFiles();
