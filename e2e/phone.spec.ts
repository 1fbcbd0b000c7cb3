/** On a 390 × 844 phone: failed saves are visible, lists are cards, the map's popup is a sheet. */
import { expect, test } from '@playwright/test';
import { signInAs, signInAsAdmin } from './pages';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

test('a failed save puts the first invalid field in view, focused, with the summary', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto('/management/vehicles/create');
  await page.getByRole('textbox', { name: 'Nome' }).fill('Caminhão sem placa');
  // At the end of a long form, far below the plate.
  await page.getByRole('textbox', { name: 'RENAVAM' }).scrollIntoViewIfNeeded();
  const plate = page.getByRole('textbox', { name: 'Placa' });
  await expect(plate).not.toBeInViewport();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(plate).toBeFocused();
  await expect(plate).toBeInViewport();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Corrija os campos destacados.' }),
  ).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Salvar' })).toBeInViewport();
});

test('a list shows cards with their actions in view', async ({ page }) => {
  await signInAs(page, 'operador@rastro.demo', 'Otávio Operador');
  await page.goto('/management/vehicles');
  await page.getByRole('searchbox', { name: /Buscar veículos/ }).fill('kgh-1l23');
  const card = page
    .getByRole('grid', { name: 'Veículos' })
    .getByRole('row')
    .filter({ hasText: 'KGH1L23' });
  // Each value says which column it is (the headers are hidden on phones).
  await expect(card.getByRole('gridcell', { name: 'Empresa Transportes Norte' })).toBeVisible();
  const edit = card.getByRole('link', { name: /^Editar / });
  await expect(edit).toBeInViewport({ ratio: 1 });
  // Nothing of a card starts off-screen.
  const box = await card.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(390);
});

test('the vehicle popup docks at the bottom and leaves the zoom buttons free', async ({ page }) => {
  await signInAsAdmin(page);
  await page.getByRole('searchbox', { name: 'Buscar veículo' }).fill('PCX1A23');
  await page
    .getByRole('grid', { name: 'Veículos' })
    .getByRole('row')
    .filter({ hasText: 'PCX1A23' })
    .click();
  const popup = page.getByRole('dialog', { name: 'Veículo PCX1A23' });
  await expect(popup).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Copiar coordenadas' })).toBeVisible();
  for (const name of ['+', '–']) {
    const button = page
      .getByRole('region', { name: 'Mapa da frota' })
      .getByRole('button', { name, exact: true });
    const box = await button.boundingBox();
    if (!box) throw new Error(`zoom button ${name} not laid out`);
    // What a finger on the button's middle touches is the button itself.
    const touched = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.closest('button')?.textContent,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(touched).toBe(name);
  }
});
