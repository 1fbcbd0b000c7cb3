/**
 * Invoices and payments in Chromium, on the demo's Asaas stand-in: a customer opens the
 * 'Faturas e pagamentos' list (each status as its SPEC §3 chip), opens a Pix charge, sees the
 * QR code and copies the code; a boleto shows its digitable line and PDF. The demo's support
 * contact (no SUPPORT_* here) is beside the invoices and under 'Suporte' in the menu.
 */
import { expect, test } from '@playwright/test';
import { Shell, signInAs } from './pages';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('a customer opens a Pix charge, sees the QR code and copies the code', async ({ page }) => {
  await signInAs(page, 'cliente@rastro.demo', 'Clara Cliente');
  const shell = new Shell(page);
  await shell.navigation().getByRole('link', { name: 'Faturas e pagamentos' }).click();
  await expect(shell.heading('Faturas e pagamentos')).toBeVisible();
  const table = page.getByRole('grid', { name: 'Faturas e pagamentos' });
  for (const label of ['Pago', 'Pendente', 'Inativo'])
    await expect(table.getByText(label, { exact: true }).first()).toBeVisible();
  const contact = page.getByRole('complementary', { name: 'Suporte' });
  await expect(contact.getByRole('link', { name: 'financeiro@rastro.demo' })).toHaveAttribute(
    'href',
    'mailto:financeiro@rastro.demo',
  );

  // The newest charge of the demo is a Pix one, due in ten days.
  const pixRow = table.getByRole('row').filter({ hasText: 'Pix' }).filter({ hasText: 'Pendente' });
  await pixRow.first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: /^Fatura nº \d+$/ })).toBeVisible();
  const qr = page.getByRole('img', { name: 'QR code do Pix' });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  const code = (await page.getByTestId('pix-code').textContent()) ?? '';
  expect(code).toMatch(/^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
  await page.getByRole('button', { name: 'Copiar código Pix' }).click();
  await expect(shell.toast('Copiado.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  await expect(contact.getByRole('link', { name: '(81) 3234-5678' })).toHaveAttribute(
    'href',
    'tel:8132345678',
  );

  // Back to the list; a boleto shows its line and its PDF.
  await page.getByRole('link', { name: 'Voltar às faturas' }).click();
  const boletoRow = table
    .getByRole('row')
    .filter({ hasText: 'Boleto' })
    .filter({ hasText: 'Pendente' });
  await boletoRow.first().getByRole('link').click();
  await expect(page.getByText('Linha digitável', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copiar linha digitável' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Baixar boleto (PDF)' })).toHaveAttribute(
    'href',
    /\/b\/pdf\//,
  );

  // The whole contact from the menu, WhatsApp as a wa.me link.
  await shell.navigation().getByRole('link', { name: 'Suporte' }).click();
  await expect(shell.heading('Suporte')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Conversar no WhatsApp' })).toHaveAttribute(
    'href',
    'https://wa.me/5581998765432',
  );
});

test('a Terceiro has no payments in the menu and is denied the page', async ({ page }) => {
  await signInAs(page, 'terceiro@rastro.demo', 'Tiago Terceiro');
  const shell = new Shell(page);
  await expect(shell.navigation().getByRole('link', { name: 'Faturas e pagamentos' })).toHaveCount(
    0,
  );
  await page.goto('/payments');
  await expect(shell.heading('Acesso negado')).toBeVisible();
});
