/**
 * Web Push endpoints come from the browser, that is from anyone with a session: the server
 * must connect only to known push services at public addresses, when the subscription
 * arrives and again when it sends.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import {
  checkResolved,
  DEFAULT_PUSH_HOSTS,
  endpointProblem,
  isPrivateAddress,
  parsePushHosts,
  publicOnlyLookup,
} from '../../server/push/endpoint';
import { createWebPushSender } from '../../server/push/webpush';
import type { PushAlert } from '../../src/contract';
import { as, backends, type ErrorBody, useServer } from './harness';

function subscription(endpoint: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return JSON.stringify({
    endpoint,
    expirationTime: null,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  });
}

const strict = { hosts: DEFAULT_PUSH_HOSTS, insecure: false };

describe('push endpoint rules', () => {
  it('accepts the known push services over https only', () => {
    for (const ok of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QAbc',
      'https://wns2-by3p.notify.windows.com/w/?token=abc',
    ])
      expect(endpointProblem(ok, strict), ok).toBeUndefined();
    for (const bad of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://127.0.0.1:39999/push',
      'https://[::1]/push',
      'https://2130706433/push',
      'https://evil.example/push',
      'https://fcm.googleapis.com.evil.example/push',
      'https://evilpush.apple.com/push',
      'https://push.apple.com/push',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://user:pw@fcm.googleapis.com/fcm/send/abc',
      'ftp://fcm.googleapis.com/x',
    ])
      expect(endpointProblem(bad, strict), bad).toBeDefined();
  });

  it('lets the tests-only switch through local http stand-ins', () => {
    const insecure = { hosts: DEFAULT_PUSH_HOSTS, insecure: true };
    expect(endpointProblem('http://127.0.0.1:9/push/1', insecure)).toBeUndefined();
  });

  it('reads the allowed hosts from PUSH_ENDPOINT_HOSTS, else the known services', () => {
    expect(parsePushHosts(undefined)).toEqual(DEFAULT_PUSH_HOSTS);
    expect(parsePushHosts(' push.example.com , *.Push.Example.org ')).toEqual([
      'push.example.com',
      '*.push.example.org',
    ]);
  });

  it('tells private, loopback and link-local addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['142.250.78.10', '2607:f8b0:4004:c07::5f'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('refuses a name that resolves to a private address', async () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc';
    const rebound = async () => [{ address: '10.0.0.5', family: 4 }];
    const fine = async () => [{ address: '142.250.78.10', family: 4 }];
    expect(await checkResolved(endpoint, strict, rebound)).toBe(false);
    expect(await checkResolved(endpoint, strict, fine)).toBe(true);
  });

  it('never connects to a private address, whatever the name resolved to before', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe('EPRIVATEADDRESS');
  });
});

describe('sending to a stored endpoint', () => {
  const connections: Socket[] = [];
  const listener = createServer((socket) => {
    connections.push(socket);
    socket.destroy();
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const address = listener.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('does not connect to a subscription stored before the rules, and drops it', async () => {
    const sender = createWebPushSender(
      webpush.generateVAPIDKeys(),
      'mailto:teste@rastro.test',
      2000,
      strict,
    );
    const token = subscription(`https://127.0.0.1:${port}/push`);
    const alert: PushAlert = {
      rastro: 'alert',
      alertId: 'a1',
      type: 'OVERSPEED',
      vehicleId: 'v1',
      title: 'Alerta',
      body: 'Teste',
      tag: 'v1:OVERSPEED',
      url: '/alerts',
    };
    const result = await sender.send([token], alert);
    expect(connections).toHaveLength(0);
    expect(result.sent).toBe(0);
    expect(result.gone).toEqual([token]);
  });
});

describe.each(await backends())('push subscriptions on %s', (backend) => {
  const server = useServer(backend);

  it('refuses endpoints off the push services or at an address literal', async () => {
    const user = await as(server(), 'operador@rastro.demo');
    for (const endpoint of [
      'https://127.0.0.1:39999/push',
      'https://169.254.169.254/latest/meta-data',
      'https://evil.example/push',
      'http://fcm.googleapis.com/fcm/send/abc',
    ]) {
      const res = await user.call<ErrorBody>('PUT', '/registros/push/subscribe-token', {
        token: subscription(endpoint),
      });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.message, endpoint).toMatch(/notificações/);
    }
    const devices = await user.call<unknown[]>('GET', '/registros/push/devices');
    expect(devices.body).toEqual([]);
  });
});

describe.each(await backends())('push subscriptions resolving privately on %s', (backend) => {
  const server = useServer(backend, () => ({ PUSH_ENDPOINT_HOSTS: 'localhost' }));

  it('refuses an allowed name that resolves to a loopback address', async () => {
    const user = await as(server(), 'operador@rastro.demo');
    const res = await user.call<ErrorBody>('PUT', '/registros/push/subscribe-token', {
      token: subscription('https://localhost/push'),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Endereço de notificações não permitido');
  });
});
