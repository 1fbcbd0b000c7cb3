/**
 * Each level sees only what it may do (the permission matrix of src/contract/permissions.ts):
 * menus, buttons and routes. A Terceiro and a Cliente see no write action anywhere and a
 * typed address they may not open says 'Acesso negado'; an Operador never sees 'Remover'.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  AlertHistoryPage,
  REGISTERS,
  ResourceFormPage,
  ResourceListPage,
  Shell,
  signInAs,
} from './pages';

/**
 * Anything that would change data, by the names the screens give it. 'Ativar notificações'
 * (the invitation after sign-in) changes only this device's notifications: every level has it.
 */
const WRITE =
  /^(Criar|Editar|Remover|Salvar|Bloquear|Desbloquear|Enviar fotos|Remover foto|Revogar|Ativar(?! notificações)|Desativar|Habilitar|Desabilitar|Criar link|Vincular|Desvincular|Consultar placa)\b/;

async function expectNoWriteAction(page: Page) {
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: WRITE })).toHaveCount(0);
  await expect(main.getByRole('link', { name: WRITE })).toHaveCount(0);
}

async function menuLinks(page: Page): Promise<string[]> {
  const nav = new Shell(page).navigation();
  return nav
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
}

async function expectDenied(page: Page, path: string) {
  await page.goto(path);
  await expect(new Shell(page).heading('Acesso negado')).toBeVisible();
  await expect(
    page.getByText(/O seu nível de acesso \(.+\) não permite abrir esta página/),
  ).toBeVisible();
}

test('a Terceiro sees the map and the two vehicles linked to them, read-only', async ({ page }) => {
  await signInAs(page, 'terceiro@rastro.demo', 'Tiago Terceiro');
  // And the alerts of those vehicles (read-only: acknowledging is for operators), and the
  // provider's support contact (the demo's, read a moment after the menu is drawn).
  await expect
    .poll(() => menuLinks(page))
    .toEqual([
      '/',
      '/fleet-management',
      '/fleet-management/alerts/alerts-history',
      '/management',
      '/management/vehicles',
      '/support',
    ]);

  const vehicles = new ResourceListPage(page, REGISTERS.vehicles);
  await vehicles.open();
  await expect(vehicles.rowHeaders()).toHaveText(['KGH1L23', 'KGK6T45']);
  await expectNoWriteAction(page);

  // A vehicle's page is its record, not a form that fails on save.
  await vehicles.grid().getByRole('link', { name: 'KGH1L23' }).click();
  await expect(new Shell(page).heading('KGH1L23 | Caminhão Baú 01')).toBeVisible();
  const vehicle = new ResourceFormPage(page, REGISTERS.vehicles.path);
  await expect(vehicle.readOnly()).toBeVisible();
  await expect(vehicle.field('Nome')).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Voltar' })).toBeVisible();
  await expectNoWriteAction(page);

  // The alert history's crumbs follow the menu, where it sits beside the rules, and lead only
  // where a Terceiro may go: no 'Regras de alerta' (an 'Acesso negado' for them).
  await new AlertHistoryPage(page).open();
  const crumbs = new Shell(page).breadcrumbs();
  await expect(crumbs.getByRole('listitem')).toHaveText([
    'Mapa',
    'Gestão de Frotas',
    'Histórico de alertas',
  ]);
  await expect(crumbs.getByRole('link', { name: 'Gestão de Frotas' })).toBeVisible();

  for (const path of [
    '/management/users',
    '/management/customers',
    '/management/trackers',
    '/management/vehicles/create',
    '/management/temporary-links',
    '/dashboard',
    '/fleet-management/geofences',
    '/fleet-management/alerts',
  ])
    await expectDenied(page, path);
});

test('a Cliente reads everything of their companies and changes nothing', async ({ page }) => {
  await signInAs(page, 'cliente@rastro.demo', 'Clara Cliente');
  const links = await menuLinks(page);
  expect(links).toContain('/management/vehicles');
  expect(links).toContain('/management/customers');
  expect(links).not.toContain('/management/users');
  expect(links).not.toContain('/management/temporary-links');

  // Every list they can open, and a record of each, has no write action.
  for (const path of links.filter((href) => href.startsWith('/management/'))) {
    const list = new ResourceListPage(page, { path });
    await list.open();
    await expect(list.rowHeaders().first()).toBeVisible();
    await expectNoWriteAction(page);
    await list.rowHeaders().first().getByRole('link').click();
    await expect(new ResourceFormPage(page, path).readOnly()).toBeVisible();
    await expectNoWriteAction(page);
  }

  for (const path of [
    '/management/users',
    '/management/users/create',
    '/management/vehicles/create',
    '/management/customers/create',
    '/management/temporary-links',
  ])
    await expectDenied(page, path);
});

test('an Operador registers and edits, but never sees Remover', async ({ page }) => {
  await signInAs(page, 'operador@rastro.demo', 'Otávio Operador');
  for (const path of [
    '/management/vehicles',
    '/management/trackers',
    '/management/simcards',
    '/management/drivers',
    '/management/fleets',
    '/management/customers',
  ]) {
    const list = new ResourceListPage(page, { path });
    await list.open();
    await expect(list.rowHeaders().first()).toBeVisible();
    await expect(page.getByRole('button', { name: /^Remover/ })).toHaveCount(0);
  }
  const vehicles = new ResourceListPage(page, REGISTERS.vehicles);
  await vehicles.open();
  await expect(vehicles.createLink()).toBeVisible();
  await expect(page.getByRole('link', { name: /^Editar KGH1L23/ })).toBeVisible();
  await expectDenied(page, '/management/users');
});
