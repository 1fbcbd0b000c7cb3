/**
 * Geofences and alerts in Chromium: draw a polygon and a circle on the map, associate a
 * vehicle, send fixes across the border → the alert toast with 'Ver alertas' → the history →
 * acknowledge; geofences drawn on the fleet map from the device's mirror, offline too; an
 * alert rule made in the form, its e-mail switch deciding what is sent (SPEC §5).
 */
import { expect, type Page, test } from '@playwright/test';
import { E2E_DEVICE_PASSWORD, E2E_OSMAND_URL, E2E_URL } from './env';
import {
  ADMIN,
  AlertHistoryPage,
  AlertRuleFormPage,
  FleetMapPage,
  GeofencesPage,
  Shell,
  signInAsAdmin,
  waitForServiceWorker,
} from './pages';

interface Api {
  headers: Record<string, string>;
  clientId: string;
}

async function api(page: Page): Promise<Api> {
  const login = await page.request.post(`${E2E_URL}/registros/auth/login`, {
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  const { accessToken, user } = (await login.json()) as {
    accessToken: string;
    user: { clientId: string };
  };
  return { headers: { authorization: `Bearer ${accessToken}` }, clientId: user.clientId };
}

/** A vehicle with its OsmAnd tracker, created through the API. */
async function vehicle(page: Page, a: Api, plate: string) {
  const created = await page.request.post(`${E2E_URL}/registros/vehicle`, {
    headers: a.headers,
    data: { clientId: a.clientId, name: `Furgão ${plate}`, plate, type: 'van' },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const tracker = await page.request.post(`${E2E_URL}/registros/tracker`, {
    headers: a.headers,
    data: {
      clientId: a.clientId,
      identifier: `alr-${plate}`,
      provider: 'rastro',
      protocol: 'osmand',
      devicePassword: E2E_DEVICE_PASSWORD,
      vehicleId: id,
    },
  });
  expect(tracker.status()).toBe(201);
  return id;
}

/** A circular geofence of the admin's customer, created through the API. */
async function circle(page: Page, a: Api, name: string, center: [number, number], radius: number) {
  const created = await page.request.post(`${E2E_URL}/registros/geofence`, {
    headers: a.headers,
    data: { clientId: a.clientId, name, geometry: { type: 'Circle', center, radius } },
  });
  expect(created.status()).toBe(201);
}

const uniquePlate = (prefix: string) => {
  const n = Date.now().toString();
  return `${prefix}${n.slice(-1)}A${n.slice(-3, -1)}`;
};

test('draw a polygon and a circle, associate a vehicle, cross the border, acknowledge the alert', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const a = await api(page);
  const plate = uniquePlate('CRC');
  const vehicleId = await vehicle(page, a, plate);
  const rule = await page.request.post(`${E2E_URL}/registros/alert-rules`, {
    headers: a.headers,
    data: {
      clientId: a.clientId,
      name: 'Saída do pátio',
      type: 'GEOFENCE_EXIT',
      vehicleIds: [vehicleId],
    },
  });
  expect(rule.status()).toBe(201);

  const geofences = new GeofencesPage(page);
  await signInAsAdmin(page, geofences.path);
  const shell = new Shell(page);
  await expect(shell.heading('Cercas eletrônicas')).toBeVisible();

  // A polygon: four vertices and a click on the first to close it.
  await geofences.startNew();
  await expect(page.getByText(/Clique no mapa para marcar cada vértice/)).toBeVisible();
  await geofences.clickMap([
    [0.3, 0.3],
    [0.6, 0.3],
    [0.6, 0.6],
    [0.3, 0.6],
    [0.3, 0.3],
  ]);
  await expect(page.getByText(/polígono, 4 vértices/i)).toBeVisible();
  await geofences.name().fill(`Polígono ${plate}`);
  await geofences.save();
  await expect(shell.toast('Cerca criada.')).toBeVisible();
  await shell.dismissToasts();
  await geofences.cancel();

  // A circle: the centre, then the border.
  await geofences.startNew();
  await geofences.drawCircle();
  await geofences.clickMap([
    [0.7, 0.5],
    [0.75, 0.5],
  ]);
  await expect(page.getByText(/círculo, raio de \d+ m/i)).toBeVisible();
  await geofences.name().fill(`Pátio ${plate}`);
  await geofences.speedLimit().fill('20');
  await geofences.save();
  await expect(shell.toast('Cerca criada.')).toBeVisible();

  // Associate the vehicle: always inside.
  await geofences.associate(plate);
  await expect(shell.toast('Veículo associado.')).toBeVisible();
  await expect(geofences.associated()).toContainText('Sempre dentro');
  await shell.dismissToasts();

  // Both geofences are stored as drawn: a polygon and a ground circle.
  const list = await page.request.get(
    `${E2E_URL}/registros/geofence?clientId=${a.clientId}&search=${plate}`,
    { headers: a.headers },
  );
  const { items: stored } = (await list.json()) as {
    items: {
      name: string;
      geometry: { type: string; center?: [number, number]; radius?: number };
    }[];
  };
  expect(stored.map((g) => g.geometry.type).sort()).toEqual(['Circle', 'Polygon']);
  const circle = stored.find((g) => g.geometry.type === 'Circle')?.geometry;
  if (!circle?.center || !circle.radius) throw new Error('circle missing');

  // Fixes: inside the circle, then well outside it.
  const [lon, lat] = circle.center;
  const t = Math.floor(Date.now() / 1000) - 30;
  const send = (dt: number, latitude: number, longitude: number) =>
    fetch(
      `${E2E_OSMAND_URL}/?id=alr-${plate}&password=${E2E_DEVICE_PASSWORD}&lat=${latitude}&lon=${longitude}&timestamp=${t + dt}&speed=0&ignition=true`,
    );
  expect((await send(0, lat, lon)).status).toBe(200);
  expect((await send(10, lat, lon)).status).toBe(200);
  // 5 km away 50 s later: far outside, and no impossible jump.
  expect((await send(60, lat + 0.045, lon)).status).toBe(200);

  // The alert toast (SPEC §9): its title, 'Fechar' and 'Ver alertas'.
  const toast = shell.alertToast(`Saída de cerca — ${plate}`);
  await expect(toast).toBeVisible({ timeout: 15_000 });
  await expect(toast.getByRole('button', { name: 'Fechar' })).toBeVisible();
  // It stays until closed, over the bottom right; a page scrolled to its end shows its last
  // controls (the pager of the alert history) above it, not under it.
  await shell.goTo('Histórico de alertas');
  const history = new AlertHistoryPage(page);
  const pager = history.pagination();
  await expect(pager).toBeVisible();
  await expect(toast).toBeVisible();
  // A laptop's short window: the list reaches its bottom.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 1366, height: 560 });
  await expect(async () => {
    // Scrolled again on each try: the list may still grow a line after the first scroll.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const [pagerBox, toastsBox] = await Promise.all([
      pager.boundingBox(),
      shell.toasts().boundingBox(),
    ]);
    expect(pagerBox && toastsBox && pagerBox.y + pagerBox.height).toBeLessThanOrEqual(
      toastsBox?.y ?? 0,
    );
  }).toPass({ timeout: 5000 });
  if (viewport) await page.setViewportSize(viewport);
  await toast.getByRole('button', { name: 'Ver alertas' }).click();
  await expect(page).toHaveURL(/\/fleet-management\/alerts\/alerts-history$/);
  await expect(shell.heading('Histórico de alertas')).toBeVisible();
  // The top bar counts the alerts not yet acknowledged.
  const badge = page.getByRole('link', { name: /alertas? pendentes?$/ });
  await expect(badge).toBeVisible();

  const row = history.row(plate);
  await expect(row).toContainText('Saída de cerca');
  await expect(row).toContainText('Saída do pátio');
  await history.select(plate);
  await expect(page.getByText('1 alerta selecionado')).toBeVisible();
  await history.acknowledgeSelected();
  await expect(shell.toast('1 alerta reconhecido.')).toBeVisible();
  await expect(row).toContainText(`Reconhecido por ${ADMIN.name}`);
  await expect(page.getByText('0 alertas selecionados')).toBeVisible();
});

test.describe('with the service worker', () => {
  // The reload without signal is answered by the service worker.
  test.use({ serviceWorkers: 'allow' });

  test('geofences are drawn on the fleet map from the mirror, offline too', async ({
    page,
    context,
  }) => {
    test.setTimeout(60_000);
    const a = await api(page);
    const name = `Área ${Date.now()}`;
    await circle(page, a, name, [-34.89, -8.06], 500);
    await signInAsAdmin(page);
    await waitForServiceWorker(page);
    const fleet = new FleetMapPage(page);
    const map = fleet.map();
    await fleet.geofencesSwitch().check({ force: true });
    await expect(map).toHaveAttribute('data-geofences', /^[1-9]\d*$/, { timeout: 15_000 });
    const drawn = await map.getAttribute('data-geofences');

    await context.setOffline(true);
    await page.reload();
    await expect(
      page.getByRole('status').filter({ hasText: /Sem conexão — dados de/ }),
    ).toBeVisible();
    await expect(fleet.geofencesSwitch()).toBeChecked();
    await expect(map).toHaveAttribute('data-geofences', drawn ?? '');
    const geofences = new GeofencesPage(page);
    await geofences.open();
    await expect(geofences.list()).toContainText(name);
    await context.setOffline(false);
  });
});

test('an alert rule from the form; e-mail only while its switch is on', async ({ page }) => {
  const a = await api(page);
  const name = `Velocidade ${Date.now()}`;
  const form = new AlertRuleFormPage(page);
  await signInAsAdmin(page, form.newPath);
  await form.chooseType('Excesso de velocidade');
  await form.toggleEmail();
  // Nothing filled: every problem at once, the e-mail switched on with no address too.
  await form.save();
  await expect(form.name()).toHaveAccessibleDescription(/Campo obrigatório/);
  await expect(form.speedLimit()).toHaveAccessibleDescription(/informe um número/);
  await expect(form.emails()).toHaveAccessibleDescription(/Informe ao menos um e-mail/);
  await form.name().fill(name);
  await form.speedLimit().fill('80');
  await form.emails().fill('central@frota.com.br, joao@');
  await form.save();
  await expect(page.getByText('E-mail inválido: joao@')).toBeVisible();
  await form.emails().fill('central@frota.com.br');
  await form.save();
  const shell = new Shell(page);
  await expect(shell.toast('Regra de alerta criada.')).toBeVisible();
  // The rule's own page follows the save, and the next change is made there once it shows
  // the stored rule (a switch pressed before would be undone by the rule arriving).
  await expect(page).toHaveURL(/\/fleet-management\/alerts\/[0-9a-f-]{36}$/);
  await expect(shell.heading(`Editar: ${name}`)).toBeVisible();
  const stored = async () => {
    const res = await page.request.get(
      `${E2E_URL}/registros/alert-rules?clientId=${a.clientId}&search=${encodeURIComponent(name)}`,
      { headers: a.headers },
    );
    const { items } = (await res.json()) as {
      items: { id: string; emailDelivery: string; params: { speedLimit: number } }[];
    };
    return items[0];
  };
  expect(await stored()).toMatchObject({
    emailDelivery: 'central@frota.com.br',
    params: { speedLimit: 80 },
  });
  // The switch off: the list goes as '' (SPEC §5), even with the text still typed.
  await form.toggleEmail();
  await form.save();
  await expect(shell.toast('Regra de alerta salva.')).toBeVisible();
  const rule = await stored();
  expect(rule?.emailDelivery).toBe('');
  // Removed again: with no vehicle chosen it covers the whole demo fleet, where the simulator
  // keeps a few vehicles around 80 km/h, and it would raise speeding toasts over every journey
  // after this one.
  const removed = await page.request.delete(`${E2E_URL}/registros/alert-rules/${rule?.id}`, {
    headers: a.headers,
  });
  expect(removed.status()).toBe(200);
});

test('a yard’s visits of the week, ten at a time in its panel', async ({ page }) => {
  // Around the demo truck's yard, where its week of trips starts and ends many times.
  const a = await api(page);
  const name = `Pátio ${Date.now()}`;
  await circle(page, a, name, [-34.8738, -7.9415], 300);
  const geofences = new GeofencesPage(page);
  await signInAsAdmin(page, geofences.path);
  await geofences.list().getByText(name).click();
  const visits = geofences.visits();
  const pager = visits.getByRole('navigation', { name: 'Paginação: Visitas à cerca' });
  await expect(pager).toContainText(/^1–10 de \d{2,}/, { timeout: 15_000 });
  const table = visits.getByRole('grid');
  await expect(table.getByRole('row')).toHaveCount(11);
  // Not a scrolling box inside the scrolling panel: the whole page of visits is in the table.
  expect(
    await visits.locator('.table-wrap').evaluate((wrap) => wrap.scrollHeight - wrap.clientHeight),
  ).toBeLessThanOrEqual(0);
  const first = await table.getByRole('row').nth(1).textContent();
  await pager.getByRole('button', { name: 'Próxima' }).focus();
  await page.keyboard.press('Enter');
  await expect(pager).toContainText(/^11–20 de/);
  await expect(table.getByRole('row').nth(1)).not.toHaveText(first ?? '');
});

test('the alert filters fit beside the menu, the customer named whole, a reversed period said', async ({
  page,
}) => {
  await signInAsAdmin(page);
  const history = new AlertHistoryPage(page);
  // A one-row layout whose boxes needed more than the page had ran 'Até' off the right at
  // 1280 px; the customer's box cut 'Rastro Demonstração' at 1366 px.
  for (const width of [1280, 1366]) {
    await page.setViewportSize({ width, height: 800 });
    await history.open();
    const filters = history.filters();
    const customer = filters.getByRole('combobox', { name: 'Cliente' });
    await expect(customer).toHaveValue('Rastro Demonstração');
    const cut = await customer.evaluate((input) => input.scrollWidth > input.clientWidth);
    const fit = await filters.evaluate((box) => {
      const right = box.getBoundingClientRect().right;
      const fields = [...box.querySelectorAll<HTMLElement>(':scope > .field')];
      return {
        out: fields.filter((f) => f.getBoundingClientRect().right > right + 0.5).length,
        fields: fields.length,
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    });
    expect({ ...fit, cut }, `${width} px`).toEqual({ out: 0, fields: 6, cut: false, page: 0 });
  }
  // 'Até' before 'De' is said beside it; nothing is listed (it was an empty list, no reason).
  await history.from().fill('2026-03-20');
  await history.until().fill('2026-03-10');
  await expect(page.getByText('A data final deve ser posterior à data inicial')).toBeVisible();
  await expect(history.until()).toHaveAttribute('aria-invalid', 'true');
  await expect(
    page.getByText('Corrija o período: a data final vem antes da inicial.'),
  ).toBeVisible();
  // The message below 'Até' moves none of the other boxes.
  const tops = await page
    .locator('.alert-filters > .field')
    .evaluateAll((fields) => fields.map((f) => Math.round(f.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  await history.until().fill('2026-03-20');
  await expect(page.getByText('A data final deve ser posterior à data inicial')).toBeHidden();
});
