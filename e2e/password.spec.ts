import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_MAIL } from './env';
import { LoginPage, NewPasswordForm, RecoverPasswordPage, Shell } from './pages';

function lastLinkTo(pathname: string, to: string): string | undefined {
  const files = readdirSync(E2E_MAIL).sort().reverse();
  for (const file of files) {
    const raw = readFileSync(path.join(E2E_MAIL, file), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    if (!raw.includes(to)) continue;
    const match = new RegExp(`https?://[^\\s"<>]+${pathname}\\?token=[A-Za-z0-9_-]+`).exec(raw);
    if (match) return match[0];
  }
  return undefined;
}

test('a forgotten password is recovered through the e-mailed link', async ({ page }) => {
  const email = 'operador.norte@rastro.demo';
  const login = new LoginPage(page);
  const recover = new RecoverPasswordPage(page);
  const form = new NewPasswordForm(page);
  await login.open();
  await login.forgotPasswordLink().click();
  await recover.askForLink(email);
  await expect(recover.sent()).toContainText('Se o e-mail estiver cadastrado');

  await expect.poll(() => lastLinkTo('/recover-password', email)).toBeTruthy();
  const link = lastLinkTo('/recover-password', email) ?? '';
  await page.goto(link);
  await expect(recover.heading()).toBeVisible();
  await form.save('curta');
  await expect(page.getByText('A senha deve ter pelo menos 8 caracteres')).toBeVisible();

  await form.save('nova-senha-2026');
  await new Shell(page).expectSignedIn('Nelson Operador Norte');

  // The link works once only.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await form.save('outra-senha-2026');
  await expect(form.invalidLink()).toBeVisible();

  await login.open();
  await login.signIn(email, 'nova-senha-2026');
  await new Shell(page).expectSignedIn('Nelson Operador Norte');
});
