import { expect, test } from '@playwright/test';
import { sign } from 'hono/jwt';
import { E2E_SECRET } from './env';
import { Shell, signInAsAdmin } from './pages';

test('an expired access token is renewed transparently and the page keeps its state', async ({
  page,
}) => {
  await signInAsAdmin(page);
  const shell = new Shell(page);
  await page
    .getByRole('navigation', { name: 'Navegação principal' })
    .getByRole('link', { name: 'Gestão', exact: true })
    .click();
  await expect(shell.heading('Gestão')).toBeVisible();
  await shell.menuFilter().fill('usu');

  const { user, refreshToken } = await page.evaluate(() => ({
    user: JSON.parse(localStorage.getItem('authState') ?? '{}').user as {
      id: string;
      clientId: string;
      role: string;
    },
    refreshToken: localStorage.getItem('refreshToken'),
  }));
  const past = Math.floor(Date.now() / 1000) - 120;
  const expired = await sign(
    {
      sub: user.id,
      cid: user.clientId,
      role: user.role,
      typ: 'access',
      iat: past - 900,
      exp: past,
    },
    E2E_SECRET,
    'HS256',
  );
  await page.evaluate((token) => {
    localStorage.setItem('accessToken', token);
    (window as unknown as { stillHere: boolean }).stillHere = true;
  }, expired);

  await shell.openUserMenu();
  await page.getByRole('menuitem', { name: 'Minha conta' }).click();

  await expect(shell.toast('Token expirado. Renovando autenticação..')).toBeVisible();
  await expect(shell.toast('Autenticado com sucesso. Por favor, aguarde.')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'admin@rastro.demo' })).toBeVisible();
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
  await signInAsAdmin(page);
  const shell = new Shell(page);
  const user = await page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('authState') ?? '{}').user as {
        id: string;
        clientId: string;
        role: string;
      },
  );
  const past = Math.floor(Date.now() / 1000) - 120;
  const expired = await sign(
    {
      sub: user.id,
      cid: user.clientId,
      role: user.role,
      typ: 'access',
      iat: past - 900,
      exp: past,
    },
    E2E_SECRET,
    'HS256',
  );
  await page.evaluate((token) => {
    localStorage.setItem('accessToken', token);
    localStorage.setItem('refreshToken', 'revogado');
  }, expired);
  await shell.openUserMenu();
  await page.getByRole('menuitem', { name: 'Minha conta' }).click();
  await expect(shell.toast('Erro de autenticação na Api! Faça login novamente.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});
