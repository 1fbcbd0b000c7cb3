/**
 * A driver's own page, opened on their phone from the link they were given: the PIN, where
 * their day stands, and the buttons that mark it ('Início de jornada'…), kept on the phone
 * while there is no connection.
 */
import type { Page } from '@playwright/test';

export class DriverPage {
  constructor(private readonly page: Page) {}

  /** The link's full address (the driver is never signed in to the app). */
  async open(url: string) {
    await this.page.goto(url);
  }

  async enterPin(pin: string) {
    await this.page.getByRole('textbox', { name: 'PIN' }).fill(pin);
    await this.page.getByRole('button', { name: 'Entrar' }).click();
  }

  heading(name: string) {
    return this.page.getByRole('heading', { name });
  }

  offline() {
    return this.page.getByRole('status').filter({ hasText: /^Sem conexão$/ });
  }

  markButton(name: string) {
    return this.page.getByRole('button', { name });
  }

  async mark(name: string) {
    await this.markButton(name).click();
  }
}
