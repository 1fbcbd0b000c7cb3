import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import * as v from 'valibot';
import { CompactLocationsSchema, expandLocations } from '../src/contract/compact-locations';
import { newestEvent } from '../src/lib/event-id';
import { E2E_DEVICE_PASSWORD, E2E_OSMAND_URL, E2E_URL } from './env';
import { mirroredLocations, mirrorRows } from './mirror';
import {
  adminApi,
  FleetMapPage,
  freshCnpj,
  GeofencesPage,
  Shell,
  signInAsAdmin,
  VehiclePage,
  waitForServiceWorker,
} from './pages';

/**
 * Signed in, the demo map shown and its last positions written to the mirror (once the page
 * has shown them and is idle), ready for a reload without signal: how many vehicles it shows.
 */
async function mapMirrored(page: Page): Promise<number> {
  const fleet = new FleetMapPage(page);
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await expect(fleet.listed()).toHaveText(/^([4-9]\d|\d{3,}) veículos$/, { timeout: 15_000 });
  const count = await fleet.count();
  await expect.poll(() => mirroredLocations(page)).toBeGreaterThanOrEqual(count);
  return count;
}

test('the demo map shows the fleet moving, and a chosen vehicle in its popup', async ({ page }) => {
  await signInAsAdmin(page);
  const shell = new Shell(page);
  const fleet = new FleetMapPage(page);
  await expect(shell.heading('Mapa')).toBeVisible();
  // The forty demo vehicles of the company and its children.
  await expect(fleet.listed()).toHaveText(/^([4-9]\d|\d{3,}) veículos$/, { timeout: 15_000 });
  await expect(shell.status('Ao vivo')).toBeVisible();
  await expect(fleet.situation()).toContainText(/Em movimento: [1-9]/);

  // Plates are found as people type them.
  await fleet.search().fill('pcx-1a23');
  await expect(fleet.rows()).toHaveCount(1);
  await fleet.row('PCX1A23').click();
  const popup = fleet.popup('PCX1A23');
  await expect(popup).toContainText('Onix Diretoria');
  // Its driver, identified by the RFID tag the tracker read.
  await expect(popup).toContainText('Carlos Eduardo Lima');
  await expect(popup.getByRole('link', { name: 'Ver veículo' })).toBeVisible();
  const fix = popup.locator('time');
  const first = await fix.getAttribute('datetime');
  // The simulator sends a fix every 3 s: the popup follows the vehicle's new positions.
  await expect(fix).not.toHaveAttribute('datetime', first ?? '', { timeout: 10_000 });
  await expect(popup.getByRole('button', { name: 'Parar de seguir' })).toBeVisible();
  // Followed, the whole popup stands inside the map, above the vehicle (which sits a quarter
  // below the middle): on a short map its details scroll. Its top, with 'Fechar', was cut off
  // by the map's edge.
  const fleetMap = fleet.map();
  const inside = async () => {
    const map = await fleetMap.boundingBox();
    const box = await popup.boundingBox();
    if (!map || !box) return false;
    return (
      box.height < map.height * 0.75 && box.y >= map.y && box.y + box.height <= map.y + map.height
    );
  };
  await expect.poll(inside).toBe(true);
  await popup.getByRole('button', { name: 'Fechar' }).click();
  await expect(popup).toBeHidden();
});

test('a position sent to the OsmAnd port appears on the map within 2 seconds', async ({
  page,
  request,
}) => {
  const plate = `MAP${Date.now().toString().slice(-1)}A${Date.now().toString().slice(-2)}`;
  const { headers, clientId: ownCompany } = await adminApi(request);
  const vehicle = await request.post(`${E2E_URL}/registros/vehicle`, {
    headers,
    data: { clientId: ownCompany, name: `Furgão ${plate}`, plate, type: 'van' },
  });
  expect(vehicle.status()).toBe(201);
  const { id: vehicleId } = (await vehicle.json()) as { id: string };
  const tracker = await request.post(`${E2E_URL}/registros/tracker`, {
    headers,
    data: {
      clientId: ownCompany,
      identifier: `map-${plate}`,
      provider: 'rastro',
      protocol: 'osmand',
      devicePassword: E2E_DEVICE_PASSWORD,
      vehicleId,
    },
  });
  expect(tracker.status()).toBe(201);

  await signInAsAdmin(page);
  const fleet = new FleetMapPage(page);
  await expect(new Shell(page).status('Ao vivo')).toBeVisible({ timeout: 10_000 });
  await fleet.search().fill(plate);
  await expect(page.getByText('Nenhum veículo encontrado.')).toBeVisible();

  const sent = await fetch(
    `${E2E_OSMAND_URL}/?id=map-${plate}&password=${E2E_DEVICE_PASSWORD}&lat=-8.0600&lon=-34.8900&speed=54&ignition=true`,
  );
  expect(sent.status).toBe(200);
  const row = fleet.row(plate);
  await expect(row).toContainText('100 km/h', { timeout: 2000 });
  await row.click();
  await expect(fleet.popup(plate)).toContainText(`Furgão ${plate}`);
});

test("the maps open on the chosen customer's fleet, wherever it is", async ({ page, request }) => {
  // A customer whose one vehicle is in São Paulo, far outside the demo's view of Recife.
  const { headers, clientId: ownCompany } = await adminApi(request);
  const suffix = Date.now().toString().slice(-5);
  const name = `Frota Paulista ${suffix}`;
  const customer = await request.post(`${E2E_URL}/registros/client`, {
    headers,
    data: {
      personKind: 'juridical',
      name,
      clientCNPJ: freshCnpj(),
      motherCompanyId: ownCompany,
    },
  });
  expect(customer.status()).toBe(201);
  const { id: clientId } = (await customer.json()) as { id: string };
  const plate = `SPA${suffix.slice(-1)}B${suffix.slice(-3, -1)}`;
  const vehicle = await request.post(`${E2E_URL}/registros/vehicle`, {
    headers,
    data: { clientId, name: `Utilitário ${plate}`, plate, type: 'van' },
  });
  expect(vehicle.status()).toBe(201);
  const { id: vehicleId } = (await vehicle.json()) as { id: string };
  const tracker = await request.post(`${E2E_URL}/registros/tracker`, {
    headers,
    data: {
      clientId,
      identifier: `sp-${plate}`,
      provider: 'rastro',
      protocol: 'osmand',
      devicePassword: E2E_DEVICE_PASSWORD,
      vehicleId,
    },
  });
  expect(tracker.status()).toBe(201);
  const sent = await fetch(
    `${E2E_OSMAND_URL}/?id=sp-${plate}&password=${E2E_DEVICE_PASSWORD}&lat=-23.5505&lon=-46.6333&speed=0`,
  );
  expect(sent.status).toBe(200);

  await signInAsAdmin(page);
  const fleet = new FleetMapPage(page);
  // The invitation to notifications comes in above the map a moment after sign-in and moves
  // it down: answered first, so that the map's middle measured below stays where it is.
  const shell = new Shell(page);
  await shell.putNotificationsInvitationAway();
  await expect(fleet.listed()).toHaveText(/^([4-9]\d|\d{3,}) veículos$/, { timeout: 15_000 });
  await fleet.pickCustomer(name);
  await expect(page.getByText('1 veículo', { exact: true })).toBeVisible();
  // Framed on its fleet, the map has the vehicle in its middle (the pointer turns into a hand
  // over a vehicle).
  const box = await fleet.map().boundingBox();
  if (!box) throw new Error('no map');
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const overVehicle = async (x: number, y: number) => {
    await page.mouse.move(x, y);
    return fleet.map().evaluate((region) => (region as HTMLElement).style.cursor);
  };
  await expect.poll(() => overVehicle(cx, cy), { timeout: 10_000 }).toBe('pointer');

  // Moved by the user (an arrow key pans 128 px), the map is where it was left when they
  // come back to it, not framed again: a click 128 px left of the middle opens the vehicle.
  await fleet.map().focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => overVehicle(cx - 128, cy)).toBe('pointer');
  await shell.goTo('Dashboard');
  await expect(shell.heading('Dashboard')).toBeVisible();
  await shell.goTo('Mapa');
  await expect(page.getByText('1 veículo', { exact: true })).toBeVisible();
  await expect.poll(() => overVehicle(cx - 128, cy)).toBe('pointer');
  await page.mouse.click(cx - 128, cy);
  await expect(fleet.popup(plate)).toBeVisible();

  // Its first fence is drawn near the vehicle: without fences, their map frames the fleet.
  const geofences = new GeofencesPage(page);
  await geofences.open();
  await expect(geofences.customerPicker()).toHaveValue(name);
  await expect(page.getByText('Nenhuma cerca cadastrada. Desenhe uma no mapa.')).toBeVisible();
  await expect(
    page.getByText('Os pontos no mapa são as últimas posições dos veículos.'),
  ).toBeVisible();
  const fences = await geofences.map().boundingBox();
  if (!fences) throw new Error('no geofence map');
  await geofences.startNew();
  await geofences.drawCircle();
  const [x, y] = [fences.x + fences.width / 2, fences.y + fences.height / 2];
  await page.mouse.click(x, y);
  await page.mouse.click(x + 40, y);
  await geofences.name().fill(`Base ${plate}`);
  await geofences.save();
  await expect(shell.toast('Cerca criada.')).toBeVisible();
  const list = await request.get(`${E2E_URL}/registros/geofence?clientId=${clientId}`, {
    headers,
  });
  const { items } = (await list.json()) as {
    items: { geometry: { center?: [number, number] } }[];
  };
  const [lon, lat] = items[0]?.geometry.center ?? [0, 0];
  // Beside the vehicle (40 px at the framing's zoom), not in Recife.
  expect(Math.abs(lat + 23.5505)).toBeLessThan(0.01);
  expect(Math.abs(lon + 46.6333)).toBeLessThan(0.01);
});

/**
 * Records the type of every message the page posts to a worker (`window.__posted`); with
 * `holdIdle`, the page's `idle` notices are recorded but not sent, so the locations worker
 * writes a read only when its own wait runs out.
 */
function watchWorkerPosts(page: Page, holdIdle = false) {
  return page.addInitScript(`(() => {
    const post = Worker.prototype.postMessage;
    window.__posted = [];
    Worker.prototype.postMessage = function (message, ...rest) {
      const type = message && typeof message === 'object' ? message.type : undefined;
      window.__posted.push(type);
      if (${holdIdle} && type === 'idle') return;
      return post.call(this, message, ...rest);
    };
  })()`);
}
const posted = (page: Page) => page.evaluate('window.__posted') as Promise<unknown[]>;

test('the page tells the locations worker when it has shown the rows, and the mirror is written', async ({
  page,
}) => {
  await watchWorkerPosts(page);
  await signInAsAdmin(page);
  const fleet = new FleetMapPage(page);
  await expect(fleet.listed()).toHaveText(/^([4-9]\d|\d{3,}) veículos$/, { timeout: 15_000 });
  await expect.poll(async () => (await posted(page)).includes('idle')).toBe(true);
  const count = await fleet.count();
  await expect.poll(() => mirroredLocations(page)).toBeGreaterThanOrEqual(count);
});

test('the live stream goes on from the first read before the mirror has it', async ({ page }) => {
  // The mirror is written late (no idle notice reaches the worker): the stream starts first.
  await watchWorkerPosts(page, true);
  const read = page.waitForResponse(
    (r) =>
      r.url().includes('/registros/real-time/lastLocation') && r.url().includes('format=compact'),
  );
  // The locations stream (the alerts' has `events=alerts`).
  const stream = page.waitForRequest(
    (r) => r.url().includes('/registros/real-time/stream') && !r.url().includes('events='),
  );
  await signInAsAdmin(page);
  const items = expandLocations(v.parse(CompactLocationsSchema, await (await read).json()));
  expect(items.length).toBeGreaterThan(0);
  // Resumed after the newest change the read had: nothing read twice, nothing skipped.
  expect((await (await stream).allHeaders())['last-event-id']).toBe(newestEvent(items));
  // The worker still writes the read once its own wait runs out.
  const count = await new FleetMapPage(page).count();
  await expect.poll(() => mirroredLocations(page)).toBeGreaterThanOrEqual(count);
  // The page's own notice comes too (held here), when it is idle: on a busy machine that may
  // be after the worker's wait ran out.
  await expect.poll(() => posted(page)).toContain('idle');
});

test.describe('with the service worker', () => {
  // Reloads without signal, and tiles kept for them, are answered by the service worker.
  test.use({ serviceWorkers: 'allow' });

  // Two offline reloads in one journey: the first with only the positions kept (the map must
  // not need the rest), the second once vehicles and drivers are kept too. Two journeys would
  // spend a sign-in and the worker's install twice, about 8 s here.
  test('offline, a reload shows the last positions with their age, and a vehicle chosen there opens its page from the device, its list never opened', async ({
    page,
    context,
  }) => {
    const count = await mapMirrored(page);
    const fleet = new FleetMapPage(page);

    const shell = new Shell(page);
    await context.setOffline(true);
    await page.reload();
    await expect(shell.heading('Mapa')).toBeVisible();
    await expect(shell.status(/Sem conexão — dados de \d\d:\d\d/)).toBeVisible();
    await expect(page.getByText(`${count} veículos`)).toBeVisible();
    await expect(fleet.rows().first()).toContainText(/km\/h · (agora|há \d+ (s|min))/);

    // Back online, the map catches up at once.
    await context.setOffline(false);
    await expect(shell.status('Ao vivo')).toBeVisible({ timeout: 10_000 });

    // Vehicles and drivers are kept in the background a few seconds after the map is live.
    await expect
      .poll(() => mirrorRows(page, 'vehicles'), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(count);
    await expect.poll(() => mirrorRows(page, 'drivers')).toBeGreaterThan(0);

    await context.setOffline(true);
    await page.reload();
    const popup = await fleet.openVehicle('pcx-1a23', 'PCX1A23');
    await popup.getByRole('link', { name: 'Ver veículo' }).click();
    await expect(shell.heading('Onix Diretoria')).toBeVisible();
    const vehicle = new VehiclePage(page);
    await expect(vehicle.keptOnDevice()).toBeVisible();
    await expect(vehicle.field('Placa')).toHaveValue('PCX1A23');
  });

  test('map tiles seen once are kept by the service worker for use without signal', async ({
    page,
    context,
  }) => {
    // A stand-in for the tile server (the real one is out of reach here).
    const png = readFileSync('public/icons/icon-192.png');
    await context.route('https://tile.openstreetmap.org/**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'image/png',
        headers: { 'access-control-allow-origin': '*' },
        body: png,
      }),
    );
    await signInAsAdmin(page);
    await waitForServiceWorker(page);
    const seen = new Set<string>();
    let online = true;
    page.on('response', (response) => {
      if (online && response.url().startsWith('https://tile.openstreetmap.org/'))
        seen.add(response.url());
    });
    const fleet = new FleetMapPage(page);
    await page.reload();
    await expect(fleet.map()).toHaveAttribute('data-rendered', /^\d+$/, { timeout: 15_000 });
    // Every tile seen is in the worker's cache (it writes each one after answering the page:
    // going offline at the first one raced the others).
    const cached = () =>
      page.evaluate(async () =>
        (await (await caches.open('rastro-map-tiles')).keys()).map((request) => request.url),
      );
    await expect.poll(async () => seen.size > 0 && (await cached()).length).toBeGreaterThan(0);
    await expect
      .poll(async () => {
        const urls = new Set(await cached());
        return [...seen].filter((url) => !urls.has(url));
      })
      .toEqual([]);

    online = false;
    await context.unrouteAll();
    await context.setOffline(true);
    const tiles: { fromWorker: boolean; status: number }[] = [];
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith('https://tile.openstreetmap.org/'))
        tiles.push({ fromWorker: response.fromServiceWorker(), status: response.status() });
    });
    page.on('requestfailed', (request) => {
      if (request.url().startsWith('https://tile.openstreetmap.org/')) failed.push(request.url());
    });
    await page.reload();
    await expect(fleet.map()).toHaveAttribute('data-rendered', /^\d+$/, { timeout: 15_000 });
    await expect.poll(() => tiles.length).toBeGreaterThan(0);
    expect(tiles.every((tile) => tile.fromWorker && tile.status === 200)).toBe(true);
    // Only a tile never seen can be missing (offline, the page above the map may be shorter and
    // the map show one more row).
    expect(failed.filter((url) => seen.has(url))).toEqual([]);
  });
});
