/**
 * On a 390 × 844 phone: failed saves are visible, lists are cards, the map's popup is a sheet
 * with its actions in view, and toasts leave the page usable.
 */
import { expect, test } from '@playwright/test';
import {
  FleetMapPage,
  REGISTERS,
  ResourceListPage,
  Shell,
  signInAs,
  signInAsAdmin,
  VehiclePage,
  waitForServiceWorker,
} from './pages';
import { deliver, pushAlert, workerRegistration } from './push-delivery';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

test('a failed save puts the first invalid field in view, focused, with the summary', async ({
  page,
}) => {
  const vehicle = new VehiclePage(page);
  await signInAsAdmin(page, vehicle.newPath());
  await vehicle.field('Nome').fill('Caminhão sem placa');
  // At the end of a long form, far below the plate.
  await vehicle.field('RENAVAM').scrollIntoViewIfNeeded();
  const plate = vehicle.field('Placa');
  await expect(plate).not.toBeInViewport();
  await vehicle.save();
  await expect(plate).toBeFocused();
  await expect(plate).toBeInViewport();
  await expect(vehicle.invalidSummary()).toBeInViewport();
  await expect(vehicle.saveButton()).toBeInViewport();
});

test('a list shows cards with their actions in view', async ({ page }) => {
  const vehicles = new ResourceListPage(page, REGISTERS.vehicles);
  await signInAs(page, 'operador@rastro.demo', 'Otávio Operador', vehicles.path);
  await vehicles.search().fill('kgh-1l23');
  const card = vehicles.row('KGH1L23');
  // Each value says which column it is (the headers are hidden on phones).
  await expect(card.getByRole('gridcell', { name: 'Empresa Transportes Norte' })).toBeVisible();
  const edit = card.getByRole('link', { name: /^Editar / });
  await expect(edit).toBeInViewport({ ratio: 1 });
  // Nothing of a card starts off-screen.
  const box = await card.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(390);
});

test('the vehicle popup docks at the bottom and leaves the zoom buttons free', async ({ page }) => {
  await signInAsAdmin(page);
  const fleet = new FleetMapPage(page);
  const popup = await fleet.openVehicle('PCX1A23', 'PCX1A23');
  await expect(popup).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Copiar coordenadas' })).toBeVisible();
  // The sheet's title and actions are in view whole; the details between them scroll. The
  // sheet is measured with each action: its last alerts arrive after it opens and move it.
  for (const action of [
    popup.getByRole('button', { name: 'Fechar' }),
    popup.getByRole('button', { name: /seguir/ }),
    popup.getByRole('link', { name: 'Ver veículo' }),
    popup.getByRole('link', { name: 'Ver alertas' }),
  ]) {
    await expect(action).toBeInViewport({ ratio: 1 });
    await expect(async () => {
      const sheet = await page.locator('.map-sheet').boundingBox();
      const box = await action.boundingBox();
      if (!sheet || !box) throw new Error('the sheet or an action is not laid out');
      expect(box.y + box.height).toBeLessThanOrEqual(sheet.y + sheet.height);
    }).toPass({ timeout: 5_000 });
  }
  for (const name of ['+', '–']) {
    const button = fleet.map().getByRole('button', { name, exact: true });
    const box = await button.boundingBox();
    if (!box) throw new Error(`zoom button ${name} not laid out`);
    // What a finger on the button's middle touches is the button itself.
    const touched = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.closest('button')?.textContent,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(touched).toBe(name);
  }
});

test.describe('with the service worker', () => {
  // Alerts arrive as pushes through the service worker.
  test.use({ serviceWorkers: 'allow' });

  test('a phone shows the two newest toasts, their buttons under the text', async ({ page }) => {
    await signInAsAdmin(page);
    await waitForServiceWorker(page);
    const { cdp, id } = await workerRegistration(page);
    const shell = new Shell(page);
    await shell.dismissToasts();
    const alerts = [5, 6, 7].map((n) =>
      pushAlert(n, 'GEOFENCE_EXIT', `Saída de cerca — RST1D0${n}`),
    );
    for (const alert of alerts) {
      await deliver(cdp, id, alert);
      await expect(shell.toast(alert.title)).toHaveCount(1);
    }
    const [oldest, middle, newest] = alerts.map((alert) => shell.alertToast(alert.title));
    if (!oldest || !middle || !newest) throw new Error('three toasts');
    const shown = shell.toasts().locator('.toast:visible');
    await expect(newest).toBeVisible();
    await expect(middle).toBeVisible();
    await expect(oldest).toBeHidden();
    await expect(shown).toHaveCount(2);
    // The topmost shown says one more waits.
    await expect(middle.locator('.toast-more:visible')).toHaveText(/^Mais \d+ notificaç(ão|ões)/);
    // Text across the toast's width, 'Ver alertas' and 'Fechar' on the line below it.
    const whole = await newest.boundingBox();
    const text = await newest.locator('.toast-content').boundingBox();
    const title = await newest.locator('.toast-title').boundingBox();
    const close = await newest.getByRole('button', { name: 'Fechar' }).boundingBox();
    if (!whole || !text || !title || !close) throw new Error('toast not laid out');
    expect(text.width).toBeGreaterThan(whole.width - 40);
    expect(close.y).toBeGreaterThanOrEqual(title.y + title.height);
    await expect(newest.getByRole('button', { name: 'Ver alertas' })).toBeInViewport({ ratio: 1 });
    // Closing one brings the next: nothing is lost.
    await newest.getByRole('button', { name: 'Fechar' }).click();
    await expect(newest).toHaveCount(0);
    await expect(oldest).toBeVisible();
    await expect(shown).toHaveCount(2);
  });
});
