/**
 * 'Cercas eletrônicas' (/fleet-management/geofences): the customer's geofences listed beside a
 * map they are drawn on (a polygon vertex by vertex, or a circle's centre and border), the
 * vehicles associated with one, and its visits.
 */
import type { Page } from '@playwright/test';

export class GeofencesPage {
  constructor(private readonly page: Page) {}

  /** The page's address (`signInAs` can start a journey there). */
  readonly path = '/fleet-management/geofences';

  async open() {
    await this.page.goto(this.path);
  }

  map() {
    return this.page.getByRole('region', { name: 'Mapa das cercas' });
  }

  list() {
    return this.page.getByRole('list', { name: 'Cercas do cliente' });
  }

  customerPicker() {
    return this.page.getByRole('combobox', { name: 'Cliente' });
  }

  async startNew() {
    await this.page.getByRole('button', { name: 'Nova cerca' }).click();
  }

  async drawCircle() {
    await this.page.getByRole('button', { name: 'Desenhar círculo' }).click();
  }

  /** Clicks on the map at fractions of its size (0.5, 0.5 is its middle). */
  async clickMap(points: [number, number][]) {
    const box = await this.map().boundingBox();
    if (!box) throw new Error('map not shown');
    for (const [x, y] of points)
      await this.page.mouse.click(box.x + box.width * x, box.y + box.height * y);
  }

  name() {
    return this.page.getByRole('textbox', { name: 'Nome' });
  }

  speedLimit() {
    return this.page.getByRole('textbox', { name: 'Limite de velocidade (km/h)' });
  }

  async save() {
    await this.page.getByRole('button', { name: 'Salvar cerca' }).click();
  }

  async cancel() {
    await this.page.getByRole('button', { name: 'Cancelar' }).click();
  }

  /** Associates a vehicle with the open geofence: its plate typed, then its option. */
  async associate(plate: string) {
    await this.page
      .getByRole('combobox', { name: 'Veículo' })
      .pressSequentially(plate, { delay: 30 });
    await this.page.getByRole('option', { name: new RegExp(plate) }).click();
    await this.page.getByRole('button', { name: 'Associar veículo' }).click();
  }

  associated() {
    return this.page.getByRole('region', { name: 'Veículos associados' });
  }

  visits() {
    return this.page.getByRole('region', { name: 'Visitas à cerca' });
  }
}
