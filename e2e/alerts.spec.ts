/**
 * Geofences and alerts in Chromium: draw a polygon and a circle on the map, associate a
 * vehicle, send fixes across the border → the alert toast with 'Ver alertas' → the history →
 * acknowledge; geofences drawn on the fleet map from the device's mirror, offline too; an
 * alert rule made in the form, its e-mail switch deciding what is sent (SPEC §5).
 */
import { expect, type Page, test } from '@playwright/test';
import { E2E_DEVICE_PASSWORD, E2E_OSMAND_URL, E2E_URL } from './env';
import { ADMIN, Shell, signInAsAdmin, waitForServiceWorker } from './pages';

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

async function clickMap(page: Page, points: [number, number][]) {
  const box = await page.getByRole('region', { name: 'Mapa das cercas' }).boundingBox();
  if (!box) throw new Error('map not shown');
  for (const [x, y] of points)
    await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
}

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

  await signInAsAdmin(page);
  await page.goto('/fleet-management/geofences');
  const shell = new Shell(page);
  await expect(shell.heading('Cercas eletrônicas')).toBeVisible();

  // A polygon: four vertices and a click on the first to close it.
  await page.getByRole('button', { name: 'Nova cerca' }).click();
  await expect(page.getByText(/Clique no mapa para marcar cada vértice/)).toBeVisible();
  await clickMap(page, [
    [0.3, 0.3],
    [0.6, 0.3],
    [0.6, 0.6],
    [0.3, 0.6],
    [0.3, 0.3],
  ]);
  await expect(page.getByText(/polígono, 4 vértices/i)).toBeVisible();
  await page.getByRole('textbox', { name: 'Nome' }).fill(`Polígono ${plate}`);
  await page.getByRole('button', { name: 'Salvar cerca' }).click();
  await expect(shell.toast('Cerca criada.')).toBeVisible();
  await shell.dismissToasts();
  await page.getByRole('button', { name: 'Cancelar' }).click();

  // A circle: the centre, then the border.
  await page.getByRole('button', { name: 'Nova cerca' }).click();
  await page.getByRole('button', { name: 'Desenhar círculo' }).click();
  await clickMap(page, [
    [0.7, 0.5],
    [0.75, 0.5],
  ]);
  await expect(page.getByText(/círculo, raio de \d+ m/i)).toBeVisible();
  await page.getByRole('textbox', { name: 'Nome' }).fill(`Pátio ${plate}`);
  await page.getByRole('textbox', { name: 'Limite de velocidade (km/h)' }).fill('20');
  await page.getByRole('button', { name: 'Salvar cerca' }).click();
  await expect(shell.toast('Cerca criada.')).toBeVisible();

  // Associate the vehicle: always inside.
  await page.getByRole('combobox', { name: 'Veículo' }).pressSequentially(plate, { delay: 30 });
  await page.getByRole('option', { name: new RegExp(plate) }).click();
  await page.getByRole('button', { name: 'Associar veículo' }).click();
  await expect(shell.toast('Veículo associado.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Veículos associados' })).toContainText(
    'Sempre dentro',
  );
  await shell.dismissToasts();

  // Both geofences are stored as drawn: a polygon and a ground circle.
  const list = await page.request.get(
    `${E2E_URL}/registros/geofence?clientId=${a.clientId}&search=${plate}`,
    { headers: a.headers },
  );
  const { items: geofences } = (await list.json()) as {
    items: {
      name: string;
      geometry: { type: string; center?: [number, number]; radius?: number };
    }[];
  };
  expect(geofences.map((g) => g.geometry.type).sort()).toEqual(['Circle', 'Polygon']);
  const circle = geofences.find((g) => g.geometry.type === 'Circle')?.geometry;
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
  const toast = page
    .getByRole('region', { name: 'Notificações' })
    .locator('.toast-alert', { hasText: `Saída de cerca — ${plate}` });
  await expect(toast).toBeVisible({ timeout: 15_000 });
  await expect(toast.getByRole('button', { name: 'Fechar' })).toBeVisible();
  // It stays until closed, over the bottom right; a page scrolled to its end shows its last
  // controls (the pager of the alert history) above it, not under it.
  await shell.navigation().getByRole('link', { name: 'Histórico de alertas' }).click();
  const pager = page.getByRole('navigation', { name: 'Paginação' });
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
      page.getByRole('region', { name: 'Notificações' }).boundingBox(),
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

  const row = page.getByRole('row').filter({ hasText: plate });
  await expect(row).toContainText('Saída de cerca');
  await expect(row).toContainText('Saída do pátio');
  // react-aria draws its own box over the input: a click on the row's box, as a person does.
  await row.locator('.checkbox-box').click();
  await expect(page.getByText('1 alerta selecionado')).toBeVisible();
  await page.getByRole('button', { name: 'Reconhecer selecionados' }).click();
  await expect(shell.toast('1 alerta reconhecido.')).toBeVisible();
  await expect(row).toContainText(`Reconhecido por ${ADMIN.name}`);
  await expect(page.getByText('0 alertas selecionados')).toBeVisible();
});

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
  const map = page.getByRole('region', { name: 'Mapa da frota' });
  await page.getByRole('switch', { name: 'Cercas no mapa' }).check({ force: true });
  await expect(map).toHaveAttribute('data-geofences', /^[1-9]\d*$/, { timeout: 15_000 });
  const drawn = await map.getAttribute('data-geofences');

  await context.setOffline(true);
  await page.reload();
  await expect(
    page.getByRole('status').filter({ hasText: /Sem conexão — dados de/ }),
  ).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Cercas no mapa' })).toBeChecked();
  await expect(map).toHaveAttribute('data-geofences', drawn ?? '');
  await page.goto('/fleet-management/geofences');
  await expect(page.getByRole('list', { name: 'Cercas do cliente' })).toContainText(name);
  await context.setOffline(false);
});

test('an alert rule from the form; e-mail only while its switch is on', async ({ page }) => {
  const a = await api(page);
  const name = `Velocidade ${Date.now()}`;
  await signInAsAdmin(page);
  await page.goto('/fleet-management/alerts/create');
  await page.getByRole('button', { name: /Tipo de alerta/ }).click();
  await page.getByRole('option', { name: 'Excesso de velocidade' }).click();
  await page.getByRole('switch', { name: 'Enviar por e-mail' }).click({ force: true });
  // Nothing filled: every problem at once, the e-mail switched on with no address too.
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByRole('textbox', { name: 'Nome' })).toHaveAccessibleDescription(
    /Campo obrigatório/,
  );
  await expect(
    page.getByRole('textbox', { name: 'Limite de velocidade (km/h)' }),
  ).toHaveAccessibleDescription(/informe um número/);
  await expect(
    page.getByRole('textbox', { name: 'E-mails para envio' }),
  ).toHaveAccessibleDescription(/Informe ao menos um e-mail/);
  await page.getByRole('textbox', { name: 'Nome' }).fill(name);
  await page.getByRole('textbox', { name: 'Limite de velocidade (km/h)' }).fill('80');
  await page
    .getByRole('textbox', { name: 'E-mails para envio' })
    .fill('central@frota.com.br, joao@');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('E-mail inválido: joao@')).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mails para envio' }).fill('central@frota.com.br');
  await page.getByRole('button', { name: 'Salvar' }).click();
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
  await page.getByRole('switch', { name: 'Enviar por e-mail' }).click({ force: true });
  await page.getByRole('button', { name: 'Salvar' }).click();
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
  await signInAsAdmin(page);
  await page.goto('/fleet-management/geofences');
  await page.getByRole('list', { name: 'Cercas do cliente' }).getByText(name).click();
  const visits = page.getByRole('region', { name: 'Visitas à cerca' });
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
  // A one-row layout whose boxes needed more than the page had ran 'Até' off the right at
  // 1280 px; the customer's box cut 'Rastro Demonstração' at 1366 px.
  for (const width of [1280, 1366]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/fleet-management/alerts/alerts-history');
    const filters = page.locator('.alert-filters');
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
  await page.getByLabel('De', { exact: true }).fill('2026-03-20');
  await page.getByLabel('Até', { exact: true }).fill('2026-03-10');
  await expect(page.getByText('A data final deve ser posterior à data inicial')).toBeVisible();
  await expect(page.getByLabel('Até', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(
    page.getByText('Corrija o período: a data final vem antes da inicial.'),
  ).toBeVisible();
  // The message below 'Até' moves none of the other boxes.
  const tops = await page
    .locator('.alert-filters > .field')
    .evaluateAll((fields) => fields.map((f) => Math.round(f.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  await page.getByLabel('Até', { exact: true }).fill('2026-03-20');
  await expect(page.getByText('A data final deve ser posterior à data inicial')).toBeHidden();
});
