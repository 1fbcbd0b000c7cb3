import { expect, test } from '@playwright/test';
import { Shell, signInAsAdmin } from './pages';

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the menu opens as a drawer, reaches an area and closes on navigation', async ({ page }) => {
    await signInAsAdmin(page);
    const shell = new Shell(page);
    const toggle = page.getByRole('button', { name: 'Abrir menu' });
    await expect(shell.navigation()).toBeHidden();
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Fechar menu' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await shell.navigation().getByRole('link', { name: 'Veículos' }).click();
    await expect(shell.heading('Veículos')).toBeVisible();
    await expect(shell.navigation()).toBeHidden();
  });
});

test.describe('on a tablet', () => {
  test.use({ viewport: { width: 820, height: 1180 } });

  test('shows the customer beside the brand and the areas as cards', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/management');
    await expect(page.getByRole('banner').getByText('Rastro Demonstração')).toBeVisible();
    for (const name of ['Veículos', 'Clientes', 'Usuários']) {
      await expect(page.getByRole('main').getByRole('link', { name })).toBeVisible();
    }
  });
});
