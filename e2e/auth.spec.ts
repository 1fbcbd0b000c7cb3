import { expect, test } from '@playwright/test';
import {
  ADMIN,
  CreatePasswordPage,
  LoginPage,
  RecoverPasswordPage,
  SharedLinkPage,
  Shell,
  signInAsAdmin,
} from './pages';

test('a page without a token sends the user to /login and back after signing in', async ({
  page,
}) => {
  await page.goto('/management/users');
  await expect(page).toHaveURL(/\/login$/);
  await new LoginPage(page).signIn(ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/management\/users$/);
  const shell = new Shell(page);
  await expect(shell.heading('Usuários')).toBeVisible();
  await expect(shell.breadcrumbs().getByRole('link')).toHaveText(['Mapa', 'Gestão', 'Usuários']);
  await expect(page.getByText('Rastro Demonstração').first()).toBeVisible();
});

test('signing in stores the session under the spec keys', async ({ page }) => {
  await signInAsAdmin(page);
  const keys = await page.evaluate(() => ({
    authState: localStorage.getItem('authState'),
    accessToken: localStorage.getItem('accessToken'),
    refreshToken: localStorage.getItem('refreshToken'),
  }));
  expect(JSON.parse(keys.authState ?? '{}').user.email).toBe(ADMIN.email);
  expect(keys.accessToken?.split('.')).toHaveLength(3);
  expect(keys.refreshToken).toBeTruthy();
  await expect(new Shell(page).heading('Mapa')).toBeVisible();
});

test('a wrong password shows the error and keeps the user on /login', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  // Nothing typed, then a malformed e-mail: the form's own pt-BR messages, no request sent.
  await login.submit().click();
  await expect(page.getByText('Campo obrigatório')).toHaveCount(2);
  await login.email().fill('cliente@');
  await login.submit().click();
  await expect(page.getByText('E-mail inválido')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await login.signIn('cliente@rastro.demo', 'senha-errada-1');
  await expect(login.error()).toHaveText('E-mail ou senha inválidos');
  await expect(page).toHaveURL(/\/login$/);
});

test('signing out clears the session and returns to /login', async ({ page }) => {
  await signInAsAdmin(page);
  await page.evaluate(() => localStorage.setItem('fcmToken', 'token-deste-navegador'));
  const unsubscribe = page.waitForRequest((req) =>
    req.url().endsWith('/registros/push/unsubscribe-token'),
  );
  await new Shell(page).signOut();
  // (The body is checked by tests/client/api-client.test.ts against the server's records.)
  expect((await unsubscribe).method()).toBe('PUT');
  await expect(page).toHaveURL(/\/login$/);
  const keys = await page.evaluate(() =>
    ['authState', 'accessToken', 'refreshToken', 'fcmToken'].map((key) =>
      localStorage.getItem(key),
    ),
  );
  expect(keys).toEqual([null, null, null, null]);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('the navigation reaches every area and can be filtered', async ({ page }) => {
  await signInAsAdmin(page);
  const shell = new Shell(page);
  const nav = shell.navigation();
  for (const label of [
    'Dashboard',
    'Gestão de Frotas',
    'Cercas eletrônicas',
    'Relatórios',
    'Históricos',
    'Jornadas',
    'Posições',
    'Distâncias Percorridas',
    'Relatórios Automatizados',
    'Gestão',
    'Veículos',
    'Clientes',
    'Usuários',
  ]) {
    await expect(shell.menuLink(label, true)).toBeVisible();
  }
  await shell.menuFilter().fill('distancias');
  await expect(nav.getByRole('link')).toHaveText(['Relatórios', 'Distâncias Percorridas']);
  await shell.goTo('Distâncias Percorridas');
  await expect(shell.heading('Distâncias Percorridas')).toBeVisible();
  await page.goto('/reports/auto-report-rules/create');
  await expect(shell.breadcrumbs().getByRole('link')).toHaveText([
    'Mapa',
    'Relatórios',
    'Relatórios Automatizados',
    'Criar',
  ]);
});

test('public pages open without a token', async ({ page }) => {
  const create = new CreatePasswordPage(page);
  await create.open();
  await expect(create.heading()).toBeVisible();
  const recover = new RecoverPasswordPage(page);
  await recover.open();
  await expect(recover.heading()).toBeVisible();
  const shared = new SharedLinkPage(page);
  await shared.open('abc123');
  await expect(shared.heading('Acesso temporário')).toBeVisible();
});
