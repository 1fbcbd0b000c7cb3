/**
 * The report screens: 'Relatórios' (/reports, where a report of any kind is asked for and the
 * requests are listed), each kind's own screen (histories, journeys, positions, distances,
 * the drivers' Jornada), and 'Relatórios Automatizados' with its form.
 */
import type { Page } from '@playwright/test';
import { choose, chooseMany, selectButton } from './controls';

/** What every report screen has: the vehicle pickers and the period shortcut. */
class ReportScreen {
  constructor(
    protected readonly page: Page,
    /** The screen's address (`signInAs` can start a journey there). */
    readonly path: string,
  ) {}

  async open() {
    await this.page.goto(this.path);
  }

  async chooseVehicle(option: string) {
    await choose(this.page, 'Veículo', option);
  }

  async chooseVehicles(options: string[]) {
    await chooseMany(this.page, 'Veículos', options);
  }

  generateButton() {
    return this.page.getByRole('button', { name: 'Gerar relatório' });
  }

  /** The demo's past week ('Últimos 7 dias'), generated at once. */
  async lastWeek() {
    await this.page.getByRole('button', { name: 'Últimos 7 dias' }).click();
    await this.generateButton().click();
  }
}

export class RequestedReportsPage extends ReportScreen {
  constructor(page: Page) {
    super(page, '/reports');
  }

  async chooseType(type: string) {
    await choose(this.page, 'Tipo de relatório', type);
  }

  async chooseFormat(format: string) {
    await choose(this.page, 'Formato', format);
  }

  delivery() {
    return selectButton(this.page, /Entrega/);
  }

  name() {
    return this.page.getByRole('textbox', { name: 'Nome (opcional)' });
  }

  from() {
    return this.page.getByRole('textbox', { name: 'De' });
  }

  progress() {
    return this.page.getByRole('progressbar');
  }

  list() {
    return this.page.getByRole('grid', { name: 'Relatórios pedidos' });
  }

  /** A request's row, by its name or the start of it. */
  request(name: string) {
    return this.list().getByRole('row').filter({ hasText: name });
  }

  removeButton(name: string) {
    return this.page.getByRole('button', { name: `Remover ${name}` });
  }

  removeDialog() {
    return this.page.getByRole('alertdialog', { name: 'Remover relatório da lista?' });
  }
}

export class HistoryReportPage extends ReportScreen {
  constructor(page: Page) {
    super(page, '/reports/histories');
  }

  map() {
    return this.page.getByRole('region', { name: 'Mapa do histórico' });
  }

  speedChart() {
    return this.page.getByRole('img', { name: 'Velocidade ao longo do tempo' });
  }

  rows() {
    return this.page.getByRole('grid', { name: 'Posições do histórico' }).getByRole('row');
  }

  timeline() {
    return this.page.getByRole('slider', { name: 'Linha do tempo' });
  }

  async choosePlaybackSpeed(speed: string) {
    await choose(this.page, 'Velocidade da reprodução', speed);
  }

  async play() {
    await this.page.getByRole('button', { name: 'Reproduzir' }).click();
  }

  async pause() {
    await this.page.getByRole('button', { name: 'Pausar' }).click();
  }

  followButton() {
    return this.page.getByRole('button', { name: 'Seguir veículo' });
  }

  /** Asked for offline: said to wait for the connection. */
  waiting() {
    return this.page.getByText('O relatório é gerado assim que a conexão voltar.');
  }
}

export class JourneysReportPage extends ReportScreen {
  constructor(page: Page) {
    super(page, '/reports/journeys');
  }

  /** A vehicle's part of the report (its table and pager), named by the vehicle. */
  vehicle(name: string) {
    return this.page.getByRole('region', { name });
  }

  totals() {
    return this.page.getByLabel('Totais: Veículos');
  }

  pager(vehicle: string) {
    return this.page.getByRole('navigation', { name: `Paginação: ${vehicle}` });
  }

  tripMap() {
    return this.page.getByRole('region', { name: 'Mapa da viagem' });
  }
}

export class PositionsReportPage extends ReportScreen {
  constructor(page: Page) {
    super(page, '/reports/positions');
  }

  /** 'N de M posições': how many the filters leave of the period's. */
  count() {
    return this.page.getByText(/^[\d.]+ de [\d.]+ posições$/);
  }

  async chooseIgnition(option: string) {
    await choose(this.page, 'Ignição', option);
  }

  grid() {
    return this.page.getByRole('grid', { name: 'Posições' });
  }
}

export class DistancesReportPage extends ReportScreen {
  constructor(page: Page) {
    super(page, '/reports/distances');
  }

  chart() {
    return this.page.getByRole('img', { name: 'Quilômetros por dia' });
  }

  totalRow() {
    return this.page.getByRole('row').filter({ hasText: 'Total' }).last();
  }
}

/** The drivers' Jornada: the marks each driver made, by day. */
export class JornadaReportPage extends ReportScreen {
  constructor(page: Page) {
    super(page, '/reports/jornada');
  }

  async chooseDriver(name: string) {
    await this.page.getByRole('button', { name: /Motorista$/ }).click();
    await this.page.getByRole('option', { name, exact: true }).click();
  }

  marks() {
    return this.page.getByRole('list', { name: /^Marcações/ });
  }
}

export class AutoReportRulesPage {
  constructor(private readonly page: Page) {}

  readonly path = '/reports/auto-report-rules';

  async open() {
    await this.page.goto(this.path);
  }

  list() {
    return this.page.getByRole('grid', { name: 'Relatórios Automatizados' });
  }

  /** A rule's row, by its name (page-wide, as the list's rows are). */
  rule(name: string) {
    return this.page.getByRole('row').filter({ hasText: name });
  }

  createLink() {
    return this.page.getByRole('link', { name: 'Criar' });
  }

  // The rule's form.

  name() {
    return this.page.getByRole('textbox', { name: 'Nome' });
  }

  select(label: string) {
    return selectButton(this.page, label);
  }

  vehicle(name: string) {
    return this.page.getByRole('checkbox', { name });
  }

  emails() {
    return this.page.getByRole('textbox', { name: 'E-mails para envio' });
  }

  async save() {
    await this.page.getByRole('button', { name: 'Salvar' }).click();
  }

  async sendNow() {
    await this.page.getByRole('button', { name: 'Enviar agora' }).click();
  }
}
