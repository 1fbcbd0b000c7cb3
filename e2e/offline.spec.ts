import { expect, type Request, test } from '@playwright/test';
import { keptByWorker } from './mirror';
import {
  AccountPage,
  ADMIN,
  AlertHistoryPage,
  choose,
  DashboardPage,
  FleetMapPage,
  PositionsReportPage,
  REGISTERS,
  ResourceFormPage,
  ResourceListPage,
  Shell,
  selectButton,
  signInAsAdmin,
  waitForServiceWorker,
} from './pages';

// Reloads without signal are answered by the service worker.
test.use({ serviceWorkers: 'allow' });

// One journey for the shell offline: every route it keeps, and a page whose code it lacks (two
// journeys spent a sign-in and the worker's install twice, about 8 s).
test('with the network cut, a reload still shows the shell on every route, and a page whose code this device lacks says so until a new try with signal', async ({
  page,
  context,
}) => {
  // The worker keeps the app's files a few at a time (one at a time, some 320 round trips
  // stood between a first visit and a working app offline), and never more than a browser's
  // six connections to a host.
  const requested = new Set<string>();
  const inFlight = new Set<Request>();
  let most = 0;
  context.on('request', (request) => {
    if (!request.serviceWorker() || !new URL(request.url()).pathname.startsWith('/assets/')) return;
    requested.add(request.url());
    inFlight.add(request);
    most = Math.max(most, inFlight.size);
  });
  const finished = (request: Request) => inFlight.delete(request);
  context.on('requestfinished', finished);
  context.on('requestfailed', finished);
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  expect(most).toBeGreaterThan(1);
  expect(most).toBeLessThanOrEqual(6);
  // Every file it fetched is kept.
  const kept = await page.evaluate(async () => {
    const name = (await caches.keys()).find((key) => key.startsWith('workbox-precache'));
    const cache = name ? await caches.open(name) : undefined;
    return cache ? (await cache.keys()).filter((r) => r.url.includes('/assets/')).length : 0;
  });
  expect(kept).toBe(requested.size);
  const shell = new Shell(page);

  await context.setOffline(true);
  await page.reload();
  await expect(shell.heading('Mapa')).toBeVisible();
  await expect(page.getByText('Sem conexão', { exact: true })).toBeVisible();
  await shell.expectSignedIn();

  await new PositionsReportPage(page).open();
  await expect(shell.heading('Posições')).toBeVisible();
  await new AlertHistoryPage(page).open();
  await expect(shell.heading('Histórico de alertas')).toBeVisible();

  // A device that lacks the users page's code (a version replaced meanwhile, say).
  await page.evaluate(`(async () => {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys())
        if (request.url.includes('/assets/UsersPage-')) await cache.delete(request);
    }
  })()`);
  // Nor in the browser's own cache (routing turns it off), nor on the network.
  await context.route('**/assets/UsersPage-*', (route) => route.abort('internetdisconnected'));
  await shell.goTo('Usuários');
  await expect(shell.heading('Não foi possível abrir esta página')).toBeVisible();
  await expect(
    page.getByText('Sem conexão: esta página ainda não foi guardada neste aparelho.'),
  ).toBeVisible();
  // The shell stays: the menu still leads elsewhere.
  await expect(shell.navigation()).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByText('Sem conexão', { exact: true })).toBeHidden();
  await context.unroute('**/assets/UsersPage-*');
  await page.getByRole('button', { name: 'Tentar de novo' }).click();
  await expect(shell.heading('Usuários')).toBeVisible();
});

test('offline, pickers and lists say what they have: the kept customers, the own company, or no signal', async ({
  page,
  context,
}) => {
  // Signed in at once: the map reads the customers while the service worker still installs,
  // past it. Once it controls the page they are read again through it, and kept.
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await expect.poll(() => keptByWorker(page, '/registros/client')).toBe(true);

  await context.setOffline(true);
  await page.reload();
  const picker = new FleetMapPage(page).customerPicker();
  await expect(picker).toHaveValue('Rastro Demonstração');
  await page.getByRole('button', { name: 'Mostrar opções de Cliente' }).click();
  await expect(page.getByRole('option', { name: 'Logística Sul' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Nothing kept (a device that never read the list through the worker): the own company,
  // and the picker says why the others are missing instead of loading for ever.
  await page.evaluate(`(async () => {
    for (const name of await caches.keys())
      if (name.startsWith('rastro-lookups:')) await caches.delete(name);
  })()`);
  await page.reload();
  await expect(picker).toHaveValue('Rastro Demonstração');
  await expect(page.getByText('Carregando clientes…')).toHaveCount(0);
  await picker.fill('');
  await expect(picker).toHaveAttribute('placeholder', 'Sem conexão: só a sua empresa');

  // A report's vehicles were never read: 'Sem conexão', not 'none'.
  const positions = new PositionsReportPage(page);
  await positions.open();
  await expect(selectButton(page, /Veículo/)).toContainText('Sem conexão');
  // So does a form's, instead of offering its 'Nenhum' alone.
  await new ResourceFormPage(page, REGISTERS.trackers.path).openNew();
  await expect(selectButton(page, /Veículo$/)).toContainText('Sem conexão');
  // A list read only online waits for the connection, and says so.
  const users = new ResourceListPage(page, REGISTERS.users);
  await users.open();
  await expect(users.waitsForConnection()).toBeVisible();
  // A mirrored list never synced on this device does not claim there is nothing.
  const vehicles = new ResourceListPage(page, REGISTERS.vehicles);
  await vehicles.open();
  await expect(vehicles.waitsForConnection()).toBeVisible();
  await expect(page.getByText('Nenhum veículo encontrado.')).toHaveCount(0);
  // A record the device does not keep waits for the connection too.
  const me = await page.evaluate('JSON.parse(localStorage.getItem("authState")).user.id');
  const user = new ResourceFormPage(page, REGISTERS.users.path);
  await user.openRecord(String(me));
  await expect(user.waitsForConnection()).toBeVisible();
  // So do the dashboard and the support contact; the account shows what the session keeps.
  await new DashboardPage(page).open();
  await expect(page.getByText('Os números aparecem quando a conexão voltar.')).toBeVisible();
  await page.goto('/support');
  await expect(
    page.getByText('Sem conexão: o contato do suporte aparece quando a conexão voltar.'),
  ).toBeVisible();
  const account = new AccountPage(page);
  await account.open();
  await expect(account.details()).toContainText(ADMIN.email);
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0);
  await positions.open();

  await context.setOffline(false);
  await page.reload();
  await expect(selectButton(page, /Veículo/)).toContainText('Selecione');
});

test.describe('without the worker', () => {
  // The search is the page's own: no reload, nothing the worker answers. Without its install
  // the journey costs some 5 s less.
  test.use({ serviceWorkers: 'block' });

  test('offline, a list asked for with other filters says so instead of showing the rows it had', async ({
    page,
    context,
  }) => {
    const users = new ResourceListPage(page, REGISTERS.users);
    await signInAsAdmin(page, users.path);
    const table = users.grid();
    await expect(table.getByRole('rowheader', { name: ADMIN.name })).toBeVisible();

    // Read online only: without signal a new search cannot be answered.
    await context.setOffline(true);
    await users.search().fill('operador');
    await expect(users.waitsForConnection()).toBeVisible();
    await expect(table.getByRole('rowheader', { name: ADMIN.name })).toHaveCount(0);
    // Nor the other list's count: the size of this one is not known yet.
    const paging = users.pagination();
    await expect(paging.getByText(/ de \d+$/)).toHaveCount(0);
    await expect(paging.getByText('Sem conexão', { exact: true })).toBeVisible();
    await expect(paging.getByText('Página 1', { exact: true })).toBeVisible();

    // The search is answered once the connection is back.
    await context.setOffline(false);
    await expect(table.getByRole('rowheader', { name: /Operador/ }).first()).toBeVisible();
    await expect(table.getByRole('rowheader', { name: ADMIN.name })).toHaveCount(0);
    await expect(paging.getByText(/^1–\d+ de \d+$/)).toBeVisible();
  });
});

test('offline, the alert history shows the pages kept on the last visit, with their age', async ({
  page,
  context,
}) => {
  const history = new AlertHistoryPage(page);
  await signInAsAdmin(page, history.path);
  await waitForServiceWorker(page);
  const table = history.grid();
  await expect(table).toBeVisible();
  // Kept by the worker once it controls the page (read again through it if read before).
  await expect.poll(() => keptByWorker(page, '/registros/alerts')).toBe(true);
  const shown = await table.getByRole('row').count();

  await context.setOffline(true);
  await page.reload();
  const shell = new Shell(page);
  await expect(shell.status(/^Sem conexão — dados de \d\d:\d\d$/)).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(shown);
  await expect(page.getByText('Sem conexão: a lista aparece quando a conexão voltar.')).toHaveCount(
    0,
  );

  // A page never read: no rows of another page under its filters, and why.
  await choose(page, /Tipo$/, 'Combustível baixo');
  await expect(
    page.getByText('Sem conexão: a lista aparece quando a conexão voltar.'),
  ).toBeVisible();

  await context.setOffline(false);
  await expect(
    page.getByText('Sem conexão: a lista aparece quando a conexão voltar.'),
  ).toBeHidden();
  await expect(shell.status(/dados de/)).toHaveCount(0);
});
