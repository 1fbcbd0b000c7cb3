/**
 * The registers under Gestão (vehicles, trackers, SIM cards, drivers, fleets, customers,
 * users): each is a list (a grid named by the screen's title, a search, a customer picker,
 * 'Criar') and a form for a new or a stored record. They are drawn by the same components,
 * so one list class and one form class serve them all, told apart by the screen.
 */
import type { Page } from '@playwright/test';
import { choose, pick } from './controls';

/** A register: its list's address and its title (the grid's name too). */
export interface Register {
  path: string;
  title: string;
}

export const REGISTERS = {
  vehicles: { path: '/management/vehicles', title: 'Veículos' },
  trackers: { path: '/management/trackers', title: 'Rastreadores' },
  simcards: { path: '/management/simcards', title: 'Chips' },
  drivers: { path: '/management/drivers', title: 'Motoristas' },
  fleets: { path: '/management/fleets', title: 'Frotas' },
  customers: { path: '/management/customers', title: 'Clientes' },
  users: { path: '/management/users', title: 'Usuários' },
} as const satisfies Record<string, Register>;

/** The words the lists say offline when they cannot answer (SPEC §8). */
const LIST_WAITS = 'Sem conexão: a lista aparece quando a conexão voltar.';

export class ResourceListPage {
  /** `register` without a title: any list at that address, its first grid. */
  constructor(
    private readonly page: Page,
    private readonly register: Register | { path: string; title?: undefined },
  ) {}

  /** The list's address (`signInAs` can start a journey there). */
  get path() {
    return this.register.path;
  }

  async open() {
    await this.page.goto(this.path);
  }

  grid() {
    return this.register.title === undefined
      ? this.page.getByRole('grid').first()
      : this.page.getByRole('grid', { name: this.register.title });
  }

  rowHeaders() {
    return this.grid().getByRole('rowheader');
  }

  /** A record's row, by anything it shows (a plate, a name). */
  row(text: string) {
    return this.grid().getByRole('row').filter({ hasText: text });
  }

  /** The list's search box ('Buscar veículos'), named after the screen. */
  search() {
    return this.page.getByRole('searchbox', {
      name: new RegExp(`Buscar ${(this.register.title ?? '').toLowerCase()}`),
    });
  }

  customerPicker() {
    return this.page.getByRole('combobox', { name: 'Cliente' });
  }

  createLink() {
    return this.page.getByRole('link', { name: 'Criar' });
  }

  pagination() {
    return this.page.getByRole('navigation', { name: 'Paginação' });
  }

  /** Said in the list's place offline, when it has nothing it may show. */
  waitsForConnection() {
    return this.page.getByText(LIST_WAITS);
  }

  /** 'Atualizado às…' online, 'Sem conexão — dados de…' from the device. */
  freshness(text: string | RegExp) {
    return this.page.getByRole('status').filter({ hasText: text });
  }
}

export class ResourceFormPage {
  /** `path`: the register's list; the form is at `create` or at a record's id under it. */
  constructor(
    protected readonly page: Page,
    private readonly path: string,
  ) {}

  /** The form's address for a new record (`signInAs` can start a journey there). */
  newPath() {
    return `${this.path}/create`;
  }

  /** The form's address for the stored record `id`. */
  recordPath(id: string) {
    return `${this.path}/${id}`;
  }

  async openNew() {
    await this.page.goto(this.newPath());
  }

  async openRecord(id: string) {
    await this.page.goto(this.recordPath(id));
  }

  field(name: string | RegExp, exact?: boolean) {
    return this.page.getByRole('textbox', exact === undefined ? { name } : { name, exact });
  }

  /** Fills the text fields, in the order given, as a person goes down the form. */
  async fill(fields: Record<string, string>) {
    for (const [name, value] of Object.entries(fields)) await this.field(name).fill(value);
  }

  async choose(select: string, option: string) {
    await choose(this.page, select, option);
  }

  async pick(combobox: string, option: string) {
    await pick(this.page, combobox, option);
  }

  saveButton() {
    return this.page.getByRole('button', { name: 'Salvar' });
  }

  async save() {
    await this.saveButton().click();
  }

  /** The summary a failed save puts above the buttons. */
  invalidSummary() {
    return this.page.getByRole('alert').filter({ hasText: 'Corrija os campos destacados.' });
  }

  /** A record the person may read only. */
  readOnly() {
    return this.page.getByText('Somente leitura');
  }

  /** Offline, the record as this device keeps it. */
  keptOnDevice() {
    return this.page.getByRole('status').filter({ hasText: 'dados salvos neste aparelho' });
  }

  /** Offline, a record this device does not keep. */
  waitsForConnection() {
    return this.page.getByText('Os dados aparecem quando a conexão voltar.');
  }
}
