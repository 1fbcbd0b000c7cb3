/**
 * The IndexedDB mirror (fake-indexeddb) synced from the real server: the first sync brings
 * everything, later ones only what changed, and removed records leave the mirror.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/start';
import { startTestServer } from '../server/harness';
import { installStorage } from './memory-storage';

installStorage();
const { login } = await import('../../src/api/auth');
const client = await import('../../src/api/client');
const { session } = await import('../../src/api/session');
const { vehiclesApi } = await import('../../src/api/resources');
const { RastroDb } = await import('../../src/db/database');
const { syncVehicles } = await import('../../src/db/mirror');

let server: RunningServer;
let clientId = '';

beforeAll(async () => {
  server = await startTestServer();
  client.setApiBase(server.url);
  const auth = await login({ email: 'operador.norte@rastro.demo', password: 'rastro-demo' });
  session.set(auth);
  clientId = auth.user.clientId;
});
afterAll(() => server.close());

describe('vehicle mirror', () => {
  it('syncs everything first, then only changes, and drops removed vehicles', async () => {
    const database = new RastroDb('mirror-test');
    const make = (plate: string) =>
      vehiclesApi.create({ clientId, name: `Veículo ${plate}`, plate, type: 'car' });
    const a = await make('MIR1A11');
    const b = await make('MIR2B22');

    expect(await syncVehicles(clientId, database)).toBe(2);
    expect((await database.vehicles.toArray()).map((v) => v.plate).sort()).toEqual([
      'MIR1A11',
      'MIR2B22',
    ]);
    const first = await database.syncState.get(`vehicles:${clientId}`);
    expect(first?.watermark).toBe(
      [a, b]
        .map((v) => v.updatedAt)
        .sort()
        .at(-1),
    );

    expect(await syncVehicles(clientId, database)).toBe(0);

    await vehiclesApi.update(a.id, { name: 'Renomeado' });
    const manager = await login({ email: 'gestor.norte@rastro.demo', password: 'rastro-demo' });
    session.set(manager);
    await vehiclesApi.remove(b.id);
    expect(await syncVehicles(clientId, database)).toBe(2);
    const rows = await database.vehicles.toArray();
    expect(rows.map((v) => [v.plate, v.name])).toEqual([['MIR1A11', 'Renomeado']]);
  });
});
