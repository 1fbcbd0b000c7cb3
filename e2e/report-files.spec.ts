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
import { AutoReportRulesPage, RequestedReportsPage, Shell, signInAsAdmin } from './pages';

const TRUCK = 'KGH1L23 | Caminhão Baú 01';

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
  const reports = new RequestedReportsPage(page);
  await signInAsAdmin(page, reports.path);
  await reports.chooseType('Jornadas');
  await reports.chooseVehicles([TRUCK]);
  await reports.chooseFormat('Excel (XLSX)');
  await expect(reports.delivery()).toContainText('Baixar');
  await watchProgress(page);
  const downloading = page.waitForEvent('download');
  await reports.generateButton().click();
  // The bar lasts as long as the file takes: the observer above records it, however short.
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('jornadas_relatorio.xlsx');
  await expect(new Shell(page).toast('Arquivo jornadas_relatorio.xlsx baixado.')).toBeVisible();
  await expect(reports.progress()).toBeHidden();
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
  await expect(reports.request('Jornadas de').first()).toContainText('Pronto');
});

test('a weekly automated report set up and sent at once', async ({ page }) => {
  test.setTimeout(60_000);
  const name = `Jornadas da semana ${Date.now()}`;
  const rules = new AutoReportRulesPage(page);
  await signInAsAdmin(page, rules.path);
  await expect(new Shell(page).heading('Relatórios Automatizados')).toBeVisible();
  await rules.createLink().click();
  await rules.name().fill(name);
  await expect(rules.select('Periodicidade')).toContainText('Semanal');
  await expect(rules.select('Dia do envio')).toContainText('Segunda-feira');
  await expect(rules.select('Hora do envio')).toContainText('07:00');
  await rules.vehicle(TRUCK).check({ force: true });
  await rules.emails().fill('frota@, dono@cliente.com.br');
  await rules.save();
  await expect(page.getByText('E-mails inválidos: frota@')).toBeVisible();
  await rules.emails().fill('frota@cliente.com.br, dono@cliente.com.br');
  await rules.save();
  await expect(new Shell(page).toast('Relatório automatizado criado.')).toBeVisible();

  await rules.open();
  const row = rules.rule(name);
  await expect(row).toContainText('Semanal, segunda-feira às 07:00');
  await expect(row).toContainText('Ainda não enviado');
  // Two addresses read as the first and '+1' (both for a screen reader), and every column fits
  // beside the menu: none slides under the actions kept at the right edge.
  await expect(row).toContainText('frota@cliente.com.br +1');
  expect(
    await rules
      .list()
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
  await rules.sendNow();
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
