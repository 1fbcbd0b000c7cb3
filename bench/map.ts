/**
 * The browser half of `npm run bench` (Chromium, headless, software rendering): with
 * BENCH_MAP_VEHICLES (10,000) vehicles reporting,
 * - the time from navigation to every vehicle drawn from the IndexedDB mirror with the
 *   network cut (a reload served by the service worker), and for the reload after it;
 * - the time for a round of updates of every vehicle, from the ingest of the fixes to the
 *   frame that shows them (ingest → live stream → mirror → map), and the page's own share of
 *   it: from the end of the ingest to that frame. BENCH_MAP_ROUNDS (3) rounds, each printed
 *   and then the median: one round alone moves by a few hundred ms from run to run here.
 * Each is the moment of the frame itself (the vehicle layer's performance mark), beside when
 * the bench saw it. On PGlite and, when one answers, on PostgreSQL. Prints figures; asserts
 * nothing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/env';
import { mirroredLocations } from '../e2e/mirror';
import type { Fix } from '../server/ingest/queries/positions';
import { trackers, vehicles } from '../server/schema';
import { DRAWN_MARK, type DrawnDetail } from '../src/map/drawn-mark';
import { benchServer } from './server';

const VEHICLES = Number(process.env.BENCH_MAP_VEHICLES ?? 10_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_MAP_ROUNDS ?? 3));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

function fixAt(i: number, when: Date, shift: number): Fix {
  // A grid over greater Recife, about 30 × 30 km.
  const row = Math.floor(i / 100);
  const col = i % 100;
  return {
    fixTime: when,
    latitude: -8.2 + row * 0.003 + shift,
    longitude: -35.05 + col * 0.003,
    speed: (i * 7) % 90,
    course: (i * 37) % 360,
    ignition: i % 5 !== 0,
    attributes: {},
  };
}

/**
 * When (epoch ms) the vehicle layer drew the frame with these values, from its performance
 * mark (src/map/drawn-mark.ts); undefined when the latest mark is another frame's.
 */
function frameAt(page: Page, want: Partial<DrawnDetail>) {
  return page.evaluate(
    ({ mark, want }) => {
      const [entry] = performance.getEntriesByName(mark, 'mark') as PerformanceMark[];
      const detail = entry?.detail as DrawnDetail | undefined;
      if (!entry || !detail) return undefined;
      if (want.rendered !== undefined && detail.rendered !== want.rendered) return undefined;
      if (want.oldestFix !== undefined && detail.oldestFix !== want.oldestFix) return undefined;
      return performance.timeOrigin + entry.startTime;
    },
    { mark: DRAWN_MARK, want },
  );
}

export async function benchMap(label: string, databaseUrl?: string) {
  if (!existsSync(CHROMIUM_PATH)) {
    console.log(
      `\nNavegador: ${CHROMIUM_PATH} não encontrado, etapa pulada (npm run test:e2e instala)`,
    );
    return;
  }
  if (!existsSync('dist/index.html')) {
    console.log('\nNavegador: dist/ não existe, rode npm run build antes; etapa pulada');
    return;
  }
  const server = await benchServer(databaseUrl, { STATIC_DIR: path.resolve('dist') });
  const { db } = server.deps.database;
  const admin = await db.query.users.findFirst({
    where: (u, { eq }) => eq(u.email, 'admin@rastro.demo'),
  });
  if (!admin?.clientId) throw new Error('no admin');
  const clientId = admin.clientId;
  for (let i = 0; i < VEHICLES; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, VEHICLES - i) }, (_, k) => i + k);
    const made = await db
      .insert(vehicles)
      .values(
        batch.map((n) => ({
          clientId,
          name: `Veículo ${n}`,
          plate: `BEN${String(n).padStart(4, '0')}`,
          type: ['truck', 'car', 'van', 'motorcycle', 'bus'][n % 5] ?? 'car',
        })),
      )
      .returning({ id: vehicles.id });
    await db.insert(trackers).values(
      made.map((v, k) => ({
        clientId,
        identifier: `map-bench-${i + k}`,
        provider: 'rastro',
        vehicleId: v.id,
      })),
    );
  }
  const ingest = async (when: Date, shift: number) => {
    await Promise.all(
      Array.from({ length: VEHICLES }, (_, i) =>
        server.deps.pipeline.accept(`map-bench-${i}`, [fixAt(i, when, shift)]),
      ),
    );
  };
  await ingest(new Date(Date.now() - 60_000), 0);

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('textbox', { name: 'E-mail' }).fill('admin@rastro.demo');
    await page.getByRole('textbox', { name: 'Senha' }).fill('rastro-demo');
    await page.getByRole('button', { name: 'Entrar' }).click();
    const map = page.getByRole('region', { name: 'Mapa da frota' });
    const t0 = performance.now();
    const started = Date.now();
    await map.and(page.locator(`[data-rendered="${VEHICLES}"]`)).waitFor({ timeout: 120_000 });
    const online = performance.now() - t0;
    const onlineFrame = await frameAt(page, { rendered: VEHICLES });
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The reload shows what the mirror holds: written once the page has drawn it and is idle.
    const mirrorStarted = performance.now();
    while ((await mirroredLocations(page)) < VEHICLES) {
      if (performance.now() - mirrorStarted > 60_000) throw new Error('mirror not written');
      await page.waitForTimeout(50);
    }

    await context.setOffline(true);
    await page.reload();
    await map.and(page.locator(`[data-rendered="${VEHICLES}"]`)).waitFor({ timeout: 120_000 });
    const offline = await page.evaluate(() => {
      const [nav] = performance.getEntriesByType('navigation');
      return performance.now() - (nav?.startTime ?? 0);
    });
    // The mark's time is counted from this document's navigation, like `offline`.
    const offlineOrigin = await page.evaluate(() => performance.timeOrigin);
    const offlineDrawn = await frameAt(page, { rendered: VEHICLES });
    // Once more: the first reload is the first one served by a service worker just
    // installed, with no compiled code kept yet; an app opened again without signal has both.
    await page.waitForTimeout(1000);
    await page.reload();
    await map.and(page.locator(`[data-rendered="${VEHICLES}"]`)).waitFor({ timeout: 120_000 });
    const againOrigin = await page.evaluate(() => performance.timeOrigin);
    const againDrawn = await frameAt(page, { rendered: VEHICLES });

    await context.setOffline(false);
    await page.getByRole('status').filter({ hasText: 'Ao vivo' }).waitFor({ timeout: 120_000 });
    // The page's longest main-thread task while the round is applied.
    await page.evaluate(() => {
      const w = window as unknown as { longest: number };
      w.longest = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.longest = Math.max(w.longest, entry.duration);
      }).observe({ type: 'longtask' });
    });
    const rounds: { frame?: number; seen: number; stored: number; longest: number }[] = [];
    for (let k = 1; k <= ROUNDS; k += 1) {
      await page.evaluate(() => {
        (window as unknown as { longest: number }).longest = 0;
      });
      const when = new Date(Date.now() - 1000);
      const t1 = performance.now();
      const roundStarted = Date.now();
      await ingest(when, 0.001 * k);
      const stored = performance.now() - t1;
      await map
        .and(page.locator(`[data-rendered-oldest-fix="${when.toISOString()}"]`))
        .waitFor({ timeout: 120_000 });
      const seen = performance.now() - t1;
      const frame = await frameAt(page, { oldestFix: when.toISOString() });
      rounds.push({
        frame: frame === undefined ? undefined : frame - roundStarted,
        seen,
        stored,
        longest: await page.evaluate(() => (window as unknown as { longest: number }).longest),
      });
      // The page settles (the mirror's last writes, a collection) before the next round.
      await page.waitForTimeout(1500);
    }

    console.log(`\nChromium (headless, renderização por software): ${VEHICLES} veículos, ${label}`);
    // The frame's own moment (the layer's performance mark) and, for comparison, when the
    // bench saw the attribute (Playwright polls: up to half a second later).
    const since = (at: number | undefined, from: number) =>
      at === undefined ? 'sem marca' : `${(at - from).toFixed(0)} ms`;
    // The longtask entries start at 50 ms: 0 is none over 50.
    const task = (ms: number) => (ms > 0 ? `${ms.toFixed(0)} ms` : 'nenhuma acima de 50 ms');
    console.log(
      `  primeira abertura online (entrar → todos desenhados): ${since(onlineFrame, started)} (visto pelo bench: ${online.toFixed(0)} ms)`,
    );
    console.log(
      `  recarga sem rede (navegação → todos desenhados do espelho): ${since(offlineDrawn, offlineOrigin)} (visto pelo bench: ${offline.toFixed(0)} ms); a seguinte: ${since(againDrawn, againOrigin)}`,
    );
    rounds.forEach((r, i) => {
      console.log(
        `  rodada ${i + 1} de ${VEHICLES} atualizações (ingestão → quadro desenhado): ${since(r.frame, 0)} (visto pelo bench: ${r.seen.toFixed(0)} ms; ingestão ${r.stored.toFixed(0)} ms; parte da página ${since(r.frame, r.stored)}; tarefa mais longa ${task(r.longest)})`,
      );
    });
    const framed = rounds.flatMap((r) => (r.frame === undefined ? [] : [r]));
    console.log(
      `  mediana das ${rounds.length} rodadas: ${median(framed.map((r) => r.frame ?? 0)).toFixed(0)} ms (ingestão ${median(rounds.map((r) => r.stored)).toFixed(0)} ms, parte da página ${median(framed.map((r) => (r.frame ?? 0) - r.stored)).toFixed(0)} ms); tarefa mais longa de todas: ${task(Math.max(...rounds.map((r) => r.longest)))}`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
