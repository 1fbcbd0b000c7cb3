/**
 * Two-step sign-in, as a person goes through it: an operator turns it on in 'Minha conta'
 * (password, QR code and its key, the first code, the ten recovery codes kept), signs out,
 * signs in with a code from the app, signs out, and signs in with a recovery code. The codes
 * are computed here from the key the page shows, as an authenticator app would.
 */
import { expect, type Page, test } from '@playwright/test';
import { base32Decode, hotp, totpStep } from '../server/accounts/auth/two-factor';
import { LoginPage, Shell } from './pages';

/**
 * A demo user no other journey signs in as: the journeys share one server, and after this one
 * the account asks for a code.
 */
const USER = {
  email: 'operador.sul@rastro.demo',
  password: 'rastro-demo',
  name: 'Sérgio Operador Sul',
};

/** The app's code `offset` steps of 30 s from now (the server takes one either side). */
const codeOf = (secret: string, offset = 0) =>
  hotp(base32Decode(secret), totpStep(Date.now()) + offset);

async function signInWithPassword(page: Page) {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(USER.email, USER.password);
  await expect(page.getByRole('heading', { name: 'Verificação em duas etapas' })).toBeVisible();
}

test('turns on two-step sign-in, then signs in with a code and with a recovery code', async ({
  page,
}) => {
  const login = new LoginPage(page);
  const shell = new Shell(page);
  await login.open();
  await login.signIn(USER.email, USER.password);
  await shell.expectSignedIn(USER.name);

  await shell.openUserMenu();
  await page.getByRole('menuitem', { name: 'Minha conta' }).click();
  const section = page.getByRole('region', { name: 'Verificação em duas etapas' });
  await expect(section.getByText('Desativada', { exact: true })).toBeVisible();
  await section.getByRole('button', { name: 'Ativar' }).click();
  await section.getByRole('textbox', { name: 'Senha atual' }).fill('senha-errada-1');
  await section.getByRole('button', { name: 'Continuar' }).click();
  await expect(section.getByText('Senha atual incorreta')).toBeVisible();
  await section.getByRole('textbox', { name: 'Senha atual' }).fill(USER.password);
  await section.getByRole('button', { name: 'Continuar' }).click();

  await expect(
    section.getByRole('img', { name: 'QR code para o aplicativo autenticador' }),
  ).toBeVisible();
  const shown = await section.getByTestId('two-factor-secret').textContent();
  const secret = (shown ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const code = section.getByRole('textbox', { name: 'Código de verificação' });
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await code.fill(codeOf(secret, 5));
  await section.getByRole('button', { name: 'Confirmar e ativar' }).click();
  await expect(section.getByText('Código de verificação inválido')).toBeVisible();
  await code.fill(codeOf(secret));
  await section.getByRole('button', { name: 'Confirmar e ativar' }).click();

  const codes = section.getByRole('region', { name: 'Códigos de recuperação' });
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = await codes.getByRole('listitem').allTextContents();
  const done = codes.getByRole('button', { name: 'Concluir' });
  await expect(done).toBeDisabled();
  await codes.getByText('Guardei os códigos').click();
  await done.click();
  await expect(section.getByText('Ativada', { exact: true })).toBeVisible();
  await expect(
    section.getByText('Restam 10 códigos de recuperação.', { exact: false }),
  ).toBeVisible();

  // Out, and back in with the password and the app's next code.
  await shell.signOut();
  await expect(page).toHaveURL(/\/login$/);
  await signInWithPassword(page);
  const second = page.getByRole('textbox', { name: 'Código de verificação' });
  await expect(second).toBeFocused();
  await second.fill(codeOf(secret, 5));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(login.error()).toHaveText('Código de verificação inválido');
  await second.fill(codeOf(secret, 1));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await shell.expectSignedIn(USER.name);

  // Out again, and in with a recovery code instead of the phone.
  await shell.signOut();
  await expect(page).toHaveURL(/\/login$/);
  await signInWithPassword(page);
  await page.getByRole('button', { name: 'Usar um código de recuperação' }).click();
  await page.getByRole('textbox', { name: 'Código de recuperação' }).fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verificar' }).click();
  await shell.expectSignedIn(USER.name);
  await shell.openUserMenu();
  await page.getByRole('menuitem', { name: 'Minha conta' }).click();
  await expect(section.getByText('Restam 9 códigos de recuperação.')).toBeVisible();
});
