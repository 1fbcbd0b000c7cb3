/**
 * Last locations in the IndexedDB mirror (fake-indexeddb), fed by the real server: a full
 * read replaces a customer's set, the live stream (read over the authenticated client) brings
 * each new fix, and a reconnect after the last event id applied misses nothing.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FLEET, demoDevicePassword } from '../../server/demo/fleet';
import type { RunningServer } from '../../server/start';
import { dataBody, login2, v2, WialonDevice } from '../server/devices';
import { startTestServer } from '../server/harness';
import { installStorage } from './memory-storage';

installStorage();
const { login } = await import('../../src/api/auth');
const client = await import('../../src/api/client');
const { session } = await import('../../src/api/session');
const { followLocations, isAfter } = await import('../../src/api/locations');
const { RastroDb } = await import('../../src/db/database');
const { applyLocations, locationsKey, syncLastLocations } = await import('../../src/db/locations');

let server: RunningServer;
let clientId = '';
let osmand = '';
let wialonPort = 0;

beforeAll(async () => {
  server = await startTestServer({
    SEED_DEMO_FLEET: 'true',
    OSMAND_PORT: '0',
    WIALON_IPS_PORT: '0',
    SIMULATOR: 'off',
  });
  osmand = `http://127.0.0.1:${server.osmandPort}`;
  wialonPort = server.wialonPort ?? 0;
  client.setApiBase(server.url);
  const auth = await login({ email: 'admin@rastro.demo', password: 'rastro-demo' });
  session.set(auth);
  clientId = auth.user.clientId;
});
afterAll(() => server.close());

/** Degrees as Wialon IPS writes them: DDMM.MMMM (DDDMM.MMMM for longitudes) and a hemisphere. */
function ddmm(degrees: number, width: number, hemispheres: [string, string]) {
  const abs = Math.abs(degrees);
  const whole = Math.floor(abs);
  const minutes = ((abs - whole) * 60).toFixed(4).padStart(7, '0');
  return `${String(whole).padStart(width, '0')}${minutes};${degrees < 0 ? hemispheres[1] : hemispheres[0]}`;
}

/**
 * A fix from a demo tracker, in its own protocol and with its password: the odd ones speak
 * OsmAnd, the even ones Wialon IPS over TCP. Answers 200 when the server took it.
 */
async function send(id: string, lat: number, secondsAgo = 0) {
  const password = demoDevicePassword(id);
  const at = Math.floor(Date.now() / 1000) - secondsAgo;
  if (Number(id.slice(-3)) % 2 === 1) {
    const res = await fetch(
      `${osmand}/?id=${id}&password=${password}&lat=${lat}&lon=-34.9&speed=20&timestamp=${at}`,
    );
    return res.status;
  }
  const device = await WialonDevice.open(wialonPort);
  try {
    if ((await device.send(login2(id, password))) !== '#AL#1') return 401;
    const place = `${ddmm(lat, 2, ['N', 'S'])};${ddmm(-34.9, 3, ['E', 'W'])}`;
    const answer = await device.send(v2('D', dataBody(new Date(at * 1000), place)));
    return answer === '#AD#1' ? 200 : 400;
  } finally {
    device.close();
  }
}

describe('event ids', () => {
  it('compare as the numbers they are, past what a JS number holds', () => {
    expect(isAfter('10', '9')).toBe(true);
    expect(isAfter('9', '10')).toBe(false);
    expect(isAfter('123456789012345679', '123456789012345678')).toBe(true);
    expect(isAfter('5', undefined)).toBe(true);
    // A resume point from an older version (a time) is no resume point.
    expect(isAfter('1', '2024-01-01T00:00:00.000Z')).toBe(true);
  });
});

/** The name the demo gives the vehicle of tracker demo-00n. */
const nameOf = (identifier: string) => DEMO_FLEET.find((v) => v.identifier === identifier)?.name;

describe('last locations mirror', () => {
  it('mirrors the demo fleet of the whole customer tree, then follows live changes', async () => {
    const database = new RastroDb('locations-test');
    // The demo fleet has no positions until its trackers report.
    for (let i = 1; i <= 12; i++)
      expect(await send(`demo-${String(i).padStart(3, '0')}`, -8.05 - i / 1000, 60)).toBe(200);
    expect(await syncLastLocations(clientId, database)).toBe(12);
    const rows = await database.lastLocations.where('scope').equals(clientId).toArray();
    expect(rows.map((row) => row.plate).sort()).toHaveLength(12);
    const state = await database.syncState.get(locationsKey(clientId));
    expect(state?.watermark).toBe(String(Math.max(...rows.map((row) => Number(row.eventId)))));

    // Live: the stream brings a new fix, which the mirror merges.
    const controller = new AbortController();
    const received: string[] = [];
    let ready: () => void = () => {};
    const isReady = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const following = followLocations({
      clientId,
      lastEventId: state?.watermark,
      signal: controller.signal,
      onReady: ready,
      onItems: (items) => {
        received.push(...items.map((item) => item.name));
        void applyLocations(clientId, items, database);
      },
    }).catch((err: unknown) => {
      if (!controller.signal.aborted) throw err;
    });
    await isReady;
    expect(await send('demo-003', -8.0999)).toBe(200);
    await expect.poll(() => received, { timeout: 5000 }).toContain(nameOf('demo-003'));
    await expect
      .poll(async () => {
        const [row] = await database.lastLocations
          .where('scope')
          .equals(clientId)
          .filter((r) => r.name === nameOf('demo-003'))
          .toArray();
        return row?.latitude;
      })
      .toBe(-8.0999);
    controller.abort();
    await following;

    // While nobody listened, two vehicles moved: resuming from the watermark brings both.
    const lastEventId = (await database.syncState.get(locationsKey(clientId)))?.watermark;
    expect(await send('demo-004', -8.0888)).toBe(200);
    expect(await send('demo-005', -8.0777)).toBe(200);
    const resumed = new AbortController();
    const caught: number[] = [];
    await followLocations({
      clientId,
      lastEventId,
      signal: resumed.signal,
      onReady: () => resumed.abort(),
      onItems: (items) => caught.push(...items.map((item) => item.latitude)),
    }).catch(() => {});
    // Wialon IPS writes minutes to four places: its latitude comes back within 1e-6°.
    expect(caught.map((latitude) => Number(latitude.toFixed(4)))).toEqual(
      expect.arrayContaining([-8.0888, -8.0777]),
    );
  });

  it('never lets an older fix overwrite a newer one', async () => {
    const database = new RastroDb('locations-order');
    await syncLastLocations(clientId, database);
    const [row] = await database.lastLocations.where('scope').equals(clientId).toArray();
    if (!row) throw new Error('no row');
    const older = { ...row, latitude: 1, fixTime: '2000-01-01T00:00:00.000Z' };
    await applyLocations(clientId, [older], database);
    expect((await database.lastLocations.get([clientId, row.id]))?.latitude).toBe(row.latitude);
  });
});
