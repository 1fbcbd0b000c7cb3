import { expect, test } from '@playwright/test';
import {
  FleetMapPage,
  ManagementPage,
  REGISTERS,
  ResourceListPage,
  Shell,
  signInAsAdmin,
} from './pages';

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the menu opens as a drawer, reaches an area and closes on navigation', async ({ page }) => {
    await signInAsAdmin(page);
    const shell = new Shell(page);
    await expect(shell.navigation()).toBeHidden();
    await shell.menuButton(false).click();
    await expect(shell.menuButton(true)).toHaveAttribute('aria-expanded', 'true');
    await shell.goTo('Veículos');
    await expect(shell.heading('Veículos')).toBeVisible();
    await expect(shell.navigation()).toBeHidden();
  });
});

test.describe('on a tablet', () => {
  test.use({ viewport: { width: 820, height: 1180 } });

  test('shows the customer beside the brand and the areas as cards', async ({ page }) => {
    const management = new ManagementPage(page);
    await signInAsAdmin(page, management.path);
    await expect(page.getByRole('banner').getByText('Rastro Demonstração')).toBeVisible();
    for (const name of ['Veículos', 'Clientes', 'Usuários']) {
      await expect(management.card(name)).toBeVisible();
    }
    // Each card says what its area is for, read as the link's description.
    await expect(management.card('Veículos')).toHaveAccessibleDescription(
      'Placas, modelos e o rastreador de cada veículo.',
    );
  });
});

test('the map keeps its size once drawn: the fleet counts that arrive after it do not move it', async ({
  page,
}) => {
  // Every size the map takes, from the first; at 1366 × 800 the counts growing from '0' to
  // '20' wrapped the toolbar and the map went from 532 to 478 px a moment after it was drawn.
  await page.addInitScript(() => {
    const sizes: number[] = [];
    Object.assign(window, { mapSizes: sizes });
    new MutationObserver(() => {
      const map = document.querySelector('[aria-label="Mapa da frota"]');
      if (!map || map.hasAttribute('data-watched')) return;
      map.setAttribute('data-watched', '');
      new ResizeObserver(([entry]) => {
        if (entry) sizes.push(Math.round(entry.contentRect.height));
      }).observe(map);
    }).observe(document, { childList: true, subtree: true });
  });
  await signInAsAdmin(page);
  await page.reload();
  const fleet = new FleetMapPage(page);
  await expect(fleet.map()).toHaveAttribute('data-rendered', /^\d+$/, { timeout: 15_000 });
  await expect(fleet.situation()).toContainText(/Em movimento: [1-9]/);
  const sizes = await page.evaluate(() => (window as unknown as { mapSizes: number[] }).mapSizes);
  expect(sizes.length).toBeGreaterThan(0);
  expect(new Set(sizes).size).toBe(1);
});

test('a list wider than the window keeps its actions in view, on one line', async ({ page }) => {
  // Eight columns of customers: wider than the content beside the menu at 1366 px.
  const customers = new ResourceListPage(page, REGISTERS.customers);
  await signInAsAdmin(page, customers.path);
  await customers.search().fill('Logística Sul');
  const row = customers.row('Logística Sul');
  const edit = row.getByRole('link', { name: 'Editar Logística Sul' });
  const remove = row.getByRole('button', { name: 'Remover Logística Sul' });
  await expect(edit).toBeInViewport({ ratio: 1 });
  await expect(remove).toBeInViewport({ ratio: 1 });
  const [a, b] = [await edit.boundingBox(), await remove.boundingBox()];
  expect(a && b && Math.abs(a.y - b.y)).toBeLessThan(2);
});
