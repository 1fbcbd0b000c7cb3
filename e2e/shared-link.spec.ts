/**
 * A shared link shares the location: opened on a phone by someone who never signs in, it
 * shows the vehicle on a map, with the age of its fix and when the link stops working, and
 * the marker moves when the vehicle reports again.
 */
import { expect, test } from '@playwright/test';
import { E2E_DEVICE_PASSWORD, E2E_OSMAND_URL, E2E_URL } from './env';
import { adminApi, SharedLinkPage } from './pages';

test('a temporary link opened in a fresh phone shows the vehicle moving on a map', async ({
  browser,
  request,
}) => {
  const n = Date.now() % 100_000;
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const plate = `L${letters[n % 26]}${letters[Math.floor(n / 26) % 26]}${n % 10}${letters[(n >> 2) % 26]}${String(n % 100).padStart(2, '0')}`;
  const { headers, clientId: ownCompany } = await adminApi(request);
  const vehicle = await request.post(`${E2E_URL}/registros/vehicle`, {
    headers,
    data: { clientId: ownCompany, name: `Entrega ${plate}`, plate, type: 'light_truck' },
  });
  const { id: vehicleId } = (await vehicle.json()) as { id: string };
  await request.post(`${E2E_URL}/registros/tracker`, {
    headers,
    data: {
      clientId: ownCompany,
      identifier: `link-${plate}`,
      provider: 'rastro',
      protocol: 'osmand',
      devicePassword: E2E_DEVICE_PASSWORD,
      vehicleId,
    },
  });
  const report = (lat: string, lon: string) =>
    fetch(
      `${E2E_OSMAND_URL}/?id=link-${plate}&password=${E2E_DEVICE_PASSWORD}&lat=${lat}&lon=${lon}&speed=20&ignition=true`,
    );
  expect((await report('-8.0600', '-34.8900')).status).toBe(200);
  const created = await request.post(`${E2E_URL}/registros/temporaryUser/create_temporary_link`, {
    headers,
    data: { name: `Sua entrega ${plate}`, vehicleIds: [vehicleId], expiresInHours: 4 },
  });
  const { link } = (await created.json()) as { link: string };

  const stranger = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
  });
  const page = await stranger.newPage();
  const visitor = new SharedLinkPage(page);
  await visitor.open(link);
  await expect(visitor.heading(`Sua entrega ${plate}`)).toBeVisible();
  await expect(page.getByText(/válido até \d\d\/\d\d\/\d{4}/)).toBeVisible();
  await expect(visitor.map()).toBeVisible();
  const shared = visitor.vehicles();
  await expect(shared).toContainText(plate);
  await expect(shared).toContainText(/Em movimento · 37 km\/h · (agora|há \d+ s)/);

  await shared.getByRole('button', { name: 'Ver no mapa' }).click();
  const popup = visitor.popup(plate);
  await expect(popup).toContainText('-8.06000, -34.89000');

  // The vehicle reports again: the marker (and its popup) move there while the page is open.
  expect((await report('-8.0650', '-34.8950')).status).toBe(200);
  await expect(popup).toContainText('-8.06500, -34.89500', { timeout: 15_000 });
  await stranger.close();
});
