/**
 * The alert engine's cost (`npm run bench`, after the ingest figures): OsmAnd ingest end to end
 * with the engine off and on, for 10,000 vehicles, 1,000 geofences (and one association per
 * vehicle) and 5 rules covering every vehicle; then the time from a fix sent to its alert on
 * the live stream. Prints figures, asserts nothing. BENCH_ALERT_FIXES changes the size.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { hashDevicePassword } from '../server/ingest/identity';
import {
  alertRules,
  alerts as alertsTable,
  geofences,
  geofenceVehicles,
  trackers,
  vehicles,
} from '../server/schema';
import type { RunningServer } from '../server/start';
import { BENCH_DEVICE_PASSWORD } from './device-password';
import { benchServer } from './server';

const VEHICLES = Number(process.env.BENCH_ALERT_VEHICLES ?? 10_000);
const GEOFENCES = Number(process.env.BENCH_ALERT_GEOFENCES ?? 1000);
const FIXES = Number(process.env.BENCH_ALERT_FIXES ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 256);
/** Recife and around: about 50 km × 50 km. */
const AREA = { lat: -8.3, lon: -35.1, size: 0.45 };

/** A deterministic spread of points (no Math.random: both runs see the same fixes). */
const spread = (i: number, salt: number) => {
  const x = Math.sin(i * 12.9898 + salt * 78.233) * 43_758.5453;
  return x - Math.floor(x);
};

async function seed(server: RunningServer) {
  const { db } = server.deps.database;
  const [client] = await db.query.clients.findMany({ limit: 1 });
  if (!client) throw new Error('no customer');
  const fenceIds: string[] = [];
  for (let i = 0; i < GEOFENCES; i += 500) {
    const rows = await db
      .insert(geofences)
      .values(
        Array.from({ length: Math.min(500, GEOFENCES - i) }, (_, k) => {
          const n = i + k;
          return {
            clientId: client.id,
            name: `Cerca ${n}`,
            speedLimit: n % 10 === 0 ? 40 : null,
            geometry: {
              type: 'Circle',
              center: [AREA.lon + spread(n, 1) * AREA.size, AREA.lat + spread(n, 2) * AREA.size],
              radius: 200 + spread(n, 3) * 800,
            },
          };
        }),
      )
      .returning({ id: geofences.id });
    fenceIds.push(...rows.map((r) => r.id));
  }
  for (let i = 0; i < VEHICLES; i += 500) {
    const ids = await db
      .insert(vehicles)
      .values(
        Array.from({ length: Math.min(500, VEHICLES - i) }, (_, k) => ({
          clientId: client.id,
          name: `Veículo ${i + k}`,
          plate: `BEN${String(i + k).padStart(4, '0')}`,
          type: 'truck',
        })),
      )
      .returning({ id: vehicles.id });
    await db.insert(trackers).values(
      ids.map((v, k) => ({
        clientId: client.id,
        identifier: `alert-bench-${i + k}`,
        provider: 'rastro',
        protocol: 'osmand',
        devicePasswordHash: hashDevicePassword(BENCH_DEVICE_PASSWORD),
        vehicleId: v.id,
      })),
    );
    await db.insert(geofenceVehicles).values(
      ids.map((v, k) => ({
        geofenceId: fenceIds[(i + k) % fenceIds.length] ?? '',
        vehicleId: v.id,
        restrictionType: (i + k) % 2 ? 'ALWAYS_OUTSIDE' : 'ALWAYS_INSIDE',
      })),
    );
  }
  await db.insert(alertRules).values([
    { clientId: client.id, name: 'Velocidade', type: 'OVERSPEED', params: { speedLimit: 80 } },
    { clientId: client.id, name: 'Ligou', type: 'IGNITION_ON', params: {} },
    { clientId: client.id, name: 'Desligou', type: 'IGNITION_OFF', params: {} },
    { clientId: client.id, name: 'Cercas', type: 'GEOFENCE_EXIT', params: { geofenceIds: [] } },
    { clientId: client.id, name: 'Bateria', type: 'LOW_BATTERY', params: { threshold: 20 } },
  ]);
}

async function ingest(server: RunningServer) {
  const base = `http://127.0.0.1:${server.osmandPort}`;
  const start = Math.floor(Date.now() / 1000) - FIXES;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < FIXES; i = next++) {
        const v = i % VEHICLES;
        const step = Math.floor(i / VEHICLES);
        const lat = AREA.lat + spread(v, 4) * AREA.size + step * 0.002;
        const lon = AREA.lon + spread(v, 5) * AREA.size;
        // A fleet as it drives: most under the limit, a few above it; ignition and battery
        // changing now and then, not on every fix.
        const speed = (spread(i, 6) < 0.05 ? 85 + spread(i, 9) * 30 : spread(i, 6) * 80) / 1.852;
        const ignition = spread(v * 7 + Math.floor(step / 3), 7) > 0.15;
        const batt = Math.round(60 + spread(v, 8) * 40 - step);
        const res = await fetch(
          `${base}/?password=${BENCH_DEVICE_PASSWORD}&id=alert-bench-${v}&lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}&timestamp=${start + step * 10}&speed=${speed.toFixed(1)}&ignition=${ignition}&batt=${batt}`,
        );
        await res.text();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  loop.disable();
  const alerts = await server.deps.database.db.$count(alertsTable);
  return { rate: server.deps.pipeline.stats().stored / seconds, maxPause: loop.max / 1e6, alerts };
}

/** Fix sent → alert event received on the live stream, for `rounds` ignition changes. */
async function latency(server: RunningServer, rounds = 20): Promise<number[]> {
  const login = await fetch(`${server.url}/registros/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@rastro.demo', password: 'rastro-demo' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const controller = new AbortController();
  const stream = await fetch(`${server.url}/registros/real-time/stream?events=alerts`, {
    headers: { authorization: `Bearer ${accessToken}` },
    signal: controller.signal,
  });
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const until = async (pattern: RegExp) => {
    while (!pattern.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      text += decoder.decode(value, { stream: true });
    }
  };
  await until(/event: ready/);
  const times: number[] = [];
  const t = Math.floor(Date.now() / 1000) + 10;
  const send = (round: number) =>
    fetch(
      `http://127.0.0.1:${server.osmandPort}/?password=${BENCH_DEVICE_PASSWORD}&id=alert-bench-0&lat=${AREA.lat}&lon=${AREA.lon}&timestamp=${t + round}&ignition=${round % 2 === 0}`,
    );
  // A first fix sets the ignition the timed ones then change, one edge each.
  await (await send(-1)).text();
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (let round = 0; round < rounds; round += 1) {
    text = '';
    const sent = performance.now();
    await (await send(round)).text();
    await until(/event: alert\n/);
    times.push(performance.now() - sent);
  }
  controller.abort();
  return times.sort((a, b) => a - b);
}

type Database = { url: string | undefined; drop: () => Promise<void> };

async function run(engine: boolean, database: Database) {
  const databaseUrl = database.url;
  const server = await benchServer(databaseUrl, {
    OSMAND_PORT: '0',
    INGEST_MAX_JUMP_KMH: '100000',
    ALERT_ENGINE: engine ? 'on' : 'off',
  });
  try {
    await seed(server);
    const figures = await ingest(server);
    const times = engine ? await latency(server) : [];
    return { ...figures, times };
  } finally {
    await server.close();
    await database.drop();
  }
}

export async function benchAlerts(label: string, database: () => Promise<Database | undefined>) {
  const first = await database();
  if (!first) return;
  const off = await run(false, first);
  const second = await database();
  if (!second) return;
  const on = await run(true, second);
  const pct = (p: number) =>
    on.times[Math.min(on.times.length - 1, Math.floor(p * on.times.length))] ?? 0;
  console.log(`\n${label}: alert engine`);
  console.log(
    `  ${VEHICLES} vehicles, ${GEOFENCES} geofences, 5 rules per vehicle, ${FIXES} OsmAnd fixes, ${CONCURRENCY} at a time`,
  );
  console.log(
    `    engine off: ${off.rate.toFixed(0)} positions/s (longest event-loop pause ${off.maxPause.toFixed(0)} ms)`,
  );
  console.log(
    `    engine on:  ${on.rate.toFixed(0)} positions/s (longest event-loop pause ${on.maxPause.toFixed(0)} ms), ${((on.rate / off.rate) * 100).toFixed(0)} % of off, ${on.alerts} alerts raised`,
  );
  console.log(
    `    fix → alert on the live stream: median ${pct(0.5).toFixed(0)} ms, p95 ${pct(0.95).toFixed(0)} ms (${on.times.length} fixes)`,
  );
}
