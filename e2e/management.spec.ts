import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_MAIL } from './env';
import {
  CreatePasswordPage,
  freshCnpj,
  NewPasswordForm,
  REGISTERS,
  ResourceFormPage,
  ResourceListPage,
  Shell,
  selectButton,
  signInAsAdmin,
} from './pages';

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

test('an administrator creates a child company and its manager, who sees only that subtree', async ({
  page,
}) => {
  const shell = new Shell(page);
  const run = Date.now().toString(36);
  const company = `Filial Recife ${run}`;
  const email = `marina.${run}@recife.com.br`;
  const cnpj = freshCnpj();
  const customers = new ResourceListPage(page, REGISTERS.customers);
  const customer = new ResourceFormPage(page, REGISTERS.customers.path);
  const user = new ResourceFormPage(page, REGISTERS.users.path);
  // A child company of Transportes Norte.
  await signInAsAdmin(page, customers.path);
  await customers.createLink().click();
  await expect(shell.heading('Novo cliente')).toBeVisible();
  await customer.fill({ Nome: company, CNPJ: cnpj });
  await expect(customer.field('CNPJ')).toHaveValue(
    `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`,
  );
  await customer.pick('Empresa-mãe', 'Transportes Norte');
  await customer.save();
  await expect(shell.toast('Cliente criado.')).toBeVisible();
  await expect(shell.heading(`Editar cliente: ${company}`)).toBeVisible();

  // A bad CNPJ is refused in the form, before any call.
  await customer.openNew();
  await customer.fill({ Nome: 'Sem CNPJ válido', CNPJ: '11222333000182' });
  await customer.save();
  await expect(page.getByText('CNPJ inválido')).toBeVisible();

  // Its manager.
  await user.openNew();
  await user.fill({ Nome: 'Marina Gestora', 'E-mail': email });
  await user.choose('Nível de acesso', 'Gestor');
  await user.pick('Cliente', company);
  await user.save();
  await expect(shell.toast('Usuário criado. Enviamos um e-mail de primeiro acesso.')).toBeVisible();

  // The manager's first access, from the e-mail.
  await expect.poll(() => firstAccessLink(email)).toBeTruthy();
  await page.evaluate(() => localStorage.clear());
  await page.goto(firstAccessLink(email) ?? '');
  await expect(new CreatePasswordPage(page).heading()).toBeVisible();
  await new NewPasswordForm(page).save('marina-senha-2026');
  await shell.expectSignedIn('Marina Gestora');

  // Only its subtree.
  await customers.open();
  await expect(customers.rowHeaders()).toHaveText([company]);
  // Its mother is named (never '—'), but is not a row she can open.
  await expect(customers.row(company)).toContainText('Transportes Norte');

  // And no 'Administrador' among the levels it may give.
  await user.openNew();
  await selectButton(page, 'Nível de acesso').click();
  await expect(page.getByRole('option')).toHaveText(['Terceiro', 'Usuário', 'Operador', 'Gestor']);
  await expect(page.getByRole('option', { name: 'Administrador' })).toHaveCount(0);
});

test('lists that need a customer say the spec message without one, the same way', async ({
  page,
}) => {
  await signInAsAdmin(page);
  const shell = new Shell(page);
  for (const register of [REGISTERS.users, REGISTERS.vehicles]) {
    const list = new ResourceListPage(page, register);
    await list.open();
    await expect(list.rowHeaders().first()).toBeVisible();
    await list.customerPicker().fill('');
    // As a toast, and in the list's place.
    await expect(shell.toast('Selecione um cliente!')).toBeVisible();
    await expect(shell.toast('Cliente não informado')).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByText('Selecione um cliente!')).toBeVisible();
    await expect(main.getByText('Cliente não informado')).toBeVisible();
    await shell.dismissToasts();
  }
});
