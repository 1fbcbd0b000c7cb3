import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { E2E_MAIL } from './env';
import { freshCnpj, Shell, signInAsAdmin } from './pages';

function firstAccessLink(email: string): string | undefined {
  for (const file of readdirSync(E2E_MAIL).sort().reverse()) {
    const raw = readFileSync(path.join(E2E_MAIL, file), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    if (!raw.includes(email)) continue;
    const match = /https?:\/\/[^\s"<>]+\/create-password\?token=[A-Za-z0-9_-]+/.exec(raw);
    if (match) return match[0];
  }
  return undefined;
}

async function pick(page: Page, combobox: string, option: string) {
  const field = page.getByRole('combobox', { name: combobox });
  await field.click();
  await field.fill(option);
  await page.getByRole('option', { name: option }).click();
}

async function choose(page: Page, select: string, option: string) {
  await page.getByRole('button', { name: new RegExp(select) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an administrator creates a child company and its manager, who sees only that subtree', async ({
  page,
}) => {
  const shell = new Shell(page);
  const run = Date.now().toString(36);
  const company = `Filial Recife ${run}`;
  const email = `marina.${run}@recife.com.br`;
  const cnpj = freshCnpj();
  await signInAsAdmin(page);

  // A child company of Transportes Norte.
  await page.goto('/management/customers');
  await page.getByRole('link', { name: 'Criar' }).click();
  await expect(shell.heading('Novo cliente')).toBeVisible();
  await page.getByRole('textbox', { name: 'Nome' }).fill(company);
  await page.getByRole('textbox', { name: 'CNPJ' }).fill(cnpj);
  await expect(page.getByRole('textbox', { name: 'CNPJ' })).toHaveValue(
    `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`,
  );
  await pick(page, 'Empresa-mãe', 'Transportes Norte');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(shell.toast('Cliente criado.')).toBeVisible();
  await expect(shell.heading(`Editar cliente: ${company}`)).toBeVisible();

  // A bad CNPJ is refused in the form, before any call.
  await page.goto('/management/customers/create');
  await page.getByRole('textbox', { name: 'Nome' }).fill('Sem CNPJ válido');
  await page.getByRole('textbox', { name: 'CNPJ' }).fill('11222333000182');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('CNPJ inválido')).toBeVisible();

  // Its manager.
  await page.goto('/management/users/create');
  await page.getByRole('textbox', { name: 'Nome' }).fill('Marina Gestora');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await choose(page, 'Nível de acesso', 'Gestor');
  await pick(page, 'Cliente', company);
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(shell.toast('Usuário criado. Enviamos um e-mail de primeiro acesso.')).toBeVisible();

  // The manager's first access, from the e-mail.
  await expect.poll(() => firstAccessLink(email)).toBeTruthy();
  await page.evaluate(() => localStorage.clear());
  await page.goto(firstAccessLink(email) ?? '');
  await expect(page.getByRole('heading', { name: 'Criar senha de acesso' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Nova senha' }).fill('marina-senha-2026');
  await page.getByRole('textbox', { name: 'Confirme a senha' }).fill('marina-senha-2026');
  await page.getByRole('button', { name: 'Salvar senha e entrar' }).click();
  await shell.expectSignedIn('Marina Gestora');

  // Only its subtree.
  await page.goto('/management/customers');
  const table = page.getByRole('grid', { name: 'Clientes' });
  await expect(table.getByRole('rowheader')).toHaveText([company]);
  // Its mother is named (never '—'), but is not a row she can open.
  await expect(table.getByRole('row').filter({ hasText: company })).toContainText(
    'Transportes Norte',
  );

  // And no 'Administrador' among the levels it may give.
  await page.goto('/management/users/create');
  await page.getByRole('button', { name: /Nível de acesso/ }).click();
  await expect(page.getByRole('option')).toHaveText(['Terceiro', 'Usuário', 'Operador', 'Gestor']);
  await expect(page.getByRole('option', { name: 'Administrador' })).toHaveCount(0);
});

test('lists that need a customer say the spec message without one, the same way', async ({
  page,
}) => {
  await signInAsAdmin(page);
  const shell = new Shell(page);
  const lists: [string, string][] = [
    ['/management/users', 'Usuários'],
    ['/management/vehicles', 'Veículos'],
  ];
  for (const [path, grid] of lists) {
    await page.goto(path);
    const table = page.getByRole('grid', { name: grid });
    await expect(table.getByRole('rowheader').first()).toBeVisible();
    await page.getByRole('combobox', { name: 'Cliente' }).fill('');
    // As a toast, and in the list's place.
    await expect(shell.toast('Selecione um cliente!')).toBeVisible();
    await expect(shell.toast('Cliente não informado')).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByText('Selecione um cliente!')).toBeVisible();
    await expect(main.getByText('Cliente não informado')).toBeVisible();
    await shell.dismissToasts();
  }
});
