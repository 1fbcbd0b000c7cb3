import { expect, test } from '@playwright/test';
import { Shell, signInAsAdmin, waitForServiceWorker } from './pages';

test('with the network cut, a reload still shows the shell on every route', async ({
  page,
  context,
}) => {
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  const shell = new Shell(page);

  await context.setOffline(true);
  await page.reload();
  await expect(shell.heading('Mapa')).toBeVisible();
  await expect(page.getByText('Sem conexão', { exact: true })).toBeVisible();
  await shell.expectSignedIn();

  await page.goto('/reports/positions');
  await expect(shell.heading('Posições')).toBeVisible();
  await page.goto('/fleet-management/alerts/alerts-history');
  await expect(shell.heading('Histórico de alertas')).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByText('Sem conexão', { exact: true })).toBeHidden();
});
