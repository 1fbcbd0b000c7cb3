/**
 * The dashboard in Chromium: its figures match the lists they link to (vehicles, trackers,
 * pending alerts), the charts are drawn, and 'Tela cheia' shows it alone and back.
 */
import { expect, type Page, test } from '@playwright/test';
import { Shell, signInAs } from './pages';

/** The number a figure link shows ('Veículos: 40'). */
async function figure(page: Page, label: string): Promise<number> {
  const link = page.getByRole('link', { name: new RegExp(`^${label}: \\d+$`) });
  await expect(link).toBeVisible();
  return Number((await link.getAttribute('aria-label'))?.split(': ')[1]);
}

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
  await shell.navigation().getByRole('link', { name: 'Dashboard' }).click();
  await expect(shell.heading('Dashboard')).toBeVisible();
  await expect(
    page.getByRole('img', { name: 'Rastreadores pela última comunicação' }),
  ).toHaveAttribute('data-ready', 'true');
  await expect(page.getByRole('img', { name: 'Km rodados por dia (30 dias)' })).toHaveAttribute(
    'data-ready',
    'true',
  );

  for (const [label, heading] of [
    ['Veículos', 'Veículos'],
    ['Rastreadores', 'Rastreadores'],
  ] as const) {
    const shown = await figure(page, label);
    expect(shown).toBeGreaterThan(0);
    await page.getByRole('link', { name: `${label}: ${shown}` }).click();
    await expect(shell.heading(heading)).toBeVisible();
    expect(await listTotal(page)).toBe(shown);
    await page.goBack();
    await expect(shell.heading('Dashboard')).toBeVisible();
  }

  const pending = await figure(page, 'Alertas não reconhecidos');
  await page.getByRole('link', { name: `Alertas não reconhecidos: ${pending}` }).click();
  await expect(shell.heading('Histórico de alertas')).toBeVisible();
  await expect(page.getByRole('button', { name: /Situação/ })).toContainText('Pendentes');
  if (pending > 0) expect(await listTotal(page)).toBe(pending);
});

test('full screen shows the dashboard alone, and back', async ({ page }) => {
  await signInAs(page, 'operador@rastro.demo', 'Otávio Operador');
  await page.goto('/dashboard');
  const shell = new Shell(page);
  await expect(shell.heading('Dashboard')).toBeVisible();
  await page.getByRole('button', { name: 'Tela cheia' }).click();
  await expect(page.locator('.dashboard-wall')).toBeVisible();
  // The customer picker is left out on the wall; the figures stay.
  await expect(page.getByRole('button', { name: /^Cliente/ })).toBeHidden();
  await expect(page.getByRole('link', { name: /^Veículos: \d+$/ })).toBeVisible();
  await page.getByRole('button', { name: 'Sair da tela cheia' }).click();
  await expect(page.locator('.dashboard-wall')).toHaveCount(0);
});
