/**
 * What every signed-in screen shares: the page heading, the main menu and its filter, the
 * crumbs, the toasts and the account menu in the top bar.
 */
import { expect, type Page } from '@playwright/test';
import { ADMIN } from './demo';

export class Shell {
  constructor(private readonly page: Page) {}

  heading(name: string) {
    return this.page.getByRole('heading', { level: 1, name });
  }

  navigation() {
    return this.page.getByRole('navigation', { name: 'Navegação principal' });
  }

  /** A menu entry; `exact` where the name starts another ('Gestão', 'Gestão de Frotas'). */
  menuLink(name: string, exact = false) {
    return this.navigation().getByRole('link', { name, exact });
  }

  /** Follows a menu entry, as a person moves between areas. */
  async goTo(name: string, exact = false) {
    await this.menuLink(name, exact).click();
  }

  /** The phone's menu button: 'Abrir menu' while the drawer is closed, 'Fechar menu' open. */
  menuButton(open: boolean) {
    return this.page.getByRole('button', { name: open ? 'Fechar menu' : 'Abrir menu' });
  }

  menuFilter() {
    return this.page.getByRole('searchbox', { name: 'Buscar no menu' });
  }

  breadcrumbs() {
    return this.page.getByRole('navigation', { name: 'Você está em' });
  }

  toasts() {
    return this.page.getByRole('region', { name: 'Notificações' });
  }

  toast(text: string) {
    return this.toasts().getByText(text);
  }

  /** An alert's toast (SPEC §9), found by its title; it has its own buttons. */
  alertToast(title: string) {
    return this.toasts().locator('.toast-alert', { hasText: title });
  }

  /** Closes every toast (they sit over the bottom right of the page). */
  async dismissToasts() {
    const buttons = this.toasts().getByRole('button', { name: /Dispensar notificação|Fechar/ });
    // A toast that times out by itself leaves while the click is on its way (hidden, then
    // detached): that click is given up and the next toast tried, until none is left.
    for (let tries = 0; tries < 20 && (await buttons.count()) > 0; tries++)
      await buttons
        .first()
        .click({ timeout: 2000 })
        .catch(() => undefined);
    await expect(buttons).toHaveCount(0);
  }

  accountButton(name = ADMIN.name) {
    return this.page.getByRole('button', { name: `Conta: ${name}` });
  }

  async openUserMenu(options: { timeout?: number } = {}) {
    await this.page.getByRole('button', { name: /^Conta:/ }).click(options);
  }

  /** 'Minha conta' from the account menu, as a person reaches it (no typed address). */
  async openAccount(options: { timeout?: number } = {}) {
    await this.openUserMenu(options);
    await this.page.getByRole('menuitem', { name: 'Minha conta' }).click(options);
  }

  async signOut() {
    await this.openUserMenu();
    await this.page.getByRole('menuitem', { name: 'Sair' }).click();
  }

  async expectSignedIn(name = ADMIN.name) {
    await expect(this.accountButton(name)).toBeVisible();
  }

  /** The top bar's connection chip and the like ('Sem conexão'). */
  bannerStatus() {
    return this.page.getByRole('banner').getByRole('status');
  }

  /** The invitation to notifications that comes in above the page a moment after sign-in. */
  notificationsInvitation() {
    return this.page.getByRole('region', { name: 'Receber os alertas neste dispositivo?' });
  }

  /**
   * Answers 'Agora não' to the invitation when this browser shows it: only a browser not yet
   * asked about notifications does. The headless shell most journeys run in answers every
   * notification question with 'denied', so there the invitation never comes.
   */
  async putNotificationsInvitationAway() {
    if ((await this.page.evaluate(() => Notification.permission)) !== 'default') return;
    await this.notificationsInvitation().getByRole('button', { name: 'Agora não' }).click();
  }

  /** A list or page's status line, by what it says ('Ao vivo', 'Sem conexão — dados de…'). */
  status(text: string | RegExp) {
    return this.page.getByRole('status').filter({ hasText: text });
  }
}
