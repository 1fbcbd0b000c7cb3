/**
 * 'Auditoria' (/management/audit): who did what and when, filtered by event type, exported as
 * XLSX.
 */
import type { Page } from '@playwright/test';

export class AuditPage {
  constructor(private readonly page: Page) {}

  /** The page's address (`signInAs` can start a journey there). */
  readonly path = '/management/audit';

  async open() {
    await this.page.goto(this.path);
  }

  grid() {
    return this.page.getByRole('grid', { name: 'Auditoria' });
  }

  /** The rows that show every text given (a plate and an event type, say). */
  rows(...texts: string[]) {
    let rows = this.grid().getByRole('row');
    for (const text of texts) rows = rows.filter({ hasText: text });
    return rows;
  }

  async filterByType(type: string) {
    await this.page.getByRole('button', { name: /Tipo de evento/ }).click();
    await this.page.getByRole('option', { name: type }).click();
  }

  async export() {
    await this.page.getByRole('button', { name: 'Exportar XLSX' }).click();
  }
}
