/**
 * The IndexedDB mirror (fake-indexeddb) synced from the real server: the first sync brings
 * everything, later ones only what changed, and removed records leave the mirror; pages go
 * by keyset, so thousands of rows changed in the same instant are neither skipped nor
 * counted twice.
 */
import 'fake-indexeddb/auto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/start';
import { installStorage } from './memory-storage';
import { serveAndSignIn } from './signed-in';

installStorage();
const { login } = await import('../../src/api/auth');
const { session } = await import('../../src/api/session');
const { vehiclesApi } = await import('../../src/api/resources');
const { RastroDb } = await import('../../src/db/database');
const { mirrorKey, syncVehicles } = await import('../../src/db/mirror');

let server: RunningServer;
let clientId = '';

beforeAll(async () => {
  ({ server, clientId } = await serveAndSignIn());
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
    const first = await database.syncState.get(mirrorKey('vehicles', clientId));
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

describe('syncs asked for together', () => {
  it('run one at a time: callers during a sync share one more, which sees what they wrote', async () => {
    session.set(await login({ email: 'operador.norte@rastro.demo', password: 'rastro-demo' }));
    const database = new RastroDb('mirror-together-test');
    // A sync held after its first page, so that it is surely still running below: left to run,
    // it could end before the write did, and the calls after it would start afresh instead.
    let held = false;
    let release = () => {};
    const running = syncVehicles(clientId, database, {
      page: 1,
      pause: () => {
        held = true;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    await expect.poll(() => held).toBe(true);
    // Written while that sync runs, after the page it read: the next one has it.
    const made = await vehiclesApi.create({
      clientId,
      name: 'Veículo MIR5E55',
      plate: 'MIR5E55',
      type: 'car',
    });
    const next = syncVehicles(clientId, database);
    expect(syncVehicles(clientId, database)).toBe(next);
    expect(next).not.toBe(running);

    release();
    await Promise.all([running, next]);
    expect((await database.vehicles.get(made.id))?.plate).toBe('MIR5E55');
    // Nothing under way any more: a new call starts its own sync.
    const later = syncVehicles(clientId, database);
    expect(later).not.toBe(next);
    expect(await later).toBe(0);
  });
});

describe('a background sync someone waits for', () => {
  it('goes on at the pace of whoever waits', async () => {
    session.set(await login({ email: 'operador.norte@rastro.demo', password: 'rastro-demo' }));
    const database = new RastroDb('mirror-pace-test');
    for (const plate of ['MIR6F61', 'MIR6F62', 'MIR6F63'])
      await vehiclesApi.create({ clientId, name: `Veículo ${plate}`, plate, type: 'car' });
    let pauses = 0;
    let release = () => {};
    // One row a page, and a pause after each that waits until the test lets it go.
    const background = {
      page: 1,
      pause: () => {
        pauses += 1;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    };
    const running = syncVehicles(clientId, database, background);
    await expect.poll(() => pauses).toBe(1);
    // Someone opens the list: their sync (all at once) waits behind this one, and speeds it up.
    const waited = syncVehicles(clientId, database);
    release();
    await running;
    expect(pauses).toBe(1);
    await waited;
    expect(await database.vehicles.count()).toBeGreaterThan(2);
  });
});

describe('vehicle mirror of a large customer', () => {
  it('syncs 2,500 vehicles changed in the same instant, then 1,500 more, by keyset', async () => {
    const { db } = server.deps.database;
    const { rows } = (await db.execute(
      sql`select id from clients where name like 'Logística Sul%' limit 1`,
    )) as unknown as { rows: { id: string }[] };
    const south = rows[0]?.id ?? '';
    // One statement: every row gets the very same created_at and updated_at.
    await db.execute(sql`
      insert into vehicles (client_id, name, plate, type)
      select ${south}::uuid, 'Frota ' || n, 'KX' || chr(65 + n / 1000) || lpad((n % 1000)::text, 4, '0'), 'truck'
        from generate_series(0, 2499) as n`);
    const manager = await login({ email: 'gestor.sul@rastro.demo', password: 'rastro-demo' });
    session.set(manager);
    const database = new RastroDb('mirror-keyset');
    expect(await syncVehicles(south, database)).toBe(2500);
    expect(await database.vehicles.where('clientId').equals(south).count()).toBe(2500);

    await db.execute(sql`
      update vehicles set name = 'Renomeado ' || plate, updated_at = now()
        where client_id = ${south}::uuid and plate < 'KXB0500'`);
    expect(await syncVehicles(south, database)).toBe(1500);
    const renamed = await database.vehicles
      .where('clientId')
      .equals(south)
      .filter((v) => v.name.startsWith('Renomeado'))
      .count();
    expect(renamed).toBe(1500);
    expect(await syncVehicles(south, database)).toBe(0);

    // A change later within the watermark's own millisecond is not lost.
    const state = await database.syncState.get(mirrorKey('vehicles', south));
    await db.execute(sql`
      update vehicles set name = 'Mesmo milissegundo',
          updated_at = ${state?.watermark}::timestamptz + interval '500 microseconds'
        where plate = 'KXC0100'`);
    expect(await syncVehicles(south, database)).toBe(1);
    const [same] = await database.vehicles.where('plate').equals('KXC0100').toArray();
    expect(same?.name).toBe('Mesmo milissegundo');
    expect(await database.vehicles.where('clientId').equals(south).count()).toBe(2500);
  });
});
