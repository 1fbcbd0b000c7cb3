/**
 * A vehicle's own page (/management/vehicles/:id, and its form at /create): the plate lookup,
 * the photos, and the block and unblock commands with the history of those sent.
 */
import type { Page } from '@playwright/test';
import { REGISTERS, ResourceFormPage } from './resources';

export class VehiclePage extends ResourceFormPage {
  constructor(page: Page) {
    super(page, REGISTERS.vehicles.path);
  }

  async lookUpPlate(plate: string) {
    await this.field('Placa').fill(plate);
    await this.page.getByRole('button', { name: 'Consultar placa' }).click();
  }

  async addPhoto(file: string) {
    await this.page.locator('input[type=file]').setInputFiles(file);
  }

  photo() {
    return this.page.getByRole('img', { name: 'Foto do veículo' });
  }

  blockDialog() {
    return this.page.getByRole('alertdialog', { name: 'Bloquear veículo?' });
  }

  unblockDialog() {
    return this.page.getByRole('alertdialog', { name: 'Desbloquear veículo?' });
  }

  /** 'Bloquear', which asks first (the dialog says what it knows of the vehicle). */
  async askToBlock() {
    await this.page.getByRole('button', { name: 'Bloquear', exact: true }).click();
  }

  async block() {
    await this.askToBlock();
    await this.blockDialog().getByRole('button', { name: 'Bloquear' }).click();
  }

  async unblock() {
    await this.page.getByRole('button', { name: 'Desbloquear', exact: true }).click();
    await this.unblockDialog().getByRole('button', { name: 'Desbloquear' }).click();
  }

  commands() {
    return this.page.getByRole('grid', { name: 'Comandos enviados' });
  }

  /** A sent command's row, the newest first (row 0 is the header). */
  command(nth: number) {
    return this.commands().getByRole('row').nth(nth);
  }
}
