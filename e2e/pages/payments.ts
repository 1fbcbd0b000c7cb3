/**
 * 'Faturas e pagamentos' (/payments): the customer's invoices with their status chips, an
 * invoice's page (a Pix QR code and code, or a boleto's line and PDF), and the support contact
 * shown beside them.
 */
import type { Page } from '@playwright/test';

export class PaymentsPage {
  constructor(private readonly page: Page) {}

  /** The page's address (`signInAs` can start a journey there). */
  readonly path = '/payments';

  async open() {
    await this.page.goto(this.path);
  }

  list() {
    return this.page.getByRole('grid', { name: 'Faturas e pagamentos' });
  }

  /** Opens the first invoice of a kind ('Pix', 'Boleto') in a status ('Pendente'). */
  async openInvoice(kind: string, status: string) {
    await this.list()
      .getByRole('row')
      .filter({ hasText: kind })
      .filter({ hasText: status })
      .first()
      .getByRole('link')
      .click();
  }

  supportContact() {
    return this.page.getByRole('complementary', { name: 'Suporte' });
  }

  // An invoice's page.

  invoiceHeading() {
    return this.page.getByRole('heading', { level: 1, name: /^Fatura nº \d+$/ });
  }

  pixQrCode() {
    return this.page.getByRole('img', { name: 'QR code do Pix' });
  }

  pixCode() {
    return this.page.getByTestId('pix-code');
  }

  async copyPixCode() {
    await this.page.getByRole('button', { name: 'Copiar código Pix' }).click();
  }

  async backToList() {
    await this.page.getByRole('link', { name: 'Voltar às faturas' }).click();
  }
}
