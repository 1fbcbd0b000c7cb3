/**
 * Invoices and payments in Chromium, on the demo's Asaas stand-in: a customer opens the
 * 'Faturas e pagamentos' list (each status as its SPEC §3 chip), opens a Pix charge, sees the
 * QR code and copies the code; a boleto shows its digitable line and PDF. The demo's support
 * contact (no SUPPORT_* here) is beside the invoices and under 'Suporte' in the menu.
 */
import { expect, test } from '@playwright/test';
import { PaymentsPage, Shell, signInAs } from './pages';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('a customer opens a Pix charge, sees the QR code and copies the code', async ({ page }) => {
  await signInAs(page, 'cliente@rastro.demo', 'Clara Cliente');
  const shell = new Shell(page);
  await shell.goTo('Faturas e pagamentos');
  await expect(shell.heading('Faturas e pagamentos')).toBeVisible();
  const payments = new PaymentsPage(page);
  for (const label of ['Pago', 'Pendente', 'Inativo'])
    await expect(payments.list().getByText(label, { exact: true }).first()).toBeVisible();
  const contact = payments.supportContact();
  await expect(contact.getByRole('link', { name: 'financeiro@rastro.demo' })).toHaveAttribute(
    'href',
    'mailto:financeiro@rastro.demo',
  );

  // The newest charge of the demo is a Pix one, due in ten days.
  await payments.openInvoice('Pix', 'Pendente');
  await expect(payments.invoiceHeading()).toBeVisible();
  const qr = payments.pixQrCode();
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  const code = (await payments.pixCode().textContent()) ?? '';
  expect(code).toMatch(/^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
  await payments.copyPixCode();
  await expect(shell.toast('Copiado.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  await expect(contact.getByRole('link', { name: '(81) 3234-5678' })).toHaveAttribute(
    'href',
    'tel:8132345678',
  );

  // Back to the list; a boleto shows its line and its PDF.
  await payments.backToList();
  await payments.openInvoice('Boleto', 'Pendente');
  await expect(page.getByText('Linha digitável', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copiar linha digitável' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Baixar boleto (PDF)' })).toHaveAttribute(
    'href',
    /\/b\/pdf\//,
  );

  // The whole contact from the menu, WhatsApp as a wa.me link.
  await shell.goTo('Suporte');
  await expect(shell.heading('Suporte')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Conversar no WhatsApp' })).toHaveAttribute(
    'href',
    'https://wa.me/5581998765432',
  );
});

test('a Terceiro has no payments in the menu and is denied the page', async ({ page }) => {
  await signInAs(page, 'terceiro@rastro.demo', 'Tiago Terceiro');
  const shell = new Shell(page);
  await expect(shell.menuLink('Faturas e pagamentos')).toHaveCount(0);
  await new PaymentsPage(page).open();
  await expect(shell.heading('Acesso negado')).toBeVisible();
});
