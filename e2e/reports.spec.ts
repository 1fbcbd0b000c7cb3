/**
 * Reports on the demo's past week (written on first start): a vehicle's history played back,
 * scrubbed, with the speed chart following; the journeys, positions and distances of the week;
 * a report asked for on the Relatórios screen and found in its list; one asked for offline.
 */
import { expect, type Page, test } from '@playwright/test';
import { Shell, signInAs, signInAsAdmin } from './pages';

const ONIX = 'PCX1A23 | Onix Diretoria';
const TRUCK = 'KGH1L23 | Caminhão Baú 01';

async function choose(page: Page, select: string, option: string) {
  await page.getByRole('button', { name: new RegExp(select) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Several options of a multiple select, then the list is closed. */
async function chooseMany(page: Page, select: string, options: string[]) {
  await page.getByRole('button', { name: new RegExp(select) }).click();
  for (const option of options)
    await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

async function lastWeek(page: Page) {
  await page.getByRole('button', { name: 'Últimos 7 dias' }).click();
  await page.getByRole('button', { name: 'Gerar relatório' }).click();
}

test('a demo vehicle’s history plays, scrubs and the speed chart follows', async ({ page }) => {
  test.setTimeout(60_000);
  await signInAsAdmin(page);
  await page.goto('/reports/histories');
  await expect(new Shell(page).heading('Históricos')).toBeVisible();
  await choose(page, 'Veículo', ONIX);
  await lastWeek(page);
  const map = page.getByRole('region', { name: 'Mapa do histórico' });
  await expect(map).toHaveAttribute('data-route-points', /^[1-9]\d+$/, { timeout: 20_000 });
  const chart = page.getByRole('img', { name: 'Velocidade ao longo do tempo' });
  await expect(chart).toHaveAttribute('data-ready', 'true');
  const rows = page.getByRole('grid', { name: 'Posições do histórico' }).getByRole('row');
  await expect(rows.first()).toBeVisible();

  // Play at 32×: the timeline moves by itself, and the chart's cursor with it.
  const timeline = page.getByRole('slider', { name: 'Linha do tempo' });
  await choose(page, 'Velocidade da reprodução', '32×');
  const before = Number(await timeline.inputValue());
  await page.getByRole('button', { name: 'Reproduzir' }).click();
  await expect
    .poll(async () => Number(await timeline.inputValue()), { timeout: 10_000 })
    .toBeGreaterThan(before + 5);
  await page.getByRole('button', { name: 'Pausar' }).click();
  const played = await timeline.inputValue();
  await expect(chart).toHaveAttribute('data-cursor', played);

  // Scrub: the end of the timeline, then a few steps back; the chart and the table follow.
  await timeline.focus();
  await page.keyboard.press('End');
  const last = Number(await timeline.getAttribute('max'));
  await expect(timeline).toHaveValue(String(last));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(timeline).toHaveValue(String(last - 2));
  await expect(chart).toHaveAttribute('data-cursor', String(last - 2));

  // Follow the vehicle while it plays.
  await page.getByRole('button', { name: 'Seguir veículo' }).click();
  await expect(page.getByRole('button', { name: 'Seguir veículo' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});

test('the journeys, positions and distances of the demo week', async ({ page }) => {
  test.setTimeout(60_000);
  await signInAsAdmin(page);

  await page.goto('/reports/journeys');
  await chooseMany(page, 'Veículos', [ONIX, TRUCK]);
  await expect(page.getByRole('button', { name: /2 veículos selecionados/ })).toBeVisible();
  await lastWeek(page);
  const truck = page.getByRole('region', { name: 'KGH1L23 | Caminhão Baú 01' });
  await expect(truck.getByRole('row').filter({ hasText: 'Viagem' }).first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(truck.getByRole('row').filter({ hasText: 'Parada' }).first()).toBeVisible();
  await expect(page.getByLabel('Totais: Veículos')).toContainText(/Viagens\s*[1-9]/);
  // Every column fits beside the menu: 'Ver no mapa' is not cut off at the right, also beside
  // a driver's name (the Onix's trips have one).
  const onix = page.getByRole('region', { name: ONIX });
  await expect(
    onix.getByRole('row').filter({ hasText: 'Carlos Eduardo Lima' }).first(),
  ).toBeVisible();
  for (const table of [truck, onix])
    expect(
      await table.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth),
    ).toBeLessThanOrEqual(0);
  // A week of the truck is hundreds of rows: fifty a page, the next page from its first row.
  const pager = page.getByRole('navigation', { name: `Paginação: ${TRUCK}` });
  await expect(pager).toContainText(/^1–50 de \d{3}/);
  await expect(truck.getByRole('row')).toHaveCount(51);
  const firstRow = await truck.getByRole('row').nth(1).textContent();
  await pager.getByRole('button', { name: 'Próxima' }).focus();
  await page.keyboard.press('Enter');
  await expect(pager).toContainText(/^51–100 de \d{3}/);
  await expect(truck.getByRole('row').nth(1)).not.toHaveText(firstRow ?? '');
  await expect(truck.getByRole('heading', { name: TRUCK })).toBeInViewport();
  // A trip opened on the map.
  await truck.getByRole('button', { name: 'Ver no mapa' }).first().click();
  await expect(page.getByRole('region', { name: 'Mapa da viagem' })).toHaveAttribute(
    'data-route-points',
    /^[1-9]\d*$/,
    { timeout: 15_000 },
  );

  await page.goto('/reports/positions');
  await choose(page, 'Veículo', ONIX);
  await lastWeek(page);
  const count = page.getByText(/^[\d.]+ de [\d.]+ posições$/);
  await expect(count).toBeVisible({ timeout: 20_000 });
  const total = Number(
    (await count.textContent())?.split(' de ')[1]?.split(' ')[0]?.replace(/\./g, ''),
  );
  expect(total).toBeGreaterThan(500);
  // Filtered: only fixes with the ignition on.
  await choose(page, 'Ignição', 'Ligada');
  await expect(count).not.toHaveText(
    `${total.toLocaleString('pt-BR')} de ${total.toLocaleString('pt-BR')} posições`,
  );
  await expect(page.getByRole('grid', { name: 'Posições' }).getByRole('row').nth(1)).toContainText(
    'Ligada',
  );
  // The table (wider than the screen) ends at the window's bottom, its scroll bars in view: the
  // page itself does not scroll around it.
  const grid = await page.getByRole('grid', { name: 'Posições' }).boundingBox();
  const viewport = page.viewportSize();
  expect(grid && viewport && grid.y + grid.height).toBeLessThanOrEqual(viewport?.height ?? 0);
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(
    viewport?.height ?? 0,
  );

  await page.goto('/reports/distances');
  await chooseMany(page, 'Veículos', [ONIX, TRUCK]);
  await lastWeek(page);
  await expect(page.getByRole('img', { name: 'Quilômetros por dia' })).toHaveAttribute(
    'data-ready',
    'true',
    { timeout: 20_000 },
  );
  const totalRow = page.getByRole('row').filter({ hasText: 'Total' }).last();
  await expect(totalRow).toContainText(/[1-9][\d.]*,\d/);
});

test('a report asked for on Relatórios opens and is listed', async ({ page, browser }) => {
  await signInAsAdmin(page);
  await page.goto('/reports');
  await choose(page, 'Tipo de relatório', 'Distâncias percorridas');
  await chooseMany(page, 'Veículos', [TRUCK]);
  await page.getByRole('textbox', { name: 'Nome (opcional)' }).fill('Semana do baú');
  await page.getByRole('button', { name: 'Gerar relatório' }).click();
  await expect(page).toHaveURL(/\/reports\/distances\?vehicles=/);
  await expect(page.getByRole('img', { name: 'Quilômetros por dia' })).toBeVisible({
    timeout: 20_000,
  });
  await page.goto('/reports');
  const list = page.getByRole('grid', { name: 'Relatórios pedidos' });
  await expect(list.getByRole('row').filter({ hasText: 'Semana do baú' })).toContainText('Pronto');
  // An Operador sees it, but may not remove another's request.
  const operator = await browser.newContext();
  const other = await operator.newPage();
  await signInAs(other, 'operador@rastro.demo', 'Otávio Operador');
  await other.goto('/reports');
  const theirs = other.getByRole('grid', { name: 'Relatórios pedidos' });
  await expect(theirs.getByRole('row').filter({ hasText: 'Semana do baú' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Remover Semana do baú' })).toHaveCount(0);
  await operator.close();

  // A period past the limit is explained before anything is asked.
  await choose(page, 'Tipo de relatório', 'Posições');
  await choose(page, 'Veículo', TRUCK);
  await page.getByRole('textbox', { name: 'De' }).fill('2026-01-01');
  await page.getByRole('button', { name: 'Gerar relatório' }).click();
  await expect(
    page.getByText('O período máximo deste relatório é de 31 dias (744 horas)'),
  ).toBeVisible();

  // Removed from the list after a confirmation.
  await page.getByRole('button', { name: 'Remover Semana do baú' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remover relatório da lista?' });
  await expect(dialog).toContainText('Semana do baú');
  await dialog.getByRole('button', { name: 'Remover' }).click();
  await expect(new Shell(page).toast('Relatório removido da lista.')).toBeVisible();
  await expect(list.getByRole('row').filter({ hasText: 'Semana do baú' })).toHaveCount(0);
});

test('a report asked for without signal says it waits, and comes when the connection is back', async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  await signInAsAdmin(page);
  await page.goto('/reports/histories');
  await choose(page, 'Veículo', ONIX);
  await context.setOffline(true);
  await lastWeek(page);
  const waiting = page.getByText('O relatório é gerado assim que a conexão voltar.');
  await expect(waiting).toBeVisible();

  await context.setOffline(false);
  await expect(waiting).toBeHidden();
  await expect(page.getByRole('region', { name: 'Mapa do histórico' })).toHaveAttribute(
    'data-route-points',
    /^[1-9]\d+$/,
    { timeout: 20_000 },
  );
});
