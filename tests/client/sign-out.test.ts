/**
 * Sign-out on a shared phone: the server ends the session (its refresh token no longer
 * works), and the device forgets the user — the IndexedDB mirror is empty, the chosen
 * customer is gone, and any cleaner registered with `onSignOut` (a query cache) ran.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/start';
import { startTestServer } from '../server/harness';
import { installStorage } from './memory-storage';

const storage = installStorage();
const { login } = await import('../../src/api/auth');
const client = await import('../../src/api/client');
const { onSignOut, session } = await import('../../src/api/session');
const { vehiclesApi } = await import('../../src/api/resources');
const { db } = await import('../../src/db/database');
const { syncVehicles } = await import('../../src/db/mirror');
const { applyLocations, syncLastLocations } = await import('../../src/db/locations');

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer({ SEED_DEMO_FLEET: 'true', OSMAND_PORT: '0', SIMULATOR: 'off' });
  client.setApiBase(server.url);
});
afterAll(() => server.close());

describe('sign-out', () => {
  it('ends the session on the server and leaves nothing of the user on the device', async () => {
    const auth = await login({ email: 'operador.norte@rastro.demo', password: 'rastro-demo' });
    session.set(auth);
    const clientId = auth.user.clientId;
    await vehiclesApi.create({ clientId, name: 'Do celular', plate: 'SAI1A11', type: 'car' });
    await fetch(
      `http://127.0.0.1:${server.osmandPort}/?id=demo-001&lat=-8.05&lon=-34.9&timestamp=${Math.floor(Date.now() / 1000) - 30}`,
    );
    expect(await syncVehicles(clientId)).toBeGreaterThan(0);
    await syncLastLocations(clientId);
    storage.setItem(`selectedClient:${auth.user.id}`, clientId);
    storage.setItem('outra-coisa', 'fica');
    let cacheCleared = false;
    const unregister = onSignOut(() => {
      cacheCleared = true;
    });
    expect(await db.vehicles.count()).toBeGreaterThan(0);
    expect(await db.syncState.count()).toBeGreaterThan(0);

    await client.signOut({ reload: false });

    for (const table of db.tables) expect(await table.count(), table.name).toBe(0);
    expect(storage.getItem(`selectedClient:${auth.user.id}`)).toBeNull();
    expect(storage.getItem('outra-coisa')).toBe('fica');
    expect(session.get()).toBeNull();
    expect(cacheCleared).toBe(true);
    unregister();
    const refresh = await fetch(`${server.url}/registros/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: auth.refreshToken }),
    });
    expect(refresh.status).toBe(401);
    // A live batch that lands after sign-out writes nothing back.
    const [item] = (await (
      await fetch(`${server.url}/registros/real-time/lastLocation`, {
        headers: {
          authorization: `Bearer ${(await login({ email: 'admin@rastro.demo', password: 'rastro-demo' })).accessToken}`,
        },
      })
    ).json()) as Parameters<typeof applyLocations>[1];
    if (item) await applyLocations(clientId, [item]);
    expect(await db.lastLocations.count()).toBe(0);
  });
});
