/**
 * 'Links temporários' (/management/temporary-links): a link made for chosen vehicles, copied
 * to be sent, listed, and revoked after a confirmation.
 */
import type { Page } from '@playwright/test';

export class TemporaryLinksPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/management/temporary-links');
  }

  name() {
    return this.page.getByRole('textbox', { name: 'Nome do link' });
  }

  /** The vehicles to share: a filtered list of checkboxes. */
  vehicles() {
    return this.page.getByRole('group', { name: 'Veículos' });
  }

  async filterVehicles(typed: string) {
    await this.vehicles().getByRole('searchbox', { name: 'Filtrar: Veículos' }).fill(typed);
  }

  async checkAllShown() {
    await this.vehicles().getByRole('button', { name: 'Marcar todos os mostrados' }).click();
  }

  vehicle(name: string) {
    return this.page.getByRole('checkbox', { name });
  }

  async create() {
    await this.page.getByRole('button', { name: 'Criar link' }).click();
  }

  /** The address of the link just made, as shown for copying. */
  async createdLink() {
    return this.page.getByRole('status').getByRole('link').getAttribute('href');
  }

  async copy() {
    await this.page.getByRole('status').getByRole('button', { name: 'Copiar link' }).click();
  }

  list() {
    return this.page.getByRole('grid', { name: 'Links criados' });
  }

  revokeDialog() {
    return this.page.getByRole('alertdialog', { name: 'Revogar link?' });
  }

  /** 'Revogar', which asks first: every visitor loses the vehicles at once. */
  async askToRevoke(name: string) {
    await this.page.getByRole('button', { name: `Revogar ${name}` }).click();
  }
}
