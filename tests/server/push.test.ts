/**
 * Push on a real server: an alert raised from OsmAnd fixes reaches a local FCM stand-in (with
 * an OAuth token from a signed service-account JWT) and a local Web Push endpoint (the payload
 * decrypted there with the subscription's keys); the audience is the live stream's (a sibling
 * company's user gets nothing); a device's alert-type choice is kept; tokens answered 404 or
 * 410 are removed; late alerts are not pushed; 1,200 tokens go out in three batches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredAlert } from '../../server/alerts/notifier';
import { pushDeviceId, pushTokensOf } from '../../server/alerts/queries/push';
import { pushTokens } from '../../server/schema';
import type { RunningServer } from '../../server/start';
import type { PushAlert, PushConfig, PushDevice } from '../../src/contract';
import {
  alertsOf,
  type Caller,
  createRule,
  customers,
  epoch,
  osmand,
  signIn,
  startReal,
  vehicleWithTracker,
} from './alert-fixtures';
import { backends, databaseFor, type ErrorBody, jsonOf } from './harness';
import { startFcmStandIn, startWebPushStandIn } from './push-standins';

const HOME = { lat: -8.0539, lon: -34.8811 };

async function until(check: () => boolean, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(await backends())('push notifications on %s', (backend) => {
  let server: RunningServer;
  let drop: () => Promise<void>;
  let fcm: Awaited<ReturnType<typeof startFcmStandIn>>;
  let web: Awaited<ReturnType<typeof startWebPushStandIn>>;
  let admin: Caller;
  let north: string;
  let vehicleId = '';
  const t0 = Math.floor(Date.now() / 1000) * 1000 - 5 * 60_000;
  const at = (seconds: number) => new Date(t0 + seconds * 1000);

  beforeAll(async () => {
    fcm = await startFcmStandIn();
    web = await startWebPushStandIn();
    const database = await databaseFor(backend);
    drop = database.drop;
    server = await startReal({ ...database.env, ...fcm.env, PUSH_INSECURE_ENDPOINTS: 'true' });
    admin = await signIn(server.url, 'admin@rastro.demo');
    ({ north } = await customers(admin));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
    await fcm?.close();
    await web?.close();
  });

  const subscribe = <T = unknown>(caller: Caller, token: string) =>
    caller.call<T>('PUT', '/registros/push/subscribe-token', { token });

  it('publishes the Firebase web config and its key when Firebase is configured', async () => {
    const res = await fetch(`${server.url}/registros/push/config`);
    expect(res.status).toBe(200);
    expect(await jsonOf<PushConfig>(res)).toEqual({
      provider: 'fcm',
      vapidKey: fcm.env.FIREBASE_VAPID_KEY,
      firebase: JSON.parse(fcm.env.FIREBASE_WEB_CONFIG),
    });
    const script = await (await fetch(`${server.url}/push-config.js`)).text();
    expect(script).toContain('self.RASTRO_PUSH=');
    expect(script).toContain('"projectId":"rastro-teste"');
  });

  it('refuses a malformed subscription and an http endpoint when not allowed, changing nothing', async () => {
    const bad = await subscribe<ErrorBody>(admin, '{"endpoint":"nada"}');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/inválid/);
    expect(await pushTokensOf(server.deps.database.db, admin.userId)).toEqual([]);
  });

  it('pushes an alert to every device of every user who sees it, by FCM and by Web Push', async () => {
    const norte = await signIn(server.url, 'gestor.norte@rastro.demo');
    const sul = await signIn(server.url, 'gestor.sul@rastro.demo');
    const northPhone = web.subscribe();
    const northLaptop = web.subscribe();
    const southPhone = web.subscribe();
    const revoked = web.subscribe();
    web.goneIds.add(revoked.id);
    fcm.gone.add('fcm-desinstalado');
    expect((await subscribe(admin, 'fcm-admin-celular')).status).toBe(200);
    expect((await subscribe(admin, 'fcm-desinstalado')).status).toBe(200);
    expect((await subscribe(norte, JSON.stringify(northPhone.json))).status).toBe(200);
    expect((await subscribe(norte, JSON.stringify(northLaptop.json))).status).toBe(200);
    expect((await subscribe(norte, JSON.stringify(revoked.json))).status).toBe(200);
    expect((await subscribe(sul, JSON.stringify(southPhone.json))).status).toBe(200);
    const devices = await norte.call<PushDevice[]>('GET', '/registros/push/devices');
    expect(devices.body).toHaveLength(3);
    expect(devices.body.map((d) => d.kind)).toEqual(['webpush', 'webpush', 'webpush']);

    const ids = await vehicleWithTracker(admin, north, 'PSH1A11', 'trk-PSH1A11');
    await createRule(admin, {
      clientId: north,
      name: 'Ignição',
      type: 'IGNITION_ON',
      vehicleIds: [ids.vehicleId],
    });
    const port = server.osmandPort ?? 0;
    const fix = (s: number, ignition: boolean) =>
      osmand(port, { id: 'trk-PSH1A11', ...HOME, timestamp: epoch(at(s)), ignition });
    await fix(0, false);
    await fix(10, true);
    vehicleId = ids.vehicleId;
    const [alert] = await alertsOf(admin, ids.vehicleId);
    expect(alert?.type).toBe('IGNITION_ON');

    await until(() => web.received.length >= 2 && fcm.messages.length >= 1, 'the pushes');
    const toFcm = fcm.messages.find((m) => m.token === 'fcm-admin-celular');
    expect(toFcm?.data).toMatchObject({
      rastro: 'alert',
      alertId: alert?.id,
      type: 'IGNITION_ON',
      title: 'Ignição ligada — PSH1A11',
      tag: `${ids.vehicleId}:IGNITION_ON`,
      url: `/fleet-management/alerts/alerts-history?alert=${alert?.id}`,
    });
    expect(toFcm?.data.body).toMatch(/^PSH1A11 ligou a ignição às \d\d:\d\d$/);
    expect(fcm.tokenRequests()).toBe(1);
    // Decrypted with each subscription's own keys: the same alert on both of Norte's devices.
    const payloads = web.received.map((r) => ({
      id: r.id,
      push: JSON.parse(r.payload) as PushAlert,
    }));
    expect(payloads.map((p) => p.id).sort()).toEqual([northPhone.id, northLaptop.id].sort());
    for (const { push } of payloads)
      expect(push).toMatchObject({ alertId: alert?.id, title: 'Ignição ligada — PSH1A11' });
    expect(web.received[0]?.headers.authorization).toMatch(/^vapid t=.+, k=.+/);
    // The sibling company's manager heard nothing; gone tokens were removed.
    expect(web.received.some((r) => r.id === southPhone.id)).toBe(false);
    const db = server.deps.database.db;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await pushTokensOf(db, admin.userId)).toEqual(['fcm-admin-celular']);
    expect(await pushTokensOf(db, norte.userId)).toHaveLength(2);

    // Norte's phone chooses IGNITION_OFF only: the next IGNITION_ON reaches the laptop alone.
    const phoneId = pushDeviceId(JSON.stringify(northPhone.json));
    const chosen = await norte.call<PushDevice>('PATCH', `/registros/push/devices/${phoneId}`, {
      alertTypes: ['IGNITION_OFF'],
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.alertTypes).toEqual(['IGNITION_OFF']);
    const other = await sul.call('PATCH', `/registros/push/devices/${phoneId}`, {
      alertTypes: null,
    });
    expect(other.status).toBe(404);
    const badType = await norte.call('PATCH', `/registros/push/devices/${phoneId}`, {
      alertTypes: ['NADA'],
    });
    expect(badType.status).toBe(400);
    web.received.length = 0;
    await fix(20, false);
    await fix(30, true);
    await until(() => web.received.length >= 1, 'the second push');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(web.received.map((r) => r.id)).toEqual([northLaptop.id]);
  }, 60_000);

  it('does not push late alerts', async () => {
    const [alert] = await alertsOf(admin, vehicleId);
    if (!alert) throw new Error('no alert');
    const before = fcm.messages.length;
    const result = await server.deps.push.sender.send([{ ...stored(alert, north), late: true }]);
    expect(result).toEqual({ sent: 0, gone: [], failed: 0 });
    expect(fcm.messages.length).toBe(before);
  });

  it('sends 1,200 FCM tokens in three batches of at most 500', async () => {
    const [alert] = await alertsOf(admin, vehicleId);
    if (!alert) throw new Error('no alert');
    const db = server.deps.database.db;
    const tokens = Array.from({ length: 1200 }, (_, i) => `fcm-lote-${i}`);
    await db.insert(pushTokens).values(tokens.map((token) => ({ token, userId: admin.userId })));
    fcm.expect(1201);
    fcm.messages.length = 0;
    const result = await server.deps.push.sender.send([stored(alert, north)]);
    // And Norte's laptop by Web Push.
    expect(result.sent).toBe(1202);
    expect(fcm.waves).toEqual([500, 500, 201]);
    expect(new Set(fcm.messages.map((m) => m.token)).size).toBe(1201);
  }, 60_000);
});

function stored(alert: Awaited<ReturnType<typeof alertsOf>>[number], clientId: string) {
  return {
    ...alert,
    clientId,
    geofenceId: null,
    geofenceName: null,
    emailDelivery: '',
    details: {},
  } satisfies StoredAlert;
}
