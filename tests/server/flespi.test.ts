/** The flespi HTTP stream over a real HTTP listener, through the ingest pipeline. */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromFlespi } from '../../server/ingest/flespi';
import type { LocationItem } from '../../src/contract';
import type { FlespiStreamResult } from './api-types';
import { as, backends, demoClients, type ErrorBody, jsonOf, useServer } from './harness';

const SECRET = 'segredo-do-fluxo-flespi-0123456789';
const IDENT = '352093081234568';

describe('flespi messages', () => {
  it('become fixes with the fields a fleet needs, the rest as attributes', () => {
    const parsed = fromFlespi({
      ident: IDENT,
      timestamp: 1_795_000_000.5,
      'position.latitude': -8.05,
      'position.longitude': -34.9,
      'position.speed': 62,
      'position.direction': 270,
      'position.altitude': 12,
      'position.satellites': 11,
      'position.valid': true,
      'engine.ignition.status': true,
      'battery.level': 88,
      'external.powersource.voltage': 12.7,
      'ibutton.code': 'ab12cd34',
      din: 1,
    });
    expect(parsed).toMatchObject({
      identifier: IDENT,
      fix: {
        latitude: -8.05,
        longitude: -34.9,
        speed: 62,
        course: 270,
        altitude: 12,
        ignition: true,
        battery: 88,
        driverRfid: 'AB12CD34',
        attributes: {
          'position.satellites': 11,
          'external.powersource.voltage': 12.7,
          din1: true,
        },
      },
    });
    if ('fix' in parsed) expect(parsed.fix.fixTime.getTime()).toBe(1_795_000_000_500);
    // Without a valid position: a report of its telemetry, without coordinates of its own.
    const blind = fromFlespi({
      ident: IDENT,
      timestamp: 1_795_000_000,
      'position.latitude': -8.06,
      'position.longitude': -34.91,
      'position.valid': false,
      'engine.ignition.status': true,
    });
    expect(blind).toMatchObject({ fix: { valid: false, ignition: true } });
    if ('fix' in blind) expect(blind.fix.latitude).toBeNaN();
    expect(fromFlespi({ ident: IDENT, 'position.latitude': -8 })).toEqual({ skip: 'no_position' });
    expect(fromFlespi({ timestamp: 1 })).toEqual({ skip: 'no_ident' });
  });
});

describe.each(await backends())('flespi HTTP stream on %s', (backend) => {
  const server = useServer(backend, () => ({ FLESPI_STREAM_SECRET: SECRET }));
  let http: ServerType;
  let url = '';

  beforeAll(async () => {
    const s = server();
    http = await new Promise<ServerType>((resolve) => {
      const h = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(h));
    });
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/tech-integracao/v1/flespi/stream`;
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    await admin.call('POST', '/registros/tracker', {
      clientId: north,
      identifier: IDENT,
      provider: 'flespi',
    });
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  const post = (body: string, secret = SECRET) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body,
    });

  it('stores a batch only with the shared secret and answers after the commit', async () => {
    const t = Date.now() / 1000 - 100;
    const batch = [
      {
        ident: IDENT,
        timestamp: t,
        'position.latitude': -8.06,
        'position.longitude': -34.91,
        'position.speed': 30,
      },
      {
        ident: IDENT,
        timestamp: t + 10,
        'position.latitude': -8.061,
        'position.longitude': -34.911,
        'position.speed': 35,
        'engine.ignition.status': false,
      },
      { ident: IDENT, timestamp: t + 15, 'battery.voltage': 4.1 },
      { ident: 'desconhecido', timestamp: t, 'position.latitude': -8, 'position.longitude': -34 },
    ];
    const wrong = await post(JSON.stringify(batch), 'outro');
    expect(wrong.status).toBe(401);
    expect((await jsonOf<ErrorBody>(wrong)).message).toBe('Segredo do fluxo flespi inválido');
    const res = await post(JSON.stringify(batch));
    expect(res.status).toBe(200);
    // The message without a position is its telemetry, stored at the last place.
    expect(await jsonOf<FlespiStreamResult>(res)).toEqual({
      received: 4,
      stored: 3,
      unknownDevices: 1,
      skipped: 0,
      rejected: 0,
      conflicts: 0,
      withoutGps: 1,
    });
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    const items = (await manager.call<LocationItem[]>('GET', '/registros/real-time/lastLocation'))
      .body;
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ latitude: -8.061, ignition: false, speed: 35 }),
      ]),
    );
    // flespi resends a batch it had no answer for: nothing is stored twice.
    const again = await post(JSON.stringify(batch));
    expect((await jsonOf<FlespiStreamResult>(again)).stored).toBe(0);
  });

  it('refuses bodies that are not flespi messages, in pt-BR', async () => {
    const bad = await post('{oops');
    expect(bad.status).toBe(400);
    expect((await jsonOf<ErrorBody>(bad)).message).toBe(
      'Corpo da requisição inválido: JSON malformado',
    );
    const numbers = await post('[1,2]');
    expect(numbers.status).toBe(400);
    expect((await jsonOf<ErrorBody>(numbers)).message).toBe(
      'Corpo inválido: envie uma lista de mensagens do flespi',
    );
  });
});

describe.each(await backends())('flespi HTTP stream without a secret on %s', (backend) => {
  const server = useServer(backend);
  it('says it is not configured', async () => {
    const res = await server().request('/tech-integracao/v1/flespi/stream', {
      method: 'POST',
      json: [],
    });
    expect(res.status).toBe(503);
    expect((await jsonOf<ErrorBody>(res)).message).toBe(
      'Fluxo flespi não configurado: defina FLESPI_STREAM_SECRET',
    );
  });
});
