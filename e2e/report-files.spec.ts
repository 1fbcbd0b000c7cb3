/**
 * Report files and automated reports: a trips XLSX of the demo week downloaded from
 * Relatórios with its progress shown (the server writing it, then the bytes), opened back;
 * a weekly automated report set up on Relatórios Automatizados, sent at once with 'Enviar
 * agora', its last send shown, and the message with the file in the local SMTP server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { E2E_MAIL } from './env';
import { Shell, signInAsAdmin } from './pages';

const TRUCK = 'KGH1L23 | Caminhão Baú 01';

async function choose(page: Page, select: string, option: string) {
  await page.getByRole('button', { name: new RegExp(select) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Records every text the download's progress shows (it may pass quickly). */
async function watchProgress(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      const text = bar?.textContent;
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

test('a trips XLSX of the demo week downloads with its progress shown', async ({ page }) => {
  test.setTimeout(60_000);
  await signInAsAdmin(page);
  await page.goto('/reports');
  await choose(page, 'Tipo de relatório', 'Jornadas');
  await page.getByRole('button', { name: /Veículos/ }).click();
  await page.getByRole('option', { name: TRUCK, exact: true }).click();
  await page.keyboard.press('Escape');
  await choose(page, 'Formato', 'Excel (XLSX)');
  await expect(page.getByRole('button', { name: /Entrega/ })).toContainText('Baixar');
  await watchProgress(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Gerar relatório' }).click();
  // The bar lasts as long as the file takes: the observer above records it, however short.
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('jornadas_relatorio.xlsx');
  await expect(new Shell(page).toast('Arquivo jornadas_relatorio.xlsx baixado.')).toBeVisible();
  await expect(page.getByRole('progressbar')).toBeHidden();
  const seen = await page.evaluate(
    () => (window as unknown as { progressSeen: string[] }).progressSeen,
  );
  expect(seen[0]).toContain('Gerando o arquivo…');

  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await download.path());
  const trips = book.getWorksheet('Viagens');
  expect(trips?.getRow(7).getCell(1).value).toBe('Início');
  expect(trips?.getRow(8).getCell(1).value).toBeInstanceOf(Date);
  // The download is in the reports list.
  const list = page.getByRole('grid', { name: 'Relatórios pedidos' });
  await expect(list.getByRole('row').filter({ hasText: 'Jornadas de' }).first()).toContainText(
    'Pronto',
  );
});

test('a weekly automated report set up and sent at once', async ({ page }) => {
  test.setTimeout(60_000);
  const name = `Jornadas da semana ${Date.now()}`;
  await signInAsAdmin(page);
  await page.goto('/reports/auto-report-rules');
  await expect(new Shell(page).heading('Relatórios Automatizados')).toBeVisible();
  await page.getByRole('link', { name: 'Criar' }).click();
  await page.getByRole('textbox', { name: 'Nome' }).fill(name);
  await expect(page.getByRole('button', { name: /Periodicidade/ })).toContainText('Semanal');
  await expect(page.getByRole('button', { name: /Dia do envio/ })).toContainText('Segunda-feira');
  await expect(page.getByRole('button', { name: /Hora do envio/ })).toContainText('07:00');
  await page.getByRole('checkbox', { name: TRUCK }).check({ force: true });
  await page
    .getByRole('textbox', { name: 'E-mails para envio' })
    .fill('frota@, dono@cliente.com.br');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('E-mails inválidos: frota@')).toBeVisible();
  await page
    .getByRole('textbox', { name: 'E-mails para envio' })
    .fill('frota@cliente.com.br, dono@cliente.com.br');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(new Shell(page).toast('Relatório automatizado criado.')).toBeVisible();

  await page.goto('/reports/auto-report-rules');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Semanal, segunda-feira às 07:00');
  await expect(row).toContainText('Ainda não enviado');
  // Two addresses read as the first and '+1' (both for a screen reader), and every column fits
  // beside the menu: none slides under the actions kept at the right edge.
  await expect(row).toContainText('frota@cliente.com.br +1');
  expect(
    await page
      .getByRole('grid', { name: 'Relatórios Automatizados' })
      .locator('xpath=ancestor::*[contains(@class, "table-wrap")][1]')
      .evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth),
  ).toBeLessThanOrEqual(0);
  // Off and on again from the list.
  await row.getByRole('button', { name: `Desativar ${name}` }).click();
  await expect(row).toContainText('Inativo');
  await row.getByRole('button', { name: `Ativar ${name}` }).click();
  await expect(row).toContainText('Ativo');

  const before = readdirSync(E2E_MAIL).length;
  await row.getByRole('link', { name, exact: true }).click();
  await page.getByRole('button', { name: 'Enviar agora' }).click();
  await expect(new Shell(page).toast('Relatório enviado.')).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByText(/^Último envio: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} — enviado$/),
  ).toBeVisible();
  const files = readdirSync(E2E_MAIL).sort().slice(before);
  const mail = files
    .map((f) => readFileSync(path.join(E2E_MAIL, f), 'utf8'))
    .find((m) => m.includes('dono@cliente.com.br'));
  expect(mail).toMatch(/filename="?jornadas_relatorio\.xlsx"?/);
});
