/**
 * The fleet map, the home screen ('/'): the map, the vehicle list beside it with its search and
 * count, the fleet's situation, the customer picker, the geofences switch and a vehicle's
 * popup.
 */
import type { Page } from '@playwright/test';

export class FleetMapPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/');
  }

  map() {
    return this.page.getByRole('region', { name: 'Mapa da frota' });
  }

  rows() {
    return this.page.getByRole('grid', { name: 'Veículos' }).getByRole('row');
  }

  /** The vehicle's row in the list, by its plate. */
  row(plate: string) {
    return this.rows().filter({ hasText: plate });
  }

  /** How many vehicles the list counts ('40 veículos'). */
  listed() {
    return this.page.getByText(/^\d+ veículos$/);
  }

  async count() {
    return Number((await this.listed().textContent())?.split(' ')[0]);
  }

  search() {
    return this.page.getByRole('searchbox', { name: 'Buscar veículo' });
  }

  situation() {
    return this.page.getByRole('list', { name: 'Situação da frota' });
  }

  customerPicker() {
    return this.page.getByRole('combobox', { name: 'Cliente' });
  }

  /** Shows another customer's fleet: the name typed, then its option. */
  async pickCustomer(name: string) {
    await this.customerPicker().fill(name);
    await this.page.getByRole('option', { name, exact: true }).click();
  }

  geofencesSwitch() {
    return this.page.getByRole('switch', { name: 'Cercas no mapa' });
  }

  /** Searches the plate as typed and opens the vehicle's popup from its row. */
  async openVehicle(typed: string, plate: string) {
    await this.search().fill(typed);
    await this.row(plate).click();
    return this.popup(plate);
  }

  popup(plate: string) {
    return this.page.getByRole('dialog', { name: `Veículo ${plate}` });
  }
}
