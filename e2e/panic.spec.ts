/**
 * A panic button in Chromium: a GT06 tracker, over its own TCP protocol, sends an SOS alarm;
 * the operator's screen shows 'Pânico' as a toast that stays (no 'Fechar', not put away by
 * 'Fechar todas', still there after the others settle) until 'Reconhecer' acknowledges it;
 * the alert is in the history, acknowledged by the operator. No rule was needed.
 */
import { connect, type Socket } from 'node:net';
import { expect, test } from '@playwright/test';
import { gt06Login, gt06Position } from '../server/ingest/native/gt06-device';
import { E2E_GT06_PORT, E2E_URL } from './env';
import { ADMIN, AlertHistoryPage, adminApi, Shell, signInAsAdmin } from './pages';

/** A valid IMEI (Luhn) from 14 digits. */
function imeiFrom(base: string): string {
  for (let d = 0; d <= 9; d++) {
    const digits = `${base}${d}`;
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let n = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
      sum += n;
    }
    if (sum % 10 === 0) return digits;
  }
  throw new Error('no check digit');
}

/** Reads what the server writes until `bytes` arrived. */
function received(socket: Socket, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => reject(new Error('no answer from the server')), 10_000);
    const on = (chunk: Buffer) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      if (all.length >= bytes) {
        clearTimeout(timer);
        socket.off('data', on);
        resolve(all);
      }
    };
    socket.on('data', on);
  });
}

test('a GT06 panic stays on screen until acknowledged, and is in the history', async ({ page }) => {
  test.setTimeout(90_000);
  const api = await adminApi(page.request);
  const plate = `PNC${String(Date.now()).slice(-1)}A${String(Date.now()).slice(-2)}`;
  const imei = imeiFrom(`35889905${String(Date.now()).slice(-6)}`);
  const created = await page.request.post(`${E2E_URL}/registros/vehicle`, {
    headers: api.headers,
    data: { clientId: api.clientId, name: `Carreta ${plate}`, plate, type: 'truck' },
  });
  expect(created.status()).toBe(201);
  const { id: vehicleId } = (await created.json()) as { id: string };
  const tracker = await page.request.post(`${E2E_URL}/registros/tracker`, {
    headers: api.headers,
    data: {
      clientId: api.clientId,
      identifier: imei,
      provider: 'rastro',
      protocol: 'gt06',
      vehicleId,
    },
  });
  expect(tracker.status()).toBe(201);

  // The page's own clock, moved on by hand below instead of waiting in real time.
  await page.clock.install();
  await signInAsAdmin(page);
  const shell = new Shell(page);
  await shell.dismissToasts();

  // The device: its login (acknowledged), a position, then the SOS alarm packet.
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(E2E_GT06_PORT, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  try {
    const ack = received(socket, 10);
    socket.write(gt06Login(imei, 1));
    expect((await ack).subarray(0, 4).toString('hex')).toBe('78780501');
    const now = Date.now();
    const place = { latitude: -8.0539, longitude: -34.8811, speed: 0, course: 0, ignition: true };
    socket.write(gt06Position({ ...place, fixTime: new Date(now - 20_000) }, 2));
    const alarmAck = received(socket, 10);
    socket.write(gt06Position({ ...place, fixTime: new Date(now - 10_000), alarm: 'sos' }, 3));
    // The alarm is acknowledged by the device's protocol (0x26 echoed) once it is stored.
    expect((await alarmAck).subarray(3, 4).toString('hex')).toBe('26');
  } finally {
    socket.destroy();
  }

  const region = shell.toasts();
  const panic = region.locator('.toast-sticky', { hasText: `Pânico — ${plate}` });
  await expect(panic).toBeVisible({ timeout: 20_000 });
  await expect(panic.getByRole('button', { name: 'Fechar' })).toHaveCount(0);
  await expect(panic.getByRole('button', { name: 'Reconhecer' })).toBeVisible();
  // Longer than a new alert shows in full: the others would settle into their line, a panic
  // does not.
  await page.clock.runFor(9_000);
  await expect(panic).toBeVisible();
  const closeAll = region.getByRole('button', { name: 'Fechar todas' });
  if (await closeAll.count()) await closeAll.first().click();
  await expect(panic).toBeVisible();

  await panic.getByRole('button', { name: 'Reconhecer' }).click();
  await expect(panic).toHaveCount(0);

  await shell.goTo('Histórico de alertas');
  await expect(shell.heading('Histórico de alertas')).toBeVisible();
  const row = new AlertHistoryPage(page).row(plate);
  await expect(row).toContainText('Pânico');
  await expect(row).toContainText(`Reconhecido por ${ADMIN.name}`);
});
