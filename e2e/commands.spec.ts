/**
 * A block reaches a Wialon IPS tracker and the vehicle's page shows each state: sent at once
 * over the device's open connection ('Enviado'), confirmed when the device's outputs show it
 * ('Confirmado'), and waiting for the device while it is away ('Pendente').
 */
import { connect, type Socket } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { E2E_DEVICE_PASSWORD, E2E_PORT, E2E_URL } from './env';
import { Shell, signInAsAdmin, VehiclePage } from './pages';

/** The journeys' Wialon IPS listener (see global-setup). */
const WIALON_PORT = E2E_PORT - 2;

class Device {
  lines: string[] = [];
  private constructor(readonly socket: Socket) {
    let buffered = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\r\n');
      buffered = parts.pop() ?? '';
      this.lines.push(...parts);
    });
  }
  static async open(): Promise<Device> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(WIALON_PORT, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    return new Device(socket);
  }
  send(packet: string) {
    this.socket.write(`${packet}\r\n`);
  }
  /** Extended data with the outputs bit field, timed a second ago. */
  report(outputs: number) {
    const d = new Date(Date.now() - 1000);
    const p = (n: number) => String(n).padStart(2, '0');
    const date = `${p(d.getUTCDate())}${p(d.getUTCMonth() + 1)}${p(d.getUTCFullYear() % 100)}`;
    const time = `${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
    this.send(`#D#${date};${time};0803.2340;S;03452.8660;W;0;0;10;8;1.0;0;${outputs};NA;NA;NA`);
  }
}

/** Creates a vehicle with a tracker of our own through the API, as the signed-in admin. */
async function vehicleWithTracker(page: Page, plate: string, identifier: string) {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const clientId = await page.evaluate(
    () => JSON.parse(localStorage.getItem('authState') ?? '{}').user.clientId as string,
  );
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${E2E_URL}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string };
  };
  const vehicle = await post('/registros/vehicle', {
    clientId,
    name: `Bitrem ${plate}`,
    plate,
    type: 'truck',
  });
  await post('/registros/tracker', {
    clientId,
    identifier,
    provider: 'rastro',
    protocol: 'wialon_ips',
    devicePassword: E2E_DEVICE_PASSWORD,
    vehicleId: vehicle.id,
  });
  return vehicle.id;
}

test('a block goes out over the Wialon IPS connection and each state shows on the vehicle', async ({
  page,
}) => {
  const n = Date.now() % 1000;
  const plate = `WLN${n % 10}A${String(n % 100).padStart(2, '0')}`;
  const identifier = `wialon-journey-${n}`;
  await signInAsAdmin(page);
  const vehicleId = await vehicleWithTracker(page, plate, identifier);
  const device = await Device.open();
  device.send(`#L#${identifier};${E2E_DEVICE_PASSWORD}`);
  await expect.poll(() => device.lines).toContain('#AL#1');

  const shell = new Shell(page);
  const vehicle = new VehiclePage(page);
  await vehicle.openRecord(vehicleId);
  await vehicle.block();
  await expect(shell.toast('Bloquear: Enviado')).toBeVisible();
  await expect(vehicle.command(1)).toContainText('Enviado');
  await expect.poll(() => device.lines).toContain('L1=1');

  // The device's next report shows output 1 on: confirmed.
  device.report(1);
  await expect.poll(() => device.lines.filter((line) => line === '#AD#1').length).toBe(1);
  await page.reload();
  await expect(vehicle.command(1)).toContainText('Confirmado');
  await expect(vehicle.command(1)).toContainText('Confirmado pelo rastreador (estado das saídas).');

  // Away, the unblock waits for the device's next connection.
  device.socket.destroy();
  await shell.dismissToasts();
  await vehicle.unblock();
  await expect(shell.toast('Desbloquear: Pendente')).toBeVisible();
  await expect(vehicle.command(1)).toContainText('Pendente');
  await expect(vehicle.command(1)).toContainText('Aguardando a conexão do rastreador para enviar.');
  await expect(vehicle.command(2)).toContainText('Confirmado');
});
