/**
 * The dashboard (/dashboard): figures that link to the lists they count, the charts, and
 * 'Tela cheia', which shows it alone on a wall.
 */
import { expect, type Page } from '@playwright/test';

export class DashboardPage {
  constructor(private readonly page: Page) {}

  /** The page's address (`signInAs` can start a journey there). */
  readonly path = '/dashboard';

  async open() {
    await this.page.goto(this.path);
  }

  chart(name: string) {
    return this.page.getByRole('img', { name });
  }

  /** A figure's link: its name is the label and the number ('Veículos: 40'). */
  figureLink(label: string, shown?: number) {
    return this.page.getByRole('link', {
      name: shown === undefined ? new RegExp(`^${label}: \\d+$`) : `${label}: ${shown}`,
    });
  }

  /** The number a figure shows, once it shows one. */
  async figure(label: string): Promise<number> {
    const link = this.figureLink(label);
    await expect(link).toBeVisible();
    return Number((await link.getAttribute('aria-label'))?.split(': ')[1]);
  }

  async enterFullScreen() {
    await this.page.getByRole('button', { name: 'Tela cheia' }).click();
  }

  async leaveFullScreen() {
    await this.page.getByRole('button', { name: 'Sair da tela cheia' }).click();
  }

  /** The wall layout full screen turns on (no role of its own: the page, restyled). */
  wall() {
    return this.page.locator('.dashboard-wall');
  }
}
