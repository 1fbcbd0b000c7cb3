/**
 * The dashboard's calls on a big fleet (`BENCH_PARTS=dashboard`): 10,000 vehicles and
 * trackers over the three demo companies, last fixes of every age (a tenth never reported),
 * 30 days of km per vehicle (300,000 vehicle_days rows) and 30,000 alerts; then each
 * `registros/dashboard/*` call over HTTP as the administrator (the whole tree), median and
 * slowest of 10, and the six together as the page asks for them. Target: ≤ 200 ms on
 * PostgreSQL. Prints figures, asserts nothing. BENCH_DASHBOARD_TRACKERS changes the size.
 */
import { sql } from 'drizzle-orm';
import { forgetPastDays } from '../server/dashboard/queries';
import type { RunningServer } from '../server/start';
import { benchServer } from './server';

const TRACKERS = Number(process.env.BENCH_DASHBOARD_TRACKERS ?? 10_000);
const CALLS = [
  'clients',
  'users',
  'tracker',
  'trackers/activity-by-time-range',
  'alerts',
  'distance',
] as const;

export async function seed(server: RunningServer) {
  const { db } = server.deps.database;
  await db.execute(sql`
    with c as (select array_agg(id order by name) as ids from clients)
    insert into vehicles (client_id, name, plate, type)
    select c.ids[1 + i % array_length(c.ids, 1)], 'Bench ' || i, 'BEN' || lpad(i::text, 5, '0'), 'truck'
      from c, generate_series(0, ${TRACKERS - 1}) as i`);
  await db.execute(sql`
    insert into trackers (client_id, identifier, provider, vehicle_id)
    select client_id, 'bench-dash-' || name, 'rastro', id from vehicles where name like 'Bench %'`);
  // Ages from seconds to 60 days; every tenth tracker never reported.
  await db.execute(sql`
    insert into last_locations (tracker_id, vehicle_id, client_id, fix_time, received_at,
                                latitude, longitude, speed, ignition)
    select t.id, t.vehicle_id, t.client_id, now() - make_interval(secs => (n * n) % 5184000),
           now(), -8.05, -34.9, (n % 7) * 10, n % 3 <> 0
      from (select *, row_number() over (order by identifier) as n from trackers
             where identifier like 'bench-dash-%') t
     where n % 10 <> 0`);
  await db.execute(sql`
    insert into vehicle_days (vehicle_id, day, client_id, distance, fixes, first_fix, last_fix)
    select v.id, to_char(current_date - d, 'YYYY-MM-DD'), v.client_id, 1000 + (d * 37 % 90000),
           100, now() - make_interval(days => d), now() - make_interval(days => d)
      from vehicles v, generate_series(0, 29) as d where v.name like 'Bench %'`);
  await db.execute(sql`
    insert into alerts (client_id, vehicle_id, type, dedupe_key, created_at, updated_at,
                        acknowledged_at)
    select v.client_id, v.id,
           (array['OVERSPEED','IGNITION_ON','IGNITION_OFF','GEOFENCE_ENTER','LOW_BATTERY'])[1 + k % 5],
           'bench-' || v.id || '-' || k, now() - make_interval(hours => (k * 7) % 720),
           now(), case when k % 4 = 0 then null else now() end
      from (select id, client_id, row_number() over () as r from vehicles where name like 'Bench %') v,
           generate_series(0, 2) as k`);
  await db.execute(sql`analyze`);
}

async function time(fn: () => Promise<unknown>, runs = 10) {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(runs / 2)] ?? 0, max: ms.at(-1) ?? 0 };
}

export async function benchDashboard(
  label: string,
  database: () => Promise<{ url: string | undefined; drop: () => Promise<void> } | undefined>,
) {
  const target = await database();
  if (!target) {
    console.log(`\n${label}: nenhum banco, etapa do dashboard pulada`);
    return;
  }
  const server = await benchServer(target.url, { PAYMENTS_DEMO: 'false' });
  try {
    const started = performance.now();
    await seed(server);
    const seeded = (performance.now() - started) / 1000;
    const login = await fetch(`${server.url}/registros/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@rastro.demo', password: 'rastro-demo' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const get = async (path: string) => {
      const res = await fetch(`${server.url}/registros/dashboard/${path}`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      return res.json();
    };
    console.log(
      `\n${label}: dashboard, ${TRACKERS} rastreadores e veículos, 30 dias de km, ${TRACKERS * 3} alertas (dados em ${seeded.toFixed(1)} s)`,
    );
    for (const call of CALLS) await get(call); // warm
    for (const call of CALLS) {
      const { median, max } = await time(() => get(call));
      console.log(`    ${call}: mediana ${median.toFixed(0)} ms, pior ${max.toFixed(0)} ms`);
    }
    for (const call of ['alerts', 'distance'] as const) {
      const cold = await time(() => {
        forgetPastDays();
        return get(call);
      }, 5);
      console.log(
        `    ${call} sem os dias passados guardados: mediana ${cold.median.toFixed(0)} ms, pior ${cold.max.toFixed(0)} ms`,
      );
    }
    const all = await time(() => Promise.all(CALLS.map(get)));
    console.log(
      `    as seis juntas (como a página pede): mediana ${all.median.toFixed(0)} ms, pior ${all.max.toFixed(0)} ms`,
    );
  } finally {
    await server.close();
    await target.drop();
  }
}
