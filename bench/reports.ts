/**
 * Reports in `npm run bench` (prints figures, asserts nothing), on PGlite and, when one answers
 * on 127.0.0.1:5432, PostgreSQL:
 * - trips of one vehicle over 31 days at one fix every 10 s (267,840 positions), through the
 *   API, with the event loop's longest pause while it runs;
 * - distance per day of 500 vehicles over 31 days (`v2/distance`, whole days: the report reads
 *   the per-day rollup, so the rollup rows are written directly instead of 134 million fixes);
 * - in Chromium (PGlite run, when dist/ and Chromium exist): a day of history (8,640 points)
 *   from navigation to the route drawn and the speed chart ready to play.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { chromium } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/env';
import { type Fix, storeFixes, type TrackerRef } from '../server/ingest/queries/positions';
import { trackers, vehicles } from '../server/schema';
import { dayStart, nextDay, reportDay } from '../src/lib/report-period';
import { benchServer } from './server';

const DAYS = 31;
const FLEET = Number(process.env.BENCH_DISTANCE_VEHICLES ?? 500);

/** A month of fixes every 10 s: each day, six 45-minute trips with stops between, parked at night. */
function month(first: string): Fix[] {
  const fixes: Fix[] = [];
  let lat = -8.05;
  let lon = -34.9;
  let day = first;
  for (let d = 0; d < DAYS; d += 1, day = nextDay(day)) {
    const start = dayStart(day).getTime();
    for (let s = 0; s < 86_400; s += 10) {
      const hour = s / 3600;
      const slot = Math.floor((hour - 7) / 1.5);
      const inSlot = (hour - 7) % 1.5;
      const driving = hour >= 7 && slot < 6 && inSlot < 0.75;
      if (driving) {
        const heading = (slot * 60 * Math.PI) / 180;
        lat += (Math.cos(heading) * 150) / 111_320;
        lon += (Math.sin(heading) * 150) / 110_000;
      }
      fixes.push({
        fixTime: new Date(start + s * 1000),
        latitude: lat,
        longitude: lon,
        speed: driving ? 54 : 0,
        course: 0,
        ignition: driving || (hour >= 7 && hour < 17),
        attributes: {},
      });
    }
  }
  return fixes;
}

async function login(url: string) {
  const res = await fetch(`${url}/registros/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@rastro.demo', password: 'rastro-demo' }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

export async function benchReports(label: string, databaseUrl?: string) {
  const server = await benchServer(databaseUrl, { STATIC_DIR: path.resolve('dist') });
  try {
    const { db } = server.deps.database;
    const admin = await db.query.users.findFirst({
      where: (u, { eq }) => eq(u.email, 'admin@rastro.demo'),
    });
    if (!admin) throw new Error('no admin');
    const clientId = admin.clientId;
    const [vehicle] = await db
      .insert(vehicles)
      .values({ clientId, name: 'Caminhão do bench', plate: 'BEN1R01', type: 'truck' })
      .returning({ id: vehicles.id });
    if (!vehicle) throw new Error('no vehicle');
    const [tracker] = await db
      .insert(trackers)
      .values({ clientId, identifier: 'report-bench', provider: 'rastro', vehicleId: vehicle.id })
      .returning({ id: trackers.id });
    if (!tracker) throw new Error('no tracker');
    const ref: TrackerRef = { id: tracker.id, clientId, vehicleId: vehicle.id };
    const first = reportDay(Date.now() - (DAYS + 1) * 86_400_000);
    const fixes = month(first);
    const t0 = performance.now();
    for (let i = 0; i < fixes.length; i += 4000)
      await storeFixes(
        db,
        fixes.slice(i, i + 4000).map((fix) => ({ tracker: ref, fix })),
      );
    const stored = (performance.now() - t0) / 1000;
    const token = await login(server.url);
    const beginAt = dayStart(first).toISOString();
    const endAt = new Date(dayStart(first).getTime() + DAYS * 86_400_000).toISOString();
    const trips = async () => {
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const t = performance.now();
      const res = await fetch(
        `${server.url}/registros/reports/trips/${vehicle.id}?beginAt=${beginAt}&endAt=${endAt}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const body = (await res.json()) as { trips: unknown[] };
      const ms = performance.now() - t;
      loop.disable();
      return { ms, trips: body.trips.length, pause: loop.max / 1e6 };
    };
    const cold = await trips();
    const warm = await trips();

    // 500 vehicles × 31 days of rollup, then v2/distance over whole days.
    const ids: string[] = [];
    for (let i = 0; i < FLEET; i += 250) {
      const made = await db
        .insert(vehicles)
        .values(
          Array.from({ length: Math.min(250, FLEET - i) }, (_, k) => ({
            clientId,
            name: `Frota ${i + k}`,
            plate: `DST${String(i + k).padStart(4, '0')}`,
            type: 'van',
          })),
        )
        .returning({ id: vehicles.id });
      ids.push(...made.map((v) => v.id));
    }
    const rows = ids.flatMap((id, v) => {
      let day = first;
      return Array.from({ length: DAYS }, () => {
        const row = {
          vehicle_id: id,
          day,
          client_id: clientId,
          distance: 50_000 + ((v * 37) % 200) * 1000,
          fixes: 8640,
          first_fix: dayStart(day).toISOString(),
          last_fix: new Date(dayStart(nextDay(day)).getTime() - 10_000).toISOString(),
        };
        day = nextDay(day);
        return row;
      });
    });
    for (let i = 0; i < rows.length; i += 5000)
      await db.execute(sql`
        insert into vehicle_days (vehicle_id, day, client_id, distance, fixes, first_fix, last_fix)
        select * from jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + 5000))}::jsonb)
          as x(vehicle_id uuid, day text, client_id uuid, distance float8, fixes int,
               first_fix timestamptz, last_fix timestamptz)`);
    const distance = async () => {
      const t = performance.now();
      const res = await fetch(
        `${server.url}/registros/reports/v2/distance?vehicleIds=${ids.join(',')}&beginAt=${beginAt}&endAt=${endAt}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const text = await res.text();
      return { ms: performance.now() - t, kb: text.length / 1024, status: res.status };
    };
    await distance();
    const dist = await distance();

    console.log(`\n${label}: relatórios`);
    console.log(
      `  um mês de posições (${fixes.length.toLocaleString('pt-BR')}) gravado em ${stored.toFixed(1)} s (${Math.round(fixes.length / stored).toLocaleString('pt-BR')}/s, com hodômetro e resumo diário)`,
    );
    console.log(
      `  jornadas de 31 dias (${cold.trips} viagens): ${cold.ms.toFixed(0)} ms na primeira, ${warm.ms.toFixed(0)} ms na segunda; maior pausa do event loop ${cold.pause.toFixed(0)} ms na primeira, ${warm.pause.toFixed(0)} ms na segunda`,
    );
    console.log(
      `  distância por dia de ${FLEET} veículos em 31 dias: ${dist.ms.toFixed(0)} ms (${dist.kb.toFixed(0)} KiB, ${dist.status})`,
    );
    if (!databaseUrl) await benchHistoryInChromium(server.url, vehicle.id, nextDay(first));
  } finally {
    await server.close();
  }
}

async function benchHistoryInChromium(url: string, vehicleId: string, day: string) {
  if (!existsSync(CHROMIUM_PATH) || !existsSync('dist/index.html')) {
    console.log('  histórico no navegador: Chromium ou dist/ ausente, etapa pulada');
    return;
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${url}/login`);
    await page.getByRole('textbox', { name: 'E-mail' }).fill('admin@rastro.demo');
    await page.getByRole('textbox', { name: 'Senha' }).fill('rastro-demo');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    const figures: number[][] = [];
    for (let round = 0; round < 3; round += 1) {
      await page.goto(`${url}/reports/histories?vehicles=${vehicleId}&from=${day}&to=${day}`);
      await page.locator('[data-route-points="8640"]').waitFor({ timeout: 60_000 });
      await page.locator('.speed-chart [data-ready="true"]').waitFor({ timeout: 60_000 });
      figures.push(
        await page.evaluate(() => {
          const now = performance.now();
          const history = performance
            .getEntriesByType('resource')
            .find((e) => e.name.includes('/reports/history/')) as
            | PerformanceResourceTiming
            | undefined;
          return [
            now,
            history ? history.responseEnd : Number.NaN,
            history?.startTime ?? Number.NaN,
          ];
        }),
      );
    }
    const [total = 0, response = 0, request = 0] = figures.at(-1) ?? [];
    console.log(
      `  histórico de um dia (8.640 pontos) no Chromium: ${total.toFixed(0)} ms da navegação ao trajeto desenhado e ao gráfico pronto; ${(response - request).toFixed(0)} ms de rede e servidor, ${(total - response).toFixed(0)} ms do fim da resposta ao desenho`,
    );
  } finally {
    await browser.close();
  }
}
