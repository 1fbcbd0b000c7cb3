/**
 * Ingest throughput with the alert engine on: the server here, the devices in a child process
 * (bench/load.ts) so that they do not share its event loop. Wialon IPS: 2,000 devices on their
 * own TCP connections, one packet in flight each; OsmAnd: 128 requests in flight; each makers'
 * protocol (GT06, Suntech, Teltonika, Queclink): 500 devices on their own connections, one
 * message in flight (Teltonika: a packet of 10 records). Every vehicle is covered by three
 * rules (overspeed, ignition on, ignition off).
 * Prints positions stored per second, the server's longest event-loop pause and its peak
 * resident memory while the load runs. BENCH_INGEST_SECONDS, BENCH_WIALON_DEVICES,
 * BENCH_OSMAND_CONCURRENCY, BENCH_NATIVE_DEVICES, BENCH_TELTONIKA_RECORDS and
 * BENCH_INGEST_PROTOCOLS (wialon,osmand,gt06,suntech,teltonika,queclink) change it.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { hashDevicePassword } from '../server/ingest/identity';
import type { NativeProtocol } from '../server/ingest/native/codecs';
import { rowsOf } from '../server/platform/db/client';
import { alertRules, alerts, trackers, vehicles } from '../server/schema';
import type { RunningServer } from '../server/start';
import type { DeviceProtocol } from '../src/contract';
import { BENCH_DEVICE_PASSWORD } from './device-password';
import { withLoopWatch } from './loop-watch';
import { benchServer } from './server';

const SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 10);
const WIALON_DEVICES = Number(process.env.BENCH_WIALON_DEVICES ?? 2000);
const OSMAND_DEVICES = Number(process.env.BENCH_OSMAND_DEVICES ?? 2000);
const OSMAND_CONCURRENCY = Number(process.env.BENCH_OSMAND_CONCURRENCY ?? 128);
/** Which protocols to drive (BENCH_INGEST_PROTOCOLS=wialon,osmand). */
const PROTOCOLS = (
  process.env.BENCH_INGEST_PROTOCOLS ?? 'wialon,osmand,gt06,suntech,teltonika,queclink'
).split(',');
/** Devices of each makers' protocol, and the records a Teltonika packet carries. */
const NATIVE_DEVICES = Number(process.env.BENCH_NATIVE_DEVICES ?? 500);
const TELTONIKA_RECORDS = Number(process.env.BENCH_TELTONIKA_RECORDS ?? 10);
/** The makers' devices' IMEIs begin so (one prefix each, so that they never collide). */
const NATIVE_PREFIX: Record<NativeProtocol, string> = {
  gt06: '3510',
  suntech: '3520',
  teltonika: '3530',
  queclink: '3540',
};

/**
 * `count` vehicles with a tracker each (identifiers `prefix`0…), of the first customer, each
 * bound to `protocol` with BENCH_DEVICE_PASSWORD (the ingest checks both on every message).
 */
export async function seed(
  server: RunningServer,
  prefix: string,
  count: number,
  protocol: DeviceProtocol | null = null,
  /** Identifiers of this many characters (zeros after the prefix): a makers' IMEI is 15. */
  width?: number,
) {
  const { db } = server.deps.database;
  const [client] = await db.query.clients.findMany({ limit: 1 });
  if (!client) throw new Error('no customer');
  for (let i = 0; i < count; i += 500) {
    const made = await db
      .insert(vehicles)
      .values(
        Array.from({ length: Math.min(500, count - i) }, (_, k) => ({
          clientId: client.id,
          name: `Veículo ${prefix}${i + k}`,
          plate: `${prefix.slice(0, 3).toUpperCase()}${String(i + k).padStart(4, '0')}`,
          type: 'truck',
        })),
      )
      .returning({ id: vehicles.id });
    await db.insert(trackers).values(
      made.map((v, k) => ({
        clientId: client.id,
        identifier: width
          ? `${prefix}${String(i + k).padStart(width - prefix.length, '0')}`
          : `${prefix}${i + k}`,
        provider: 'rastro',
        protocol,
        devicePasswordHash: hashDevicePassword(BENCH_DEVICE_PASSWORD),
        vehicleId: v.id,
      })),
    );
  }
  return client.id;
}

/** Three rules covering every vehicle of the customer: the alert engine works on every fix. */
export async function coverWithRules(server: RunningServer, clientId: string) {
  await server.deps.database.db.insert(alertRules).values([
    { clientId, name: 'Velocidade', type: 'OVERSPEED', params: { speedLimit: 80 } },
    { clientId, name: 'Ligou', type: 'IGNITION_ON', params: {} },
    { clientId, name: 'Desligou', type: 'IGNITION_OFF', params: {} },
  ]);
}

const TICKS_PER_MS = 100 / 1000;

/**
 * CPU time (ms) of each PostgreSQL server process of this database so far (from /proc, when
 * the server runs on this machine): the database's share of the work.
 */
async function databaseCpuMs(server: RunningServer): Promise<Map<number, number> | undefined> {
  if (server.deps.database.kind !== 'postgres') return undefined;
  const pids = rowsOf<{ pid: number }>(
    await server.deps.database.db.execute(
      sql`select pid from pg_stat_activity where datname = current_database()`,
    ),
  );
  const ms = new Map<number, number>();
  for (const { pid } of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ms.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS);
    } catch {
      // Gone meanwhile.
    }
  }
  return ms;
}

/** CPU used between two readings: a process started meanwhile counts whole. */
function cpuBetween(before: Map<number, number>, after: Map<number, number>) {
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}

/** Runs the load generator on `port` for SECONDS; the server's figures meanwhile. */
async function drive(
  server: RunningServer,
  job: {
    protocol: 'wialon' | 'osmand' | NativeProtocol;
    port: number;
    prefix: string;
    devices: number;
    records?: number;
  },
) {
  const child = fork(
    path.join(import.meta.dirname, 'load.ts'),
    [JSON.stringify({ ...job, concurrency: OSMAND_CONCURRENCY, seconds: SECONDS })],
    { execArgv: ['--import', 'tsx'] },
  );
  // Measured from the moment the devices start sending (logins and start-up left out).
  let before = { stored: 0, cpu: process.cpuUsage() };
  const database = server.deps.database;
  let busyBefore: { server: EventLoopUtilization; db: EventLoopUtilization | undefined } = {
    server: performance.eventLoopUtilization(),
    db: database.utilization?.(),
  };
  let dbBefore: Map<number, number> | undefined;
  // The server's resident memory at its highest while the devices send (the young
  // generation's size shows here: see docs/deployment.md, "O coletor de lixo").
  let rssPeak = 0;
  let rssTimer: NodeJS.Timeout | undefined;
  let watch: Promise<{ ms: number; pauseMs: number }> | undefined;
  let done: (() => void) | undefined;
  const result = await new Promise<{ sent: number; acked: number; ms: number; cpuMs: number }>(
    (resolve, reject) => {
      child.on('message', (m: { go?: boolean }) => {
        if (m.go) {
          before = { stored: server.deps.pipeline.stats().stored, cpu: process.cpuUsage() };
          busyBefore = {
            server: performance.eventLoopUtilization(),
            db: database.utilization?.(),
          };
          rssTimer = setInterval(() => {
            rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
          }, 100);
          rssTimer.unref();
          void databaseCpuMs(server).then((ms) => {
            dbBefore = ms;
          });
          watch = withLoopWatch(
            () =>
              new Promise<void>((end) => {
                done = end;
              }),
          );
        } else resolve(m as { sent: number; acked: number; ms: number; cpuMs: number });
      });
      child.once('exit', (code) => {
        if (code !== 0) reject(new Error(`load generator exited (${code})`));
      });
    },
  );
  clearInterval(rssTimer);
  const cpu = process.cpuUsage(before.cpu);
  const serverBusy = performance.eventLoopUtilization(busyBefore.server).utilization;
  const dbBusy = busyBefore.db && database.utilization?.(busyBefore.db).utilization;
  const dbAfter = await databaseCpuMs(server);
  done?.();
  const { pauseMs } = (await watch) ?? { pauseMs: 0 };
  const stored = server.deps.pipeline.stats().stored - before.stored;
  // The server's own CPU time per 1,000 positions: what the machine's other load does not change.
  const cpuPer1000 = ((cpu.user + cpu.system) / 1000 / Math.max(1, stored)) * 1000;
  const dbPer1000 =
    dbBefore === undefined || dbAfter === undefined
      ? undefined
      : (cpuBetween(dbBefore, dbAfter) / Math.max(1, stored)) * 1000;
  const loadPer1000 = (result.cpuMs / Math.max(1, stored)) * 1000;
  return {
    ...result,
    stored,
    rate: stored / (result.ms / 1000),
    pauseMs,
    cpuPer1000,
    dbPer1000,
    loadPer1000,
    serverBusy,
    dbBusy,
    rssPeakMb: rssPeak / 1024 / 1024,
  };
}

/**
 * CPU per 1,000 positions stored (the server, the database on PostgreSQL, the devices), and
 * how busy the server's thread and PGlite's were: the one near 100 % is the limit.
 */
function cpuText(r: {
  cpuPer1000: number;
  dbPer1000: number | undefined;
  loadPer1000: number;
  serverBusy: number;
  dbBusy: number | undefined;
}) {
  const db = r.dbPer1000 === undefined ? '' : `, PostgreSQL ${r.dbPer1000.toFixed(0)} ms`;
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  const dbBusy = r.dbBusy === undefined ? '' : `, PGlite thread ${pct(r.dbBusy)}`;
  return `CPU per 1,000: server ${r.cpuPer1000.toFixed(0)} ms${db}, load generator ${r.loadPer1000.toFixed(0)} ms; busy: server thread ${pct(r.serverBusy)}${dbBusy}`;
}

const NATIVE_TITLES: Record<NativeProtocol, string> = {
  gt06: 'GT06',
  suntech: 'Suntech',
  teltonika: 'Teltonika Codec 8',
  queclink: 'Queclink @Track',
};

export async function benchIngest(label: string, databaseUrl?: string) {
  const server: RunningServer = await benchServer(databaseUrl, {
    OSMAND_PORT: '0',
    WIALON_IPS_PORT: '0',
    GT06_PORT: '0',
    SUNTECH_PORT: '0',
    TELTONIKA_PORT: '0',
    QUECLINK_PORT: '0',
    WIALON_IPS_MAX_CONNECTIONS_PER_ADDRESS: String(WIALON_DEVICES + 10),
    ALERT_ENGINE: 'on',
  });
  try {
    const clientId = await seed(server, 'wia-', WIALON_DEVICES, 'wialon_ips');
    await seed(server, 'osm-', OSMAND_DEVICES, 'osmand');
    for (const [protocol, prefix] of Object.entries(NATIVE_PREFIX) as [NativeProtocol, string][])
      if (PROTOCOLS.includes(protocol)) await seed(server, prefix, NATIVE_DEVICES, protocol, 15);
    await coverWithRules(server, clientId);
    console.log(`\n${label}: ingest with the alert engine on (load generator in a child process)`);
    const runs = [
      {
        protocol: 'wialon' as const,
        port: server.wialonPort ?? 0,
        prefix: 'wia-',
        devices: WIALON_DEVICES,
        title: `Wialon IPS, ${WIALON_DEVICES} devices, one packet in flight each`,
      },
      {
        protocol: 'osmand' as const,
        port: server.osmandPort ?? 0,
        prefix: 'osm-',
        devices: OSMAND_DEVICES,
        title: `OsmAnd, ${OSMAND_CONCURRENCY} requests in flight`,
      },
      ...(Object.entries(NATIVE_PREFIX) as [NativeProtocol, string][]).map(
        ([protocol, prefix]) => ({
          protocol,
          port: server.nativePorts[protocol] ?? 0,
          prefix,
          devices: NATIVE_DEVICES,
          records: protocol === 'teltonika' ? TELTONIKA_RECORDS : 1,
          title: `${NATIVE_TITLES[protocol]}, ${NATIVE_DEVICES} devices, ${
            protocol === 'suntech' || protocol === 'gt06'
              ? 'no answer to a position: one each every 25 ms'
              : protocol === 'teltonika'
                ? `${TELTONIKA_RECORDS} records a packet, one packet in flight each`
                : 'one message in flight each'
          }`,
        }),
      ),
    ];
    for (const { title, ...job } of runs) {
      if (!PROTOCOLS.includes(job.protocol)) continue;
      const r = await drive(server, job);
      console.log(
        `  ${title}: ${r.rate.toFixed(0)} positions/s stored (${r.stored} in ${(r.ms / 1000).toFixed(1)} s), longest pause ${r.pauseMs.toFixed(0)} ms, peak RSS ${r.rssPeakMb.toFixed(0)} MB, ${cpuText(r)}`,
      );
    }
    const raised = await server.deps.database.db.$count(alerts);
    console.log(
      `  alerts raised: ${raised}; load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} (2 cores: other work on the machine lowers these figures)`,
    );
  } finally {
    await server.close();
  }
}
