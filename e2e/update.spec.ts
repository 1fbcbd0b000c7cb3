import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_STATIC } from './env';
import { Shell, signInAsAdmin, waitForServiceWorker } from './pages';

// An update is a new service worker.
test.use({ serviceWorkers: 'allow' });

test('a new deployment is offered with an update prompt and applied on request', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  const before = await page.evaluate(
    async () => (await navigator.serviceWorker.ready).active?.scriptURL,
  );
  expect(before).toContain('/firebase-messaging-sw.js');

  // "Deploy" a new version: the worker script changes on the server.
  appendFileSync(
    path.join(E2E_STATIC, 'firebase-messaging-sw.js'),
    `\n// nova versão ${Date.now()}\n`,
  );
  await page.evaluate(async () => (await navigator.serviceWorker.ready).update());

  const prompt = page.getByRole('alertdialog', {
    name: 'Uma nova versão do Rastro está disponível.',
  });
  await expect(prompt).toBeVisible({ timeout: 15_000 });
  const reloaded = page.waitForEvent('framenavigated');
  await prompt.getByRole('button', { name: 'Atualizar agora' }).click();
  await reloaded;
  await expect(
    page.getByRole('alertdialog', { name: 'Uma nova versão do Rastro está disponível.' }),
  ).toBeHidden();
  await expect(new Shell(page).heading('Mapa')).toBeVisible();
});
