/**
 * 'Minha conta': a manager changes the password (the wrong current one is said under its
 * field), then signs out of every session; the device keeps nothing of them (IndexedDB and
 * the session keys are empty) and the new password signs in. No page breaks the
 * Content-Security-Policy on the way.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { mirrorRows } from './mirror';
import { AccountPage, FleetMapPage, LoginPage, Shell, signInAsAdmin } from './pages';

const USER = { email: 'gestor.sul@rastro.demo', name: 'Sílvia Gestora Sul' };
const NEW_PASSWORD = 'NovaSenha2026';

test('changes the password, signs out everywhere and leaves nothing on the device', async ({
  page,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(USER.email, 'rastro-demo');
  const shell = new Shell(page);
  await shell.expectSignedIn(USER.name);
  // The map fills the device's mirror.
  await expect(shell.heading('Mapa')).toBeVisible();
  await expect.poll(() => mirrorRows(page)).toBeGreaterThan(0);

  await shell.openAccount();
  await expect(shell.heading('Minha conta')).toBeVisible();
  const account = new AccountPage(page);
  await account.changePassword({ current: 'senha-errada-1', next: NEW_PASSWORD });
  await expect(account.passwordForm().getByText('Senha atual incorreta')).toBeVisible();

  await account.changePassword({ current: 'rastro-demo' });
  await expect(shell.toast('Senha alterada. As outras sessões foram encerradas.')).toBeVisible();
  await expect(account.currentPassword()).toHaveValue('');
  await shell.dismissToasts();

  await account.signOutEverywhereButton().click();
  const dialog = account.signOutEverywhereDialog();
  // Sign-out reloads the page (SPEC §4): the next 'load' is that reload.
  const reloaded = page.waitForEvent('load');
  await dialog.getByRole('button', { name: 'Sair de todas' }).click();
  await reloaded;
  await expect(page).toHaveURL(/\/login$/);
  expect(await mirrorRows(page)).toBe(0);
  const keys = await page.evaluate(() =>
    Object.keys(localStorage).filter((key) => key !== 'fcmToken'),
  );
  expect(keys.filter((key) => /authState|Token|selectedClient/.test(key))).toEqual([]);

  await login.signIn(USER.email, 'rastro-demo');
  await expect(login.error()).toHaveText('E-mail ou senha inválidos');
  await login.signIn(USER.email, NEW_PASSWORD);
  await shell.expectSignedIn(USER.name);
  expect(violations).toEqual([]);
});

test('every page comes with the security headers', async ({ request }) => {
  for (const path of ['/', '/login', '/temp-access/qualquer', '/manifest.webmanifest']) {
    const res = await request.get(path);
    const headers = res.headers();
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy'], path).toContain('https://tile.openstreetmap.org');
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy'], path).toContain('geolocation=()');
  }
});

test('no screen breaks the Content-Security-Policy, the map tiles included', async ({
  page,
  context,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  // A stand-in for the tile server (the real one is out of reach here).
  const png = readFileSync('public/icons/icon-192.png');
  await context.route('https://tile.openstreetmap.org/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: png }),
  );
  await signInAsAdmin(page);
  await expect(new FleetMapPage(page).map()).toHaveAttribute('data-rendered', /^\d+$/, {
    timeout: 15_000,
  });
  for (const path of [
    '/management/vehicles',
    '/management/vehicles/create',
    '/management/trackers',
    '/management/customers',
    '/management/users',
    '/management/temporary-links',
    '/account',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  const account = new AccountPage(page);
  await account.signOutEverywhereButton().click();
  await page.getByRole('button', { name: 'Cancelar' }).click();
  expect(violations).toEqual([]);
});
