/**
 * SPEC §8: 'Carregando veículos...' while a vehicle picker loads from the network, and
 * 'Erro ao carregar veículos' with the server's message when that fails; meanwhile the picker
 * itself says it is loading.
 */
import { expect, type Page, test } from '@playwright/test';
import { REGISTERS, ResourceFormPage, Shell, selectButton, signInAsAdmin } from './pages';

const VEHICLES = /\/registros\/vehicle\?/;

/** Holds the answers to `url` back until the function it returns is called. */
async function holdBack(page: Page, url: RegExp) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

// The picker's own loading and error path: with the service worker in control, the vehicle
// list is a lookup it answers from its cache (stale-while-revalidate) and fetches itself, out
// of reach of page.route — whether it controls the page by then is a race with its install.
test.use({ serviceWorkers: 'block' });

test('a vehicle picker says it is loading, and says why it failed', async ({ page }) => {
  await signInAsAdmin(page);
  const shell = new Shell(page);

  await page.route(VEHICLES, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({
        statusCode: 500,
        code: 'SERVER_ERROR',
        message: 'Banco de dados indisponível',
      }),
    }),
  );
  await new ResourceFormPage(page, REGISTERS.fleets.path).openNew();
  await expect(shell.toast('Erro ao carregar veículos')).toBeVisible({ timeout: 10_000 });
  await expect(shell.toast('Banco de dados indisponível')).toBeVisible();
  await page.unroute(VEHICLES);

  // The answer is held until the loading toast has been seen, then let through.
  const release = await holdBack(page, VEHICLES);
  await page.reload();
  await expect(shell.toast('Carregando veículos...')).toBeVisible();
  // The fleet's vehicle list says so too, rather than that there are none.
  const fleetVehicles = page.getByRole('group', { name: 'Veículos' });
  await expect(fleetVehicles).toContainText('Carregando…');
  release();
  await expect(shell.toast('Carregando veículos...')).toBeHidden();
  await expect(page.getByRole('checkbox', { name: /^KGH1L23 \| Caminhão Baú 01$/ })).toBeVisible();
  await expect(fleetVehicles).not.toContainText('Carregando…');
});

test("a form's vehicle select says it is loading instead of offering 'Nenhum' alone", async ({
  page,
}) => {
  const trackers = new ResourceFormPage(page, REGISTERS.trackers.path);
  const release = await holdBack(page, VEHICLES);
  await signInAsAdmin(page, trackers.newPath());
  const vehicle = selectButton(page, /Veículo$/);
  await expect(vehicle).toContainText('Carregando…');
  await expect(vehicle).toBeDisabled();
  release();
  await expect(vehicle).toBeEnabled();
  await vehicle.click();
  await expect(page.getByRole('option', { name: 'Nenhum', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: /^KGH1L23 \| / })).toBeVisible();
});
