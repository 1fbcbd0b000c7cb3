/** Commands through the integrations, against a local stand-in provider server. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tracker, Vehicle } from '../../src/contract';
import type { CommandHistory, Message } from './api-types';
import { DEVICE_PASSWORD } from './devices';
import { as, backends, demoClients, type ErrorBody, type TestServer, useServer } from './harness';

interface Received {
  method: string;
  url: string;
  auth: string;
  body: unknown;
}
const received: Received[] = [];
let provider: Server;
let url = '';
let refuse = false;

beforeAll(async () => {
  provider = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization ?? '',
        body: raw ? JSON.parse(raw) : null,
      });
      res.setHeader('content-type', 'application/json');
      if (refuse) {
        res.statusCode = 422;
        res.end(JSON.stringify({ message: 'dispositivo offline' }));
        return;
      }
      res.end(
        JSON.stringify(req.url?.startsWith('/commands') ? { confirmed: true } : { id: 'ext-42' }),
      );
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

async function vehicleWithTracker(
  s: TestServer,
  provider: string,
  plate: string,
  identifier: string,
) {
  const { north } = await demoClients(s);
  const admin = await as(s, 'admin@rastro.demo');
  const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
    clientId: north,
    name: `Carreta ${plate}`,
    plate,
    type: 'semi_trailer',
  });
  const tracker = await admin.call<Tracker>('POST', '/registros/tracker', {
    clientId: north,
    identifier,
    provider,
    vehicleId: vehicle.body.id,
    // Our own trackers take commands only when they can prove their password.
    ...(provider === 'rastro' ? { devicePassword: DEVICE_PASSWORD } : {}),
  });
  return { vehicle: vehicle.body.id, tracker: tracker.body.id };
}

describe.each(await backends())('commands on %s', (backend) => {
  const server = useServer(backend, () => ({ GETRAK_URL: url, GETRAK_TOKEN: 'tok-getrak' }));

  it('blocks through the integration that owns the tracker and records who and how it went', async () => {
    const { vehicle } = await vehicleWithTracker(server(), 'getrak', 'BLK1A23', 'getrak-001');
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const res = await operator.call('PUT', `/registros/commands/block?vehicleId=${vehicle}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'block',
      integration: 'getrak',
      status: 'confirmed',
      userName: 'Nelson Operador Norte',
    });
    expect(received.at(-1)).toMatchObject({
      method: 'POST',
      url: '/commands',
      auth: 'Bearer tok-getrak',
      body: { device: 'getrak-001', command: 'block' },
    });

    refuse = true;
    const failed = await operator.call<ErrorBody>(
      'PUT',
      `/registros/commands/unblock?vehicleId=${vehicle}`,
    );
    refuse = false;
    expect(failed.status).toBe(502);
    expect(failed.body.message).toContain('Getrak recusou a operação (422): dispositivo offline');

    const history = await operator.call<CommandHistory>(
      'GET',
      `/registros/commands?vehicleId=${vehicle}`,
    );
    expect(history.body.commands.map((c) => [c.kind, c.status])).toEqual([
      ['unblock', 'failed'],
      ['block', 'confirmed'],
    ]);
  });

  it('says clearly when an integration is not set up, and still records the attempt', async () => {
    const { vehicle } = await vehicleWithTracker(server(), 'wialon', 'WLN4B56', 'wialon-9');
    const admin = await as(server(), 'admin@rastro.demo');
    const res = await admin.call<ErrorBody>(
      'PUT',
      `/registros/commands/block?vehicleId=${vehicle}`,
    );
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(
      'Integração Wialon não configurada. Defina WIALON_URL e WIALON_TOKEN.',
    );
    const history = await admin.call<CommandHistory>(
      'GET',
      `/registros/commands?vehicleId=${vehicle}`,
    );
    expect(history.body.commands[0]).toMatchObject({ kind: 'block', status: 'failed' });
  });

  it("queues commands of Rastro's own trackers until the device connects", async () => {
    const { vehicle } = await vehicleWithTracker(server(), 'rastro', 'RST7C89', '490154203237518');
    const admin = await as(server(), 'admin@rastro.demo');
    const res = await admin.call('PUT', `/registros/commands/block?vehicleId=${vehicle}`);
    expect(res.body).toMatchObject({ status: 'pending', integration: 'rastro' });
  });

  it('enables, disables and activates devices, and refuses vehicles without a tracker', async () => {
    const { vehicle, tracker } = await vehicleWithTracker(
      server(),
      'getrak',
      'DEV1D11',
      'getrak-002',
    );
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const off = await operator.call('PUT', '/registro/commands/disableDevice', {
      trackerId: tracker,
    });
    expect(off.body).toMatchObject({ kind: 'disable', status: 'confirmed' });
    expect(
      (await operator.call<Tracker>('GET', `/registros/tracker/${tracker}`)).body.enabled,
    ).toBe(false);
    const none = await operator.call<ErrorBody>(
      'PUT',
      `/registros/commands/block?vehicleId=${vehicle}`,
    );
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('Veículo sem rastreador habilitado');
    await operator.call('PUT', '/registro/commands/enableDevice', { trackerId: tracker });
    const activated = await operator.call<Message>('PUT', `/registros/tracker/activate/${tracker}`);
    expect(activated.body.message).toBe('Rastreador ativado.');
    expect(
      (await operator.call<Tracker>('GET', `/registros/tracker/${tracker}`)).body.activatedAt,
    ).toBeTruthy();
    const bad = await operator.call('PUT', '/registro/commands/enableDevice', { trackerId: 'x' });
    expect(bad.status).toBe(400);
  });

  it('suspends through the named integration and registers with the provider', async () => {
    const { vehicle, tracker } = await vehicleWithTracker(
      server(),
      'getrak',
      'SUS2E22',
      'getrak-003',
    );
    const admin = await as(server(), 'admin@rastro.demo');
    const suspended = await admin.call(
      'PUT',
      `/registros/commands/getrak/suspend?vehicleId=${vehicle}`,
    );
    expect(suspended.body).toMatchObject({ kind: 'suspend', integration: 'getrak' });
    const unknown = await admin.call(
      'PUT',
      `/registros/commands/outra/suspend?vehicleId=${vehicle}`,
    );
    expect(unknown.status).toBe(400);
    const registered = await admin.call<Message>(
      'PUT',
      `/tech-integracao/v1/register/getrak/vehicle?id=${vehicle}`,
    );
    expect(registered.body.message).toBe('Veículo cadastrado na integração (ext-42).');
    expect(received.at(-1)).toMatchObject({
      method: 'PUT',
      body: { plate: 'SUS2E22', devices: ['getrak-003'] },
    });
    const device = await admin.call<Message>(
      'PUT',
      `/tech-integracao/v1/register/getrak/device?id=${tracker}`,
    );
    expect(device.body.message).toBe('Rastreador cadastrado na Getrak (ext-42).');
  });

  it('keeps blocking to those who may', async () => {
    const { vehicle } = await vehicleWithTracker(server(), 'getrak', 'PRM3F33', 'getrak-004');
    const { north } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    await admin.call('POST', '/registros/user', {
      name: 'Cliente Norte',
      email: 'cli@norte.com',
      role: 'CLIENT',
      clientId: north,
    });
    const client = await as(server(), 'cliente@rastro.demo');
    expect(
      (await client.call('PUT', `/registros/commands/block?vehicleId=${vehicle}`)).status,
    ).toBe(403);
  });
});
