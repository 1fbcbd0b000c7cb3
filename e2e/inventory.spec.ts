import { expect, type Page, test } from '@playwright/test';
import { E2E_OSMAND_URL } from './env';
import { Shell, signInAsAdmin, waitForServiceWorker } from './pages';

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
  await page.goto('/management/vehicles/create');
  await page.getByRole('textbox', { name: 'Placa' }).fill(plate);
  await page.getByRole('textbox', { name: 'Nome' }).fill(name);
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(new Shell(page).toast('Veículo criado.')).toBeVisible();
  // The vehicle's own page follows the save.
  await expect(page).toHaveURL(/\/management\/vehicles\/[0-9a-f-]{36}$/);
}

async function choose(page: Page, select: string, option: string) {
  await page.getByRole('button', { name: new RegExp(select) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a vehicle with a tracker and a SIM card, a photo, and a block command with its state', async ({
  page,
}) => {
  const { plate, iccid } = fresh();
  const shell = new Shell(page);
  await signInAsAdmin(page);

  await page.goto('/management/simcards/create');
  await page.getByRole('textbox', { name: 'ICCID' }).fill(iccid);
  await page.getByRole('textbox', { name: 'Operadora' }).fill('Vivo');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(shell.toast('Chip criado.')).toBeVisible();

  await page.goto('/management/vehicles/create');
  await page.getByRole('textbox', { name: 'Placa' }).fill(plate.toLowerCase());
  await page.getByRole('textbox', { name: 'Nome' }).fill(`Carreta ${plate}`);
  await choose(page, 'Tipo', 'Caminhão');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(shell.toast('Veículo criado.')).toBeVisible();
  // The record's page follows the save.
  await expect(page).toHaveURL(/\/management\/vehicles\/[0-9a-f-]{36}$/);
  const vehicleUrl = page.url();

  await page.goto('/management/trackers/create');
  await page.getByRole('textbox', { name: /Identificador/ }).fill(`trk-${plate}`);
  // The form gives a new tracker a device password; the installer copies it into the device.
  const devicePassword = await page.getByLabel('Senha do aparelho').inputValue();
  expect(devicePassword).toMatch(/^[A-Za-z0-9]{16}$/);
  await choose(page, 'Veículo', `${plate} | Carreta ${plate}`);
  await choose(page, 'Chip', `${iccid} | Vivo`);
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(shell.toast('Rastreador criado.')).toBeVisible();

  await page.goto(vehicleUrl);
  await page.locator('input[type=file]').setInputFiles('public/icons/icon-512.png');
  await expect(shell.toast('1 imagem salva.')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Foto do veículo' })).toBeVisible();

  // The tracker reports the vehicle moving: blocking warns about it.
  const fix = await fetch(
    `${E2E_OSMAND_URL}/?id=trk-${plate}&password=${encodeURIComponent(devicePassword)}&lat=-8.0476&lon=-34.8770&speed=27`,
  );
  expect(fix.status).toBe(200);
  await page.getByRole('button', { name: 'Bloquear', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Bloquear veículo?' });
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
  const history = page.getByRole('grid', { name: 'Comandos enviados' });
  await expect(history).toContainText('Nenhum comando enviado.');
});

test('a temporary link opens without signing in and stops working once revoked', async ({
  page,
  browser,
}) => {
  const { plate } = fresh();
  const shell = new Shell(page);
  await signInAsAdmin(page);
  await createVehicle(page, plate, `Van ${plate}`);

  await page.goto('/management/temporary-links');
  const name = `Entrega ${plate}`;
  await page.getByRole('textbox', { name: 'Nome do link' }).fill(name);
  // The company's vehicles are many: the list is filtered by the plate, typed as people write it.
  const vehicles = page.getByRole('group', { name: 'Veículos' });
  await vehicles
    .getByRole('searchbox', { name: 'Filtrar: Veículos' })
    .fill(`${plate.slice(0, 3)}-${plate.slice(3)}`.toLowerCase());
  await expect(vehicles.getByRole('checkbox')).toHaveCount(1);
  await vehicles.getByRole('button', { name: 'Marcar todos os mostrados' }).click();
  await expect(page.getByRole('checkbox', { name: `${plate} | Van ${plate}` })).toBeChecked();
  await expect(vehicles.getByText(/^1 veículo selecionado$/)).toBeVisible();
  await page.getByRole('button', { name: 'Criar link' }).click();
  const link = await page.getByRole('status').getByRole('link').getAttribute('href');
  expect(link).toMatch(/\/temp-access\//);
  // Copied to be pasted in a message; the list names it, its name opening what visitors see.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('status').getByRole('button', { name: 'Copiar link' }).click();
  await expect(shell.toast('Link copiado.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  const links = page.getByRole('grid', { name: 'Links criados' });
  await expect(links.getByRole('link', { name })).toHaveAttribute('href', link ?? '');
  await expect(links.getByRole('row').filter({ hasText: name })).toContainText(plate);

  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto(link ?? '');
  await expect(other.getByRole('heading', { name })).toBeVisible();
  await expect(other.getByText(/Acesso temporário · válido até/)).toBeVisible();
  await expect(other.getByRole('list', { name: 'Veículos compartilhados' })).toContainText(plate);

  await shell.dismissToasts();
  await page.getByRole('button', { name: `Revogar ${name}` }).click();
  // Asked first: every visitor loses the vehicle at once.
  const confirm = page.getByRole('alertdialog', { name: 'Revogar link?' });
  await expect(confirm).toContainText(name);
  await confirm.getByRole('button', { name: 'Revogar' }).click();
  await expect(shell.toast('Link revogado.')).toBeVisible();
  await other.reload();
  await expect(other.getByRole('alert')).toHaveText('Este link expirou ou foi revogado.');
  await stranger.close();
});

test('the vehicles list and a vehicle still show after going offline and reloading', async ({
  page,
  context,
}) => {
  const { plate } = fresh();
  await signInAsAdmin(page);
  await createVehicle(page, plate, `Offline ${plate}`);
  const vehiclePage = new URL(page.url()).pathname;

  await page.goto('/management/vehicles');
  const table = page.getByRole('grid', { name: 'Veículos' });
  await expect(table.getByRole('row').filter({ hasText: plate })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Atualizado às/ })).toBeVisible();
  await waitForServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  await expect(table.getByRole('row').filter({ hasText: plate })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: /^Sem conexão — dados de \d{2}:\d{2}$/ }),
  ).toBeVisible();
  await page
    .getByRole('searchbox', { name: /Buscar veículos/ })
    .fill(`offline ${plate.toLowerCase()}`);
  await expect(table.getByRole('rowheader')).toHaveCount(1);

  // Its page: as this device keeps it, read only (saving needs the server).
  await page.goto(vehiclePage);
  await expect(page.getByRole('heading', { level: 1, name: `Offline ${plate}` })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'dados salvos neste aparelho' }),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Placa' })).toHaveValue(plate);
  await expect(page.getByRole('textbox', { name: 'Placa' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Salvar' })).toHaveCount(0);
  // A record the device does not keep says it waits for the connection.
  await page.goto('/management/trackers/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('Os dados aparecem quando a conexão voltar.')).toBeVisible();

  await context.setOffline(false);
  await page.goto(vehiclePage);
  await expect(page.getByRole('textbox', { name: 'Placa' })).toBeEnabled();
});

test('the plate lookup fills the vehicle form, and says when a plate is unknown', async ({
  page,
}) => {
  const shell = new Shell(page);
  await signInAsAdmin(page);
  await page.goto('/management/vehicles/create');
  await page.getByRole('textbox', { name: 'Placa' }).fill('plk1a23');
  await page.getByRole('button', { name: 'Consultar placa' }).click();
  await expect(shell.toast('Dados da placa preenchidos.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Marca' })).toHaveValue('VW');
  await expect(page.getByRole('textbox', { name: 'Modelo', exact: true })).toHaveValue('Gol 1.0');
  await expect(page.getByRole('textbox', { name: 'Ano do modelo' })).toHaveValue('2020');
  await expect(page.getByRole('textbox', { name: 'Cor' })).toHaveValue('Branca');
  // Every field of the answer: the plate as the registry has it, the owner by name.
  await expect(page.getByRole('textbox', { name: 'Placa' })).toHaveValue('PLK1A23');
  await expect(page.getByRole('textbox', { name: 'Chassi' })).toHaveValue('9BWZZZ377VT004251');
  await expect(page.getByText('Proprietário na consulta: Transportes Norte Ltda')).toBeVisible();

  await page.getByRole('textbox', { name: 'Placa' }).fill('XYZ9876');
  await page.getByRole('button', { name: 'Consultar placa' }).click();
  await expect(shell.toast('Placa não encontrada: XYZ9876')).toBeVisible();
});
