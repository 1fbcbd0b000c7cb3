/**
 * `npx tsx bench/soak.ts`: memory over time. Runs the demo (fleet, simulator, alert rules) in
 * a server process of its own (bench/soak-server.ts) with a load of SOAK_DEVICES devices
 * besides (half OsmAnd over HTTP, half Wialon IPS on long TCP connections, one fix every
 * SOAK_INTERVAL_SECONDS each) and SOAK_STREAMS live streams connected the whole time, for
 * SOAK_MINUTES; samples the server's resident memory and heap (its own /metrics) every
 * SOAK_SAMPLE_SECONDS. Prints every sample, then the samples at the start, after the warm-up
 * (SOAK_WARMUP_MINUTES) and at the end, with the trend after the warm-up (least squares, MB
 * per hour). Asserts nothing: a growth trend after warm-up is for a person to read.
 *
 * The database is an embedded PGlite in a fresh folder (the demo's default), or the
 * PostgreSQL database of SOAK_DATABASE_URL.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pacedLoad } from './devices';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES ?? 10);
const DEVICES = Number(process.env.SOAK_DEVICES ?? 300);
const STREAMS = Number(process.env.SOAK_STREAMS ?? 20);
const INTERVAL_MS = Number(process.env.SOAK_INTERVAL_SECONDS ?? 10) * 1000;
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30) * 1000;
const PORT = process.env.SOAK_PORT ?? '0';
const METRICS_TOKEN = 'soak-metrics-token-0123456789';

interface Sample {
  minute: number;
  rssMb: number;
  heapMb: number;
  stored: number;
  streamed: number;
}

/** Where the soak server listens (its IPC message). */
interface Listening {
  url: string;
  osmandPort: number;
  wialonPort: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function startServer(dataDir: string) {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'soak-server.ts'), [], {
    execArgv: ['--max-semi-space-size=64', '--import', 'tsx'],
    env: {
      ...process.env,
      PORT,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(process.env.SOAK_DATABASE_URL ? { DATABASE_URL: process.env.SOAK_DATABASE_URL } : {}),
      OSMAND_PORT: '0',
      WIALON_IPS_PORT: '0',
      METRICS_TOKEN,
      STATIC_DIR: path.join(dataDir, 'no-static'),
      SEED_DEMO_HISTORY_DAYS: process.env.SEED_DEMO_HISTORY_DAYS ?? '1',
      SOAK_DEVICES: String(DEVICES),
      LOG_LEVEL: process.env.SOAK_LOG_LEVEL ?? 'error',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<{ child: ChildProcess } & Listening>((resolve, reject) => {
    child.once('message', (m) => resolve({ child, ...(m as Listening) }));
    child.once('exit', (code) => reject(new Error(`the soak server exited (${code})`)));
  });
}

/** A live stream kept open (reopened from its last id when it drops); counts its events. */
function liveStream(url: string, token: string, counts: { streamed: number }) {
  const controller = new AbortController();
  let lastId: string | undefined;
  const open = async () => {
    while (!controller.signal.aborted) {
      try {
        const res = await fetch(`${url}/registros/real-time/stream`, {
          headers: {
            authorization: `Bearer ${token}`,
            ...(lastId ? { 'last-event-id': lastId } : {}),
          },
          signal: controller.signal,
        });
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const id = /^id: (.*)$/m.exec(block)?.[1];
            if (id) lastId = id;
            if (block.startsWith('event: location')) counts.streamed += 1;
          }
        }
      } catch {
        // dropped: opened again below
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  void open();
  return () => controller.abort();
}

async function signIn(url: string) {
  const res = await fetch(`${url}/registros/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@rastro.demo', password: 'rastro-demo' }),
  });
  const body = (await res.json()) as { accessToken: string; refreshToken: string };
  return body;
}

async function metrics(url: string) {
  const res = await fetch(`${url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const value = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    rss: value('process_resident_memory_bytes'),
    heap: value('nodejs_heap_used_bytes'),
    stored: value('rastro_ingest_fixes_total\\{result="stored"\\}'),
  };
}

/** Least-squares slope of RSS (MB per hour) over the samples. */
function trend(samples: Sample[]) {
  if (samples.length < 2) return Number.NaN;
  const n = samples.length;
  const mx = samples.reduce((s, x) => s + x.minute, 0) / n;
  const my = samples.reduce((s, x) => s + x.rssMb, 0) / n;
  let num = 0;
  let den = 0;
  for (const x of samples) {
    num += (x.minute - mx) * (x.rssMb - my);
    den += (x.minute - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rastro-soak-'));
  const server = await startServer(dataDir);
  console.log(
    `soak: ${MINUTES} min, ${DEVICES} devices every ${INTERVAL_MS / 1000} s, ${STREAMS} live streams, ${process.env.SOAK_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; server pid ${server.child.pid}`,
  );
  const counts = { streamed: 0 };
  // The access token lasts 15 minutes: the streams are opened again with a fresh one then.
  let session = await signIn(server.url);
  let stopStreams = Array.from({ length: STREAMS }, () =>
    liveStream(server.url, session.accessToken, counts),
  );
  const refresh = setInterval(async () => {
    session = await signIn(server.url).catch(() => session);
    for (const stop of stopStreams) stop();
    stopStreams = Array.from({ length: STREAMS }, () =>
      liveStream(server.url, session.accessToken, counts),
    );
  }, 10 * 60_000);
  const load = pacedLoad({
    osmandPort: server.osmandPort,
    wialonPort: server.wialonPort,
    identifiers: Array.from({ length: DEVICES }, (_, d) => `soak${d}`),
    intervalMs: INTERVAL_MS,
  });
  const started = Date.now();
  const samples: Sample[] = [];
  const sample = async () => {
    const m = await metrics(server.url);
    const s: Sample = {
      minute: Math.round(((Date.now() - started) / 60_000) * 10) / 10,
      rssMb: mb(m.rss),
      heapMb: mb(m.heap),
      stored: m.stored,
      streamed: counts.streamed,
    };
    samples.push(s);
    console.log(
      `${s.minute} min  rss ${s.rssMb} MB  heap ${s.heapMb} MB  stored ${s.stored}  acked ${load.counts.acked}  streamed ${s.streamed}`,
    );
  };
  await sample();
  while (Date.now() - started < MINUTES * 60_000) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    await sample().catch((err: unknown) => console.log('sample failed', err));
  }
  load.stop();
  clearInterval(refresh);
  for (const stop of stopStreams) stop();
  const warm = samples.filter((s) => s.minute >= WARMUP_MINUTES);
  const at = (s: Sample | undefined) =>
    s ? `${s.minute} min: rss ${s.rssMb} MB, heap ${s.heapMb} MB` : '—';
  console.log('\nsoak summary');
  console.log(`  start          ${at(samples[0])}`);
  console.log(`  after warm-up  ${at(warm[0])}`);
  console.log(`  end            ${at(samples.at(-1))}`);
  console.log(
    `  after warm-up: rss min ${Math.min(...warm.map((s) => s.rssMb))} MB, max ${Math.max(...warm.map((s) => s.rssMb))} MB, trend ${trend(warm).toFixed(1)} MB/h`,
  );
  console.log(
    `  fixes stored ${samples.at(-1)?.stored}, acknowledged to the load ${load.counts.acked}, location events streamed ${counts.streamed}`,
  );
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send('stop');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
