/**
 * Two-step sign-in, as a person goes through it: an operator turns it on in 'Minha conta'
 * (password, QR code and its key, the first code, the ten recovery codes kept), signs out,
 * signs in with a code from the app, signs out, and signs in with a recovery code. The codes
 * are computed here from the key the page shows, as an authenticator app would.
 */
import { expect, type Page, test } from '@playwright/test';
import { base32Decode, hotp, totpStep } from '../server/accounts/auth/two-factor';
import { AccountPage, LoginPage, Shell } from './pages';

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
  await expect(login.twoStepHeading()).toBeVisible();
}

test('turns on two-step sign-in, then signs in with a code and with a recovery code', async ({
  page,
}) => {
  const login = new LoginPage(page);
  const shell = new Shell(page);
  await login.open();
  await login.signIn(USER.email, USER.password);
  await shell.expectSignedIn(USER.name);

  await shell.openAccount();
  const twoStep = new AccountPage(page).twoStep();
  await expect(twoStep.says('Desativada')).toBeVisible();
  await twoStep.start();
  await twoStep.confirmPassword('senha-errada-1');
  await expect(twoStep.region().getByText('Senha atual incorreta')).toBeVisible();
  await twoStep.confirmPassword(USER.password);

  await expect(twoStep.qrCode()).toBeVisible();
  const secret = await twoStep.secret();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const code = twoStep.code();
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await twoStep.confirmCode(codeOf(secret, 5));
  await expect(twoStep.region().getByText('Código de verificação inválido')).toBeVisible();
  await twoStep.confirmCode(codeOf(secret));

  const codes = twoStep.recoveryCodes();
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = await codes.getByRole('listitem').allTextContents();
  await expect(twoStep.doneButton()).toBeDisabled();
  await twoStep.keepCodes();
  await expect(twoStep.says('Ativada')).toBeVisible();
  await expect(twoStep.says('Restam 10 códigos de recuperação.', false)).toBeVisible();

  // Out, and back in with the password and the app's next code.
  await shell.signOut();
  await expect(page).toHaveURL(/\/login$/);
  await signInWithPassword(page);
  await expect(login.verificationCode()).toBeFocused();
  await login.verify(codeOf(secret, 5));
  await expect(login.error()).toHaveText('Código de verificação inválido');
  await login.verify(codeOf(secret, 1));
  await shell.expectSignedIn(USER.name);

  // Out again, and in with a recovery code instead of the phone.
  await shell.signOut();
  await expect(page).toHaveURL(/\/login$/);
  await signInWithPassword(page);
  await login.verifyWithRecoveryCode(recoveryCodes[0] ?? '');
  await shell.expectSignedIn(USER.name);
  await shell.openAccount();
  await expect(twoStep.region().getByText('Restam 9 códigos de recuperação.')).toBeVisible();
});
