/**
 * The alert screens under Gestão de Frotas: 'Histórico de alertas' (filters, the alerts to
 * acknowledge, a pager) and an alert rule's form (/fleet-management/alerts/create or :id).
 */
import type { Page } from '@playwright/test';

export class AlertHistoryPage {
  constructor(private readonly page: Page) {}

  /** The page's address (`signInAs` can start a journey there). */
  readonly path = '/fleet-management/alerts/alerts-history';

  async open() {
    await this.page.goto(this.path);
  }

  grid() {
    return this.page.getByRole('grid', { name: 'Histórico de alertas' });
  }

  /** An alert's row, by what it shows (a plate). */
  row(text: string) {
    return this.page.getByRole('row').filter({ hasText: text });
  }

  pagination() {
    return this.page.getByRole('navigation', { name: 'Paginação' });
  }

  /** The filters' box (its layout is what some journeys check). */
  filters() {
    return this.page.locator('.alert-filters');
  }

  from() {
    return this.page.getByLabel('De', { exact: true });
  }

  until() {
    return this.page.getByLabel('Até', { exact: true });
  }

  /**
   * Ticks an alert's checkbox: react-aria draws its own box over the input, and that box is
   * what a person clicks.
   */
  async select(text: string) {
    await this.row(text).locator('.checkbox-box').click();
  }

  async acknowledgeSelected() {
    await this.page.getByRole('button', { name: 'Reconhecer selecionados' }).click();
  }
}

export class AlertRuleFormPage {
  constructor(private readonly page: Page) {}

  /** The form's address for a new rule. */
  readonly newPath = '/fleet-management/alerts/create';

  async openNew() {
    await this.page.goto(this.newPath);
  }

  async chooseType(type: string) {
    await this.page.getByRole('button', { name: /Tipo de alerta/ }).click();
    await this.page.getByRole('option', { name: type }).click();
  }

  /** 'Enviar por e-mail': a styled switch over the input, clicked through it. */
  async toggleEmail() {
    await this.page.getByRole('switch', { name: 'Enviar por e-mail' }).click({ force: true });
  }

  name() {
    return this.page.getByRole('textbox', { name: 'Nome' });
  }

  speedLimit() {
    return this.page.getByRole('textbox', { name: 'Limite de velocidade (km/h)' });
  }

  emails() {
    return this.page.getByRole('textbox', { name: 'E-mails para envio' });
  }

  async save() {
    await this.page.getByRole('button', { name: 'Salvar' }).click();
  }
}
