/** 'Gestão' (/management): the registers as cards, each link described by what it is for. */
import type { Page } from '@playwright/test';

export class ManagementPage {
  constructor(private readonly page: Page) {}

  /** The page's address (`signInAs` can start a journey there). */
  readonly path = '/management';

  async open() {
    await this.page.goto(this.path);
  }

  card(name: string) {
    return this.page.getByRole('main').getByRole('link', { name, exact: true });
  }
}
