/**
 * Live alerts in a control room: each new one shows in full for a few seconds, then the stack
 * settles into one line at the corner that covers nothing of the form under it ('N alertas',
 * 'Ver alertas', 'Fechar todas'); its count opens the stack again, by keyboard too. And the
 * top bar of a phone offline fits the screen: no sideways scroll, the account button in view.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  REGISTERS,
  ResourceFormPage,
  Shell,
  signInAs,
  signInAsAdmin,
  waitForServiceWorker,
} from './pages';
import { deliver, pushAlert, workerRegistration } from './push-delivery';

// Alerts arrive as pushes through the service worker; offline, it answers the reload.
test.use({ serviceWorkers: 'allow' });

/** Past PEEK_MS (8 s, Toaster.tsx), the time a new alert shows in full, on the page's clock. */
const PAST_PEEK = 9_000;

async function overlaps(a: Locator, b: Locator) {
  const [x, y] = await Promise.all([a.boundingBox(), b.boundingBox()]);
  if (!x || !y) throw new Error('not laid out');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/** Whatever of the form a person uses: its fields and its buttons. */
async function formControls(page: Page) {
  const main = page.getByRole('main');
  return [...(await main.getByRole('textbox').all()), ...(await main.getByRole('button').all())];
}

test.describe('at 1366 × 768', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('alerts arriving over a form show in full, then settle into one line that covers nothing', async ({
    page,
  }) => {
    // The page's own clock, moved on by hand: the journey waits for no timer in real time.
    await page.clock.install();
    await signInAsAdmin(page);
    await waitForServiceWorker(page);
    const { cdp, id } = await workerRegistration(page);
    const shell = new Shell(page);
    const form = new ResourceFormPage(page, REGISTERS.users.path);
    await form.openNew();
    await expect(shell.heading('Novo usuário')).toBeVisible();
    await shell.dismissToasts();
    // The pointer away from the corner, as someone typing in the form.
    await page.mouse.move(400, 200);
    // A failed save first: the form at its tallest, its summary over the buttons.
    await form.save();
    await expect(page.getByText('Corrija os campos destacados.')).toBeVisible();

    const alerts = [5, 6, 7, 8].map((n) =>
      pushAlert(n, 'GEOFENCE_EXIT', `Saída de cerca — RST1D0${n}`),
    );
    for (const alert of alerts) await deliver(cdp, id, alert);
    const region = shell.toasts();
    const newest = shell.alertToast('Saída de cerca — RST1D08');
    // In full at first, read out as it comes (a live alert), with the SPEC's buttons.
    await expect(newest).toBeVisible();
    await expect(newest.getByRole('alert')).toContainText('Saída de cerca — RST1D08');
    await expect(newest.getByRole('button', { name: 'Ver alertas' })).toBeVisible();
    await expect(newest.getByRole('button', { name: 'Fechar' })).toBeVisible();

    // Then one line at the corner, inside the labelled region: the count and the two actions.
    const line = region.locator('.toast-line');
    await page.clock.runFor(PAST_PEEK);
    await expect(line).toBeVisible();
    await expect(region.locator('.toast-alert:visible')).toHaveCount(0);
    const count = line.getByRole('button', { name: /^Mostrar \d+ alertas$/ });
    await expect(count).toHaveText(/^\d+ alertas/);
    await expect(line.getByRole('button', { name: 'Ver alertas' })).toBeVisible();
    await expect(line.getByRole('button', { name: 'Fechar todas' })).toBeVisible();
    const box = await line.boundingBox();
    expect(box?.height ?? 999).toBeLessThanOrEqual(56);
    for (const control of await formControls(page))
      expect(await overlaps(line, control), (await control.textContent()) ?? '').toBe(false);
    // Nor the reason the save failed: the line is not lifted over a short form's end.
    expect(await overlaps(line, page.getByText('Corrija os campos destacados.'))).toBe(false);
    // The form's 'Salvar' takes a click (nothing over it).
    await form.saveButton().click({ trial: true, timeout: 2000 });
    // Nothing was lost: every alert waits until closed.
    for (const alert of alerts) await expect(shell.alertToast(alert.title)).toHaveCount(1);

    // By keyboard: the line's count opens the stack, the focus on the newest alert…
    await count.focus();
    await page.keyboard.press('Enter');
    await expect(newest).toBeVisible();
    await expect(newest).toBeFocused();
    await expect(line).toBeHidden();
    await expect(region.locator('.toast-alert:visible')).toHaveCount(3);
    // …which stays open while the focus is in it, then settles once it leaves.
    await page.clock.runFor(PAST_PEEK);
    await expect(newest).toBeVisible();
    await form.field('Nome').focus();
    await page.clock.runFor(PAST_PEEK);
    await expect(line).toBeVisible();

    // A new alert shows in full again.
    const late = pushAlert(9, 'GEOFENCE_EXIT', 'Saída de cerca — RST1D09');
    await deliver(cdp, id, late);
    await expect(shell.alertToast(late.title)).toBeVisible();
    await expect(line).toBeHidden();
    // Under the pointer it stays open.
    await shell.alertToast(late.title).hover();
    await page.clock.runFor(PAST_PEEK);
    await expect(shell.alertToast(late.title)).toBeVisible();
    await page.mouse.move(400, 200);
    await page.clock.runFor(PAST_PEEK);
    await expect(line).toBeVisible();
    await line.getByRole('button', { name: 'Fechar todas' }).click();
    for (const alert of [...alerts, late]) await expect(shell.toast(alert.title)).toHaveCount(0);
  });
});

test.describe('a phone offline', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the top bar fits 390 and 320 px: no sideways scroll, the account button in view', async ({
    page,
    context,
  }) => {
    await signInAs(page, 'operador@rastro.demo', 'Otávio Operador');
    await waitForServiceWorker(page);
    const shell = new Shell(page);
    await context.setOffline(true);
    await page.reload();
    await expect(shell.heading('Mapa')).toBeVisible();
    const chip = shell.bannerStatus();
    await expect(chip).toHaveText('Sem conexão');
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      await expect(chip).toBeVisible();
      // Its words are its text (read out) and its tooltip says what still works.
      await expect(chip).toHaveText('Sem conexão');
      await expect(chip).toHaveAttribute('title', /sem conexão/i);
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
        .toBeLessThanOrEqual(width);
      const account = shell.accountButton('Otávio Operador');
      await expect(account).toBeInViewport({ ratio: 1 });
      const bar = await page.getByRole('banner').boundingBox();
      expect((bar?.x ?? 0) + (bar?.width ?? 999)).toBeLessThanOrEqual(width);
      // The home link keeps its name when only the logo shows.
      await expect(page.getByRole('banner').getByRole('link', { name: 'Rastro' })).toBeVisible();
    }
    await context.setOffline(false);
    await expect(chip).toBeHidden({ timeout: 10_000 });
  });
});
