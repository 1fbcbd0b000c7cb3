/**
 * The base map a deployment configures: tiles from a PMTiles archive that Rastro serves
 * itself (read by range requests), and, when no tile server answers, the built-in light base
 * (land, coasts, borders) instead of a blank box. Each journey runs against a Rastro process
 * of its own, configured for it; what is drawn is checked by the colours of its pixels.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { E2E_PORT, E2E_ROOT } from './env';
import { startExtraServer } from './extra-server';
import { ADMIN, FleetMapPage, LoginPage, Shell, waitForServiceWorker } from './pages';
import { solidArchive } from './pmtiles-writer';

type Rgb = [number, number, number];
const MAGENTA: Rgb = [200, 60, 140];
/** The built-in base's sea and land (src/map/builtin-base.ts). */
const SEA: Rgb = [0xaa, 0xd3, 0xdf];
const LAND: Rgb = [0xf2, 0xef, 0xe9];

/** The share of the element's pixels within a few levels of each colour. */
async function colourShares(page: Page, element: Locator, colours: Rgb[]): Promise<number[]> {
  const png = (await element.screenshot()).toString('base64');
  return page.evaluate(
    async ({ png, colours }) => {
      // An image, not fetch(): the page's CSP allows data: images, not data: fetches.
      const bitmap = new Image();
      bitmap.src = `data:image/png;base64,${png}`;
      await bitmap.decode();
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d');
      if (!context) return colours.map(() => 0);
      context.drawImage(bitmap, 0, 0);
      const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
      const counts = colours.map(() => 0);
      for (let i = 0; i < data.length; i += 4)
        colours.forEach(([r, g, b], k) => {
          if (
            Math.abs((data[i] ?? 0) - r) <= 6 &&
            Math.abs((data[i + 1] ?? 0) - g) <= 6 &&
            Math.abs((data[i + 2] ?? 0) - b) <= 6
          )
            counts[k] = (counts[k] ?? 0) + 1;
        });
      return counts.map((count) => count / (data.length / 4));
    },
    { png, colours },
  );
}

async function signIn(page: Page, url: string) {
  await page.goto(`${url}/login`);
  await new LoginPage(page).signIn(ADMIN.email, ADMIN.password);
  await new Shell(page).expectSignedIn();
  return new FleetMapPage(page).map();
}

test.describe('a PMTiles archive served by Rastro', () => {
  let server: Awaited<ReturnType<typeof startExtraServer>> | undefined;
  test.beforeAll(async () => {
    const file = path.join(E2E_ROOT, 'base.pmtiles');
    writeFileSync(file, solidArchive(MAGENTA, 3));
    server = await startExtraServer(E2E_PORT + 1, { MAP_PMTILES_FILE: file });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("draws the archive's tiles, read by range requests", async ({ page }) => {
    const ranges: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/map/base.pmtiles')
        ranges.push(request.headers().range ?? 'sem range');
    });
    const map = await signIn(page, server?.url ?? '');
    await expect(map).toHaveAttribute('data-base-map', 'pmtiles');
    await expect(map).toHaveAttribute('data-base-tiles', /^[1-9]\d*$/);
    await expect
      .poll(async () => (await colourShares(page, map, [MAGENTA]))[0], { timeout: 15_000 })
      .toBeGreaterThan(0.5);
    expect(ranges.length).toBeGreaterThan(1);
    for (const range of ranges) expect(range).toMatch(/^bytes=\d+-\d+$/);
  });

  test.describe('with the service worker', () => {
    // Without signal, the parts read are answered by the service worker.
    test.use({ serviceWorkers: 'allow' });

    test('keeps the parts of the archive it read, for a map without signal', async ({
      page,
      context,
    }) => {
      const map = await signIn(page, server?.url ?? '');
      await waitForServiceWorker(page);
      // Read once through the worker (the first visit's reads came before it took over).
      await page.reload();
      await expect(map).toHaveAttribute('data-base-tiles', /^[1-9]\d*$/);
      await expect
        .poll(
          () =>
            page.evaluate(
              async () => (await (await caches.open('rastro-map-archive')).keys()).length,
            ),
          { timeout: 15_000 },
        )
        .toBeGreaterThan(1);

      await context.setOffline(true);
      await page.reload();
      await expect(map).toHaveAttribute('data-base-map', 'pmtiles');
      await expect(map).toHaveAttribute('data-base-tiles', /^[1-9]\d*$/, { timeout: 15_000 });
      await expect
        .poll(async () => (await colourShares(page, map, [MAGENTA]))[0], { timeout: 15_000 })
        .toBeGreaterThan(0.5);
      await context.setOffline(false);
    });
  });
});

test.describe('no tile server answering', () => {
  let server: Awaited<ReturnType<typeof startExtraServer>> | undefined;
  test.beforeAll(async () => {
    // Port 9 (discard) has no listener here: every tile request fails at once.
    server = await startExtraServer(E2E_PORT + 2, {
      MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('shows the built-in base: sea and land around Recife, not a blank box', async ({ page }) => {
    const map = await signIn(page, server?.url ?? '');
    await expect(map).toHaveAttribute('data-base-map', 'xyz');
    await expect(map).toHaveAttribute('data-builtin-base', 'drawn', { timeout: 15_000 });
    await expect(map).not.toHaveAttribute('data-base-tiles', /.*/);
    await expect
      .poll(async () => Math.min(...(await colourShares(page, map, [SEA, LAND]))), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0.05);
  });
});
