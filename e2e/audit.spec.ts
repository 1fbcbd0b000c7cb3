/**
 * Auditoria: an operator of Transportes Norte blocks a vehicle, the tracker confirms it, and
 * the company's manager finds the block in 'Auditoria' with who sent it, when, and how it went.
 */
import { connect, type Socket } from 'node:net';
import { expect, test } from '@playwright/test';
import { E2E_DEVICE_PASSWORD, E2E_PORT, E2E_URL } from './env';
import { AuditPage, adminApi, Shell, signInAs, VehiclePage } from './pages';

/** The journeys' Wialon IPS listener (see global-setup). */
const WIALON_PORT = E2E_PORT - 2;

async function openDevice() {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(WIALON_PORT, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const lines: string[] = [];
  let buffered = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\r\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
  });
  const send = (packet: string) => socket.write(`${packet}\r\n`);
  /** Extended data with the outputs bit field, timed a second ago. */
  const report = (outputs: number) => {
    const d = new Date(Date.now() - 1000);
    const p = (n: number) => String(n).padStart(2, '0');
    const date = `${p(d.getUTCDate())}${p(d.getUTCMonth() + 1)}${p(d.getUTCFullYear() % 100)}`;
    const time = `${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
    send(`#D#${date};${time};0803.2340;S;03452.8660;W;0;0;10;8;1.0;0;${outputs};NA;NA;NA`);
  };
  return { socket, lines, send, report };
}

test('the manager sees in Auditoria who blocked a vehicle, when, and the outcome', async ({
  page,
  request,
}) => {
  const n = Date.now() % 1000;
  const plate = `AUD${n % 10}B${String(n % 100).padStart(2, '0')}`;
  const identifier = `audit-journey-${n}`;
  // The administrator registers a vehicle of Transportes Norte with a tracker of our own.
  const admin = await adminApi(request);
  const customers = await request.get(`${E2E_URL}/registros/client?limit=100`, admin);
  const north = (
    (await customers.json()) as { clients: { id: string; name: string }[] }
  ).clients.find((c) => c.name.startsWith('Transportes Norte'))?.id;
  expect(north).toBeTruthy();
  const vehicle = await request.post(`${E2E_URL}/registros/vehicle`, {
    ...admin,
    data: { clientId: north, name: `Bitrem ${plate}`, plate, type: 'truck' },
  });
  expect(vehicle.status()).toBe(201);
  const vehicleId = ((await vehicle.json()) as { id: string }).id;
  const tracker = await request.post(`${E2E_URL}/registros/tracker`, {
    ...admin,
    data: {
      clientId: north,
      identifier,
      provider: 'rastro',
      protocol: 'wialon_ips',
      devicePassword: E2E_DEVICE_PASSWORD,
      vehicleId,
    },
  });
  expect(tracker.status()).toBe(201);
  const device = await openDevice();
  device.send(`#L#${identifier};${E2E_DEVICE_PASSWORD}`);
  await expect.poll(() => device.lines).toContain('#AL#1');

  // The operator blocks it; the device's next report shows the output on: confirmed.
  const shell = new Shell(page);
  const vehiclePage = new VehiclePage(page);
  await signInAs(
    page,
    'operador.norte@rastro.demo',
    'Nelson Operador Norte',
    vehiclePage.recordPath(vehicleId),
  );
  await vehiclePage.block();
  await expect(shell.toast('Bloquear: Enviado')).toBeVisible();
  await expect.poll(() => device.lines).toContain('L1=1');
  device.report(1);
  await expect.poll(() => device.lines.filter((line) => line === '#AD#1').length).toBe(1);
  device.socket.destroy();
  await shell.signOut();

  // The manager opens Auditoria from the menu and finds the block.
  await signInAs(page, 'gestor.norte@rastro.demo', 'Núbia Gestora Norte');
  await shell.goTo('Auditoria');
  await expect(shell.heading('Auditoria')).toBeVisible();
  const audit = new AuditPage(page);
  const row = audit.rows(plate, 'Comando');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('operador.norte@rastro.demo');
  await expect(row).toContainText('Comando: Bloquear');
  await expect(row).toContainText('Confirmado');
  await expect(row).toContainText('Transportes Norte');
  // When: today, in Brasília time.
  const today = new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date());
  await expect(row).toContainText(today);

  // The filters narrow to commands; the spreadsheet of what is shown downloads.
  await audit.filterByType('Comando');
  await expect(audit.rows('Entrada')).toHaveCount(0);
  await expect(row).toHaveCount(1);
  const download = page.waitForEvent('download');
  await audit.export();
  expect((await download).suggestedFilename()).toBe('auditoria.xlsx');
});
