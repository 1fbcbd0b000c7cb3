import { expect, test } from '@playwright/test';
import {
  AccountPage,
  expireAccessToken,
  PositionsReportPage,
  REGISTERS,
  ResourceListPage,
  Shell,
  signInAsAdmin,
} from './pages';

test('an expired access token is renewed transparently and the page keeps its state', async ({
  page,
}) => {
  await signInAsAdmin(page);
  const shell = new Shell(page);
  await shell.goTo('Gestão', true);
  await expect(shell.heading('Gestão')).toBeVisible();
  await shell.menuFilter().fill('usu');

  const refreshToken = await page.evaluate(() => localStorage.getItem('refreshToken'));
  const expired = await expireAccessToken(page);
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });

  await shell.openAccount();

  await expect(shell.toast('Token expirado. Renovando autenticação..')).toBeVisible();
  await expect(shell.toast('Autenticado com sucesso. Por favor, aguarde.')).toBeVisible();
  await expect(new AccountPage(page).detail('admin@rastro.demo')).toBeVisible();
  // No reload: the page's own state survived.
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(
    true,
  );
  await expect(shell.menuFilter()).toHaveValue('usu');
  const tokens = await page.evaluate(() => [
    localStorage.getItem('accessToken'),
    localStorage.getItem('refreshToken'),
  ]);
  expect(tokens[0]).not.toBe(expired);
  expect(tokens[1]).not.toBe(refreshToken);
});

test('a session that cannot be renewed ends with the spec message', async ({ page }) => {
  // From a page that calls nothing by itself (the map would find the session over first).
  await signInAsAdmin(page, new PositionsReportPage(page).path);
  const shell = new Shell(page);
  await expect(shell.heading('Posições')).toBeVisible();
  await expireAccessToken(page, 'revogado');
  // The first call to meet the revoked session ends it: the account page asked for here, or a
  // call the shell makes by itself (the alert badge, the alert stream connecting again), which
  // on a busy machine came first once and took the account menu away before the click. So the
  // message is watched from before the click, and a click that finds no menu is not the failure.
  const message = expect(
    shell.toast('Erro de autenticação na Api! Faça login novamente.'),
  ).toBeVisible({ timeout: 15_000 });
  await shell.openAccount({ timeout: 5_000 }).catch(() => undefined);
  await message;
  await expect(page).toHaveURL(/\/login$/);
});

test.describe('when the server cannot validate the session', () => {
  // Requests are routed only while no service worker answers for the page.
  test.use({ serviceWorkers: 'block' });

  test('a failed token validation sends the user to /', async ({ page }) => {
    await signInAsAdmin(page);
    await new ResourceListPage(page, REGISTERS.customers).open();
    await expect(new Shell(page).heading('Clientes')).toBeVisible();
    // The server fails (not a 401): the stored session is kept and the user goes home.
    await page.route('**/registros/auth/validation', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, code: 'SERVER_ERROR', message: 'Erro interno' }),
      }),
    );
    await page.reload();
    await expect(page).toHaveURL(/\/$/);
    await expect(new Shell(page).toast('Não foi possível validar a sua sessão.')).toBeVisible();
    await new Shell(page).expectSignedIn();
  });
});
