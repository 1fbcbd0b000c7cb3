/**
 * The vehicles and drivers kept on the device in the background (the map starts it), against
 * the real server and an IndexedDB (fake-indexeddb): it waits for the page to settle, leaves a
 * mirror synced in the last five minutes alone, syncs a stale one, and stops when told.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/start';
import { installStorage } from './memory-storage';
import { serveAndSignIn } from './signed-in';

installStorage();
const { vehiclesApi } = await import('../../src/api/resources');
const { RastroDb } = await import('../../src/db/database');
const { mirrorKey } = await import('../../src/db/mirror');
const {
  BACKGROUND_SYNC_DELAY_MS,
  BACKGROUND_SYNC_FRESH_MS,
  startBackgroundSync,
  syncStaleMirrors,
} = await import('../../src/db/background-sync');

let server: RunningServer;
let clientId = '';

beforeAll(async () => {
  ({ server, clientId } = await serveAndSignIn());
});
afterAll(() => server.close());

const make = (plate: string) =>
  vehiclesApi.create({ clientId, name: `Veículo ${plate}`, plate, type: 'car' });

describe('background sync of the mirrors', () => {
  it('syncs a stale mirror, leaves a fresh one alone, and syncs it again once stale', async () => {
    const database = new RastroDb('background-fresh-test');
    const first = await make('BGS1A11');
    const both = { vehicles: true, drivers: true };

    expect(await syncStaleMirrors(clientId, both, undefined, database)).toEqual([
      'vehicles',
      'drivers',
    ]);
    expect((await database.vehicles.get(first.id))?.plate).toBe('BGS1A11');

    // Synced a moment ago: a vehicle made since does not travel yet.
    const second = await make('BGS2B22');
    expect(await syncStaleMirrors(clientId, both, undefined, database)).toEqual([]);
    expect(await database.vehicles.get(second.id)).toBeUndefined();

    // Just under five minutes later: still fresh. Just over: synced, the new vehicle with it.
    // Measured from the later of the two syncs (the drivers', after the vehicles').
    const syncedAt = async (table: 'vehicles' | 'drivers') =>
      Date.parse((await database.syncState.get(mirrorKey(table, clientId)))?.syncedAt ?? '');
    const synced = Math.max(await syncedAt('vehicles'), await syncedAt('drivers'));
    const syncedAfter = (ms: number) =>
      syncStaleMirrors(clientId, both, undefined, database, () => synced + ms);
    expect(await syncedAfter(BACKGROUND_SYNC_FRESH_MS - 1000)).toEqual([]);
    expect(await syncedAfter(BACKGROUND_SYNC_FRESH_MS + 1000)).toEqual(['vehicles', 'drivers']);
    expect((await database.vehicles.get(second.id))?.plate).toBe('BGS2B22');
  });

  it('syncs only the mirrors asked for, and none once stopped', async () => {
    const database = new RastroDb('background-tables-test');
    expect(
      await syncStaleMirrors(clientId, { vehicles: false, drivers: true }, undefined, database),
    ).toEqual(['drivers']);
    expect(await database.syncState.get(mirrorKey('vehicles', clientId))).toBeUndefined();
    expect(
      await syncStaleMirrors(clientId, { vehicles: true, drivers: true }, () => true, database),
    ).toEqual([]);
    expect(await database.syncState.get(mirrorKey('vehicles', clientId))).toBeUndefined();
  });

  it('starts after the page has had its few seconds, and not once cancelled', async () => {
    const database = new RastroDb('background-delay-test');
    const cancelled = new RastroDb('background-cancel-test');
    const key = mirrorKey('vehicles', clientId);
    const started = Date.now();
    startBackgroundSync(clientId, { vehicles: true, drivers: false }, database);
    const cancel = startBackgroundSync(clientId, { vehicles: true, drivers: false }, cancelled);
    cancel();

    await new Promise((resolve) => setTimeout(resolve, BACKGROUND_SYNC_DELAY_MS - 1500));
    expect(await database.syncState.get(key)).toBeUndefined();
    await expect
      .poll(() => database.syncState.get(key), { timeout: 20_000, interval: 200 })
      .toBeDefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(BACKGROUND_SYNC_DELAY_MS);
    expect(await database.vehicles.count()).toBeGreaterThan(0);
    // Rows are written page by page, long before the sync's state: none came to the other.
    expect(await cancelled.vehicles.count()).toBe(0);
    expect(await cancelled.syncState.get(key)).toBeUndefined();
  });
});
