/**
 * What a visitor sees on a temporary link (/temp-access/:token), never signed in: its name,
 * until when it works, the shared vehicles and their map.
 */
import type { Page } from '@playwright/test';

export class SharedLinkPage {
  constructor(private readonly page: Page) {}

  /** The link's address as given (the whole URL), or a token for a made-up one. */
  async open(link: string) {
    await this.page.goto(link.includes('/') ? link : `/temp-access/${link}`);
  }

  heading(name: string) {
    return this.page.getByRole('heading', { name });
  }

  map() {
    return this.page.getByRole('region', { name: 'Mapa dos veículos compartilhados' });
  }

  vehicles() {
    return this.page.getByRole('list', { name: 'Veículos compartilhados' });
  }

  popup(plate: string) {
    return this.page.getByRole('dialog', { name: `Veículo ${plate}` });
  }

  /** A revoked or expired link says so, and shows nothing else. */
  gone() {
    return this.page.getByRole('alert');
  }
}
