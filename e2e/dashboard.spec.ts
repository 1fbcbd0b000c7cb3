/**
 * The dashboard in Chromium: its figures match the lists they link to (vehicles, trackers,
 * pending alerts), the charts are drawn, and 'Tela cheia' shows it alone and back.
 */
import { expect, type Page, test } from '@playwright/test';
import { DashboardPage, Shell, signInAs } from './pages';

/** The total a list's pagination announces ('1–10 de 40'). */
async function listTotal(page: Page): Promise<number> {
  const status = page.getByRole('navigation', { name: 'Paginação' }).getByText(/^\d+–\d+ de \d+$/);
  await expect(status).toHaveText(/^[1-9]\d*–\d+ de \d+$/);
  return Number((await status.textContent())?.split(' de ')[1]);
}

test('the dashboard’s figures match the lists they link to', async ({ page }) => {
  test.setTimeout(60_000);
  await signInAs(page, 'gestor@rastro.demo', 'Gustavo Gestor');
  const shell = new Shell(page);
  await shell.goTo('Dashboard');
  await expect(shell.heading('Dashboard')).toBeVisible();
  const dashboard = new DashboardPage(page);
  await expect(dashboard.chart('Rastreadores pela última comunicação')).toHaveAttribute(
    'data-ready',
    'true',
  );
  await expect(dashboard.chart('Km rodados por dia (30 dias)')).toHaveAttribute(
    'data-ready',
    'true',
  );

  for (const [label, heading] of [
    ['Veículos', 'Veículos'],
    ['Rastreadores', 'Rastreadores'],
  ] as const) {
    const shown = await dashboard.figure(label);
    expect(shown).toBeGreaterThan(0);
    await dashboard.figureLink(label, shown).click();
    await expect(shell.heading(heading)).toBeVisible();
    expect(await listTotal(page)).toBe(shown);
    await page.goBack();
    await expect(shell.heading('Dashboard')).toBeVisible();
  }

  const pending = await dashboard.figure('Alertas não reconhecidos');
  await dashboard.figureLink('Alertas não reconhecidos', pending).click();
  await expect(shell.heading('Histórico de alertas')).toBeVisible();
  await expect(page.getByRole('button', { name: /Situação/ })).toContainText('Pendentes');
  if (pending > 0) expect(await listTotal(page)).toBe(pending);
});

test('full screen shows the dashboard alone, and back', async ({ page }) => {
  const dashboard = new DashboardPage(page);
  await signInAs(page, 'operador@rastro.demo', 'Otávio Operador', dashboard.path);
  const shell = new Shell(page);
  await expect(shell.heading('Dashboard')).toBeVisible();
  await dashboard.enterFullScreen();
  await expect(dashboard.wall()).toBeVisible();
  // The customer picker is left out on the wall; the figures stay.
  await expect(page.getByRole('button', { name: /^Cliente/ })).toBeHidden();
  await expect(dashboard.figureLink('Veículos')).toBeVisible();
  await dashboard.leaveFullScreen();
  await expect(dashboard.wall()).toHaveCount(0);
});
