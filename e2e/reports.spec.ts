/**
 * Reports on the demo's past week (written on first start): a vehicle's history played back,
 * scrubbed, with the speed chart following; the journeys, positions and distances of the week;
 * a report asked for on the Relatórios screen and found in its list; one asked for offline.
 */
import { expect, test } from '@playwright/test';
import {
  DistancesReportPage,
  HistoryReportPage,
  JourneysReportPage,
  PositionsReportPage,
  RequestedReportsPage,
  Shell,
  signInAs,
  signInAsAdmin,
} from './pages';

const ONIX = 'PCX1A23 | Onix Diretoria';
const TRUCK = 'KGH1L23 | Caminhão Baú 01';

test('a demo vehicle’s history plays, scrubs and the speed chart follows', async ({ page }) => {
  test.setTimeout(60_000);
  const history = new HistoryReportPage(page);
  await signInAsAdmin(page, history.path);
  await expect(new Shell(page).heading('Históricos')).toBeVisible();
  await history.chooseVehicle(ONIX);
  await history.lastWeek();
  await expect(history.map()).toHaveAttribute('data-route-points', /^[1-9]\d+$/, {
    timeout: 20_000,
  });
  const chart = history.speedChart();
  await expect(chart).toHaveAttribute('data-ready', 'true');
  await expect(history.rows().first()).toBeVisible();

  // Play at 32×: the timeline moves by itself, and the chart's cursor with it.
  const timeline = history.timeline();
  await history.choosePlaybackSpeed('32×');
  const before = Number(await timeline.inputValue());
  await history.play();
  await expect
    .poll(async () => Number(await timeline.inputValue()), { timeout: 10_000 })
    .toBeGreaterThan(before + 5);
  await history.pause();
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
  await history.followButton().click();
  await expect(history.followButton()).toHaveAttribute('aria-pressed', 'true');
});

test('the journeys, positions and distances of the demo week', async ({ page }) => {
  test.setTimeout(60_000);
  const journeys = new JourneysReportPage(page);
  await signInAsAdmin(page, journeys.path);
  await journeys.chooseVehicles([ONIX, TRUCK]);
  await expect(page.getByRole('button', { name: /2 veículos selecionados/ })).toBeVisible();
  await journeys.lastWeek();
  const truck = journeys.vehicle('KGH1L23 | Caminhão Baú 01');
  await expect(truck.getByRole('row').filter({ hasText: 'Viagem' }).first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(truck.getByRole('row').filter({ hasText: 'Parada' }).first()).toBeVisible();
  await expect(journeys.totals()).toContainText(/Viagens\s*[1-9]/);
  // Every column fits beside the menu: 'Ver no mapa' is not cut off at the right, also beside
  // a driver's name (the Onix's trips have one).
  const onix = journeys.vehicle(ONIX);
  await expect(
    onix.getByRole('row').filter({ hasText: 'Carlos Eduardo Lima' }).first(),
  ).toBeVisible();
  for (const table of [truck, onix])
    expect(
      await table.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth),
    ).toBeLessThanOrEqual(0);
  // A week of the truck is hundreds of rows: fifty a page, the next page from its first row.
  const pager = journeys.pager(TRUCK);
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
  await expect(journeys.tripMap()).toHaveAttribute('data-route-points', /^[1-9]\d*$/, {
    timeout: 15_000,
  });

  const positions = new PositionsReportPage(page);
  await positions.open();
  await positions.chooseVehicle(ONIX);
  await positions.lastWeek();
  const count = positions.count();
  await expect(count).toBeVisible({ timeout: 20_000 });
  const total = Number(
    (await count.textContent())?.split(' de ')[1]?.split(' ')[0]?.replace(/\./g, ''),
  );
  expect(total).toBeGreaterThan(500);
  // Filtered: only fixes with the ignition on.
  await positions.chooseIgnition('Ligada');
  await expect(count).not.toHaveText(
    `${total.toLocaleString('pt-BR')} de ${total.toLocaleString('pt-BR')} posições`,
  );
  await expect(positions.grid().getByRole('row').nth(1)).toContainText('Ligada');
  // The table (wider than the screen) ends at the window's bottom, its scroll bars in view: the
  // page itself does not scroll around it.
  const grid = await positions.grid().boundingBox();
  const viewport = page.viewportSize();
  expect(grid && viewport && grid.y + grid.height).toBeLessThanOrEqual(viewport?.height ?? 0);
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(
    viewport?.height ?? 0,
  );

  const distances = new DistancesReportPage(page);
  await distances.open();
  await distances.chooseVehicles([ONIX, TRUCK]);
  await distances.lastWeek();
  await expect(distances.chart()).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  await expect(distances.totalRow()).toContainText(/[1-9][\d.]*,\d/);
});

test('a report asked for on Relatórios opens and is listed', async ({ page, browser }) => {
  const reports = new RequestedReportsPage(page);
  await signInAsAdmin(page, reports.path);
  await reports.chooseType('Distâncias percorridas');
  await reports.chooseVehicles([TRUCK]);
  await reports.name().fill('Semana do baú');
  await reports.generateButton().click();
  await expect(page).toHaveURL(/\/reports\/distances\?vehicles=/);
  await expect(new DistancesReportPage(page).chart()).toBeVisible({ timeout: 20_000 });
  await reports.open();
  await expect(reports.request('Semana do baú')).toContainText('Pronto');
  // An Operador sees it, but may not remove another's request.
  const operator = await browser.newContext();
  const other = await operator.newPage();
  const theirs = new RequestedReportsPage(other);
  await signInAs(other, 'operador@rastro.demo', 'Otávio Operador', theirs.path);
  await expect(theirs.request('Semana do baú')).toBeVisible();
  await expect(theirs.removeButton('Semana do baú')).toHaveCount(0);
  await operator.close();

  // A period past the limit is explained before anything is asked.
  await reports.chooseType('Posições');
  await reports.chooseVehicle(TRUCK);
  await reports.from().fill('2026-01-01');
  await reports.generateButton().click();
  await expect(
    page.getByText('O período máximo deste relatório é de 31 dias (744 horas)'),
  ).toBeVisible();

  // Removed from the list after a confirmation.
  await reports.removeButton('Semana do baú').click();
  const dialog = reports.removeDialog();
  await expect(dialog).toContainText('Semana do baú');
  await dialog.getByRole('button', { name: 'Remover' }).click();
  await expect(new Shell(page).toast('Relatório removido da lista.')).toBeVisible();
  await expect(reports.request('Semana do baú')).toHaveCount(0);
});

test.describe('with the service worker', () => {
  // A report asked for without signal waits in the service worker.
  test.use({ serviceWorkers: 'allow' });

  test('a report asked for without signal says it waits, and comes when the connection is back', async ({
    page,
    context,
  }) => {
    test.setTimeout(60_000);
    const history = new HistoryReportPage(page);
    await signInAsAdmin(page, history.path);
    await history.chooseVehicle(ONIX);
    await context.setOffline(true);
    await history.lastWeek();
    await expect(history.waiting()).toBeVisible();

    await context.setOffline(false);
    await expect(history.waiting()).toBeHidden();
    await expect(history.map()).toHaveAttribute('data-route-points', /^[1-9]\d+$/, {
      timeout: 20_000,
    });
  });
});
