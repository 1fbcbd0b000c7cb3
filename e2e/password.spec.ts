import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_MAIL } from './env';
import { LoginPage, Shell } from './pages';

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
  await page.goto('/login');
  await page.getByRole('link', { name: 'Esqueci a minha senha' }).click();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('button', { name: 'Enviar link' }).click();
  await expect(page.getByRole('status')).toContainText('Se o e-mail estiver cadastrado');

  await expect.poll(() => lastLinkTo('/recover-password', email)).toBeTruthy();
  const link = lastLinkTo('/recover-password', email) ?? '';
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Recuperar senha' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Nova senha' }).fill('curta');
  await page.getByRole('textbox', { name: 'Confirme a senha' }).fill('curta');
  await page.getByRole('button', { name: 'Salvar senha e entrar' }).click();
  await expect(page.getByText('A senha deve ter pelo menos 8 caracteres')).toBeVisible();

  await page.getByRole('textbox', { name: 'Nova senha' }).fill('nova-senha-2026');
  await page.getByRole('textbox', { name: 'Confirme a senha' }).fill('nova-senha-2026');
  await page.getByRole('button', { name: 'Salvar senha e entrar' }).click();
  await new Shell(page).expectSignedIn('Nelson Operador Norte');

  // The link works once only.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await page.getByRole('textbox', { name: 'Nova senha' }).fill('outra-senha-2026');
  await page.getByRole('textbox', { name: 'Confirme a senha' }).fill('outra-senha-2026');
  await page.getByRole('button', { name: 'Salvar senha e entrar' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Link inválido ou expirado' }),
  ).toBeVisible();

  const login = new LoginPage(page);
  await login.open();
  await login.signIn(email, 'nova-senha-2026');
  await new Shell(page).expectSignedIn('Nelson Operador Norte');
});
