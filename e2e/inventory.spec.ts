import { expect, type Page, test } from '@playwright/test';
import { E2E_OSMAND_URL } from './env';
import {
  REGISTERS,
  ResourceFormPage,
  ResourceListPage,
  SharedLinkPage,
  Shell,
  signInAsAdmin,
  TemporaryLinksPage,
  VehiclePage,
  waitForServiceWorker,
} from './pages';

/** A Mercosul plate and a valid ICCID that no other run used. */
function fresh() {
  const n = Date.now() % 100_000;
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const plate = `E${letters[n % 26]}${letters[Math.floor(n / 26) % 26]}${n % 10}${letters[(n >> 3) % 26]}${String(n % 100).padStart(2, '0')}`;
  const base = `8955${String(n).padStart(14, '0')}`;
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    let d = Number(base[base.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return { plate, iccid: `${base}${(10 - (sum % 10)) % 10}` };
}

async function createVehicle(page: Page, plate: string, name: string) {
  const vehicle = new VehiclePage(page);
  await vehicle.openNew();
  await vehicle.fill({ Placa: plate, Nome: name });
  await vehicle.save();
  await expect(new Shell(page).toast('Veículo criado.')).toBeVisible();
  // The vehicle's own page follows the save.
  await expect(page).toHaveURL(/\/management\/vehicles\/[0-9a-f-]{36}$/);
}

test('a vehicle with a tracker and a SIM card, a photo, and a block command with its state', async ({
  page,
}) => {
  const { plate, iccid } = fresh();
  const shell = new Shell(page);
  const simcard = new ResourceFormPage(page, REGISTERS.simcards.path);
  await signInAsAdmin(page, simcard.newPath());
  await simcard.fill({ ICCID: iccid, Operadora: 'Vivo' });
  await simcard.save();
  await expect(shell.toast('Chip criado.')).toBeVisible();

  const vehicle = new VehiclePage(page);
  await vehicle.openNew();
  await vehicle.fill({ Placa: plate.toLowerCase(), Nome: `Carreta ${plate}` });
  await vehicle.choose('Tipo', 'Caminhão');
  await vehicle.save();
  await expect(shell.toast('Veículo criado.')).toBeVisible();
  // The record's page follows the save.
  await expect(page).toHaveURL(/\/management\/vehicles\/[0-9a-f-]{36}$/);
  const vehicleUrl = page.url();

  const tracker = new ResourceFormPage(page, REGISTERS.trackers.path);
  await tracker.openNew();
  await tracker.field(/Identificador/).fill(`trk-${plate}`);
  // The form gives a new tracker a device password; the installer copies it into the device.
  const devicePassword = await page.getByLabel('Senha do aparelho').inputValue();
  expect(devicePassword).toMatch(/^[A-Za-z0-9]{16}$/);
  await tracker.choose('Veículo', `${plate} | Carreta ${plate}`);
  await tracker.choose('Chip', `${iccid} | Vivo`);
  await tracker.save();
  await expect(shell.toast('Rastreador criado.')).toBeVisible();

  await page.goto(vehicleUrl);
  await vehicle.addPhoto('public/icons/icon-512.png');
  await expect(shell.toast('1 imagem salva.')).toBeVisible();
  await expect(vehicle.photo()).toBeVisible();

  // The tracker reports the vehicle moving: blocking warns about it.
  const fix = await fetch(
    `${E2E_OSMAND_URL}/?id=trk-${plate}&password=${encodeURIComponent(devicePassword)}&lat=-8.0476&lon=-34.8770&speed=27`,
  );
  expect(fix.status).toBe(200);
  await vehicle.askToBlock();
  const dialog = vehicle.blockDialog();
  await expect(dialog.getByRole('alert')).toContainText(
    'o veículo estava em movimento, a 50,00 km/h',
  );
  await dialog.getByRole('button', { name: 'Bloquear' }).click();
  // It reports over OsmAnd (HTTP), which has no way back to the device: said at once.
  await expect(
    shell.toast(
      'Este rastreador envia posições pelo protocolo OsmAnd (HTTP), que não recebe comandos. Nada foi enviado.',
    ),
  ).toBeVisible();
  await expect(vehicle.commands()).toContainText('Nenhum comando enviado.');
});

test('a temporary link opens without signing in and stops working once revoked', async ({
  page,
  browser,
}) => {
  const { plate } = fresh();
  const shell = new Shell(page);
  await signInAsAdmin(page);
  await createVehicle(page, plate, `Van ${plate}`);

  const links = new TemporaryLinksPage(page);
  await links.open();
  const name = `Entrega ${plate}`;
  await links.name().fill(name);
  // The company's vehicles are many: the list is filtered by the plate, typed as people write it.
  await links.filterVehicles(`${plate.slice(0, 3)}-${plate.slice(3)}`.toLowerCase());
  await expect(links.vehicles().getByRole('checkbox')).toHaveCount(1);
  await links.checkAllShown();
  await expect(links.vehicle(`${plate} | Van ${plate}`)).toBeChecked();
  await expect(links.vehicles().getByText(/^1 veículo selecionado$/)).toBeVisible();
  await links.create();
  const link = await links.createdLink();
  expect(link).toMatch(/\/temp-access\//);
  // Copied to be pasted in a message; the list names it, its name opening what visitors see.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await links.copy();
  await expect(shell.toast('Link copiado.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(links.list().getByRole('link', { name })).toHaveAttribute('href', link ?? '');
  await expect(links.list().getByRole('row').filter({ hasText: name })).toContainText(plate);

  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  const shared = new SharedLinkPage(other);
  await shared.open(link ?? '');
  await expect(shared.heading(name)).toBeVisible();
  await expect(other.getByText(/Acesso temporário · válido até/)).toBeVisible();
  await expect(shared.vehicles()).toContainText(plate);

  await shell.dismissToasts();
  await links.askToRevoke(name);
  // Asked first: every visitor loses the vehicle at once.
  const confirm = links.revokeDialog();
  await expect(confirm).toContainText(name);
  await confirm.getByRole('button', { name: 'Revogar' }).click();
  await expect(shell.toast('Link revogado.')).toBeVisible();
  await other.reload();
  await expect(shared.gone()).toHaveText('Este link expirou ou foi revogado.');
  await stranger.close();
});

test.describe('with the service worker', () => {
  // The reload without signal is answered by the service worker.
  test.use({ serviceWorkers: 'allow' });

  test('the vehicles list and a vehicle still show after going offline and reloading', async ({
    page,
    context,
  }) => {
    const { plate } = fresh();
    await signInAsAdmin(page);
    await createVehicle(page, plate, `Offline ${plate}`);
    const vehiclePage = new URL(page.url()).pathname;

    const vehicles = new ResourceListPage(page, REGISTERS.vehicles);
    await vehicles.open();
    await expect(vehicles.row(plate)).toBeVisible();
    await expect(vehicles.freshness(/Atualizado às/)).toBeVisible();
    await waitForServiceWorker(page);

    await context.setOffline(true);
    await page.reload();
    await expect(vehicles.row(plate)).toBeVisible();
    await expect(vehicles.freshness(/^Sem conexão — dados de \d{2}:\d{2}$/)).toBeVisible();
    await vehicles.search().fill(`offline ${plate.toLowerCase()}`);
    await expect(vehicles.rowHeaders()).toHaveCount(1);

    // Its page: as this device keeps it, read only (saving needs the server).
    const vehicle = new VehiclePage(page);
    await page.goto(vehiclePage);
    await expect(new Shell(page).heading(`Offline ${plate}`)).toBeVisible();
    await expect(vehicle.keptOnDevice()).toBeVisible();
    await expect(vehicle.field('Placa')).toHaveValue(plate);
    await expect(vehicle.field('Placa')).toBeDisabled();
    await expect(vehicle.saveButton()).toHaveCount(0);
    // A record the device does not keep says it waits for the connection.
    const tracker = new ResourceFormPage(page, REGISTERS.trackers.path);
    await tracker.openRecord('00000000-0000-4000-8000-000000000000');
    await expect(tracker.waitsForConnection()).toBeVisible();

    await context.setOffline(false);
    await page.goto(vehiclePage);
    await expect(vehicle.field('Placa')).toBeEnabled();
  });
});

test('the plate lookup fills the vehicle form, and says when a plate is unknown', async ({
  page,
}) => {
  const shell = new Shell(page);
  const vehicle = new VehiclePage(page);
  await signInAsAdmin(page, vehicle.newPath());
  await vehicle.lookUpPlate('plk1a23');
  await expect(shell.toast('Dados da placa preenchidos.')).toBeVisible();
  await expect(vehicle.field('Marca')).toHaveValue('VW');
  await expect(vehicle.field('Modelo', true)).toHaveValue('Gol 1.0');
  await expect(vehicle.field('Ano do modelo')).toHaveValue('2020');
  await expect(vehicle.field('Cor')).toHaveValue('Branca');
  // Every field of the answer: the plate as the registry has it, the owner by name.
  await expect(vehicle.field('Placa')).toHaveValue('PLK1A23');
  await expect(vehicle.field('Chassi')).toHaveValue('9BWZZZ377VT004251');
  await expect(page.getByText('Proprietário na consulta: Transportes Norte Ltda')).toBeVisible();

  await vehicle.lookUpPlate('XYZ9876');
  await expect(shell.toast('Placa não encontrada: XYZ9876')).toBeVisible();
});
