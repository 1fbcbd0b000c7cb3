// @vitest-environment happy-dom
/**
 * Every mirrored table answers for the customer asked only: right after a change of customer
 * the previous one's rows and sync state are not given as the new one's (the geofences page
 * framed a customer on another one's fences when they were; the vehicle and driver lists
 * showed the previous customer's rows and "synced at" for a moment).
 */
import 'fake-indexeddb/auto';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Driver, Vehicle } from '../../src/contract';
import type { Mirrored } from '../../src/db/hooks';
import type { MirroredGeofence } from '../../src/db/schema';
import { installStorage } from './memory-storage';

installStorage();
// Offline: the hooks read the mirror and do not sync (no server here).
Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
const { db } = await import('../../src/db/database');
const { geofencesKey, useMirroredGeofences } = await import('../../src/db/geofences');
const { useMirroredDrivers, useMirroredVehicles } = await import('../../src/db/hooks');
const { mirrorKey } = await import('../../src/db/mirror');

afterEach(cleanup);

const AT = '2026-11-24T12:00:00.000Z';
const owned = (clientId: string, id: string) => ({
  id,
  clientId,
  active: true,
  createdAt: AT,
  updatedAt: AT,
  canceledAt: null,
});

const vehicle = (clientId: string, id: string): Vehicle => ({
  ...owned(clientId, id),
  name: `Veículo ${id}`,
  plate: `ABC1D${id.length}1`,
  type: { id: 'car', label: 'Carro' },
  brand: null,
  model: null,
  year: null,
  modelYear: null,
  modelYar: null,
  color: null,
  chassis: null,
  renavam: null,
  images: [],
});

const driver = (clientId: string, id: string): Driver => ({
  ...owned(clientId, id),
  completName: `Motorista ${id}`,
  cpf: '52998224725',
  rfidCode: null,
  licenseNumber: null,
  licenseCategory: null,
  licenseExpiry: null,
  phone: null,
});

const fence = (scope: string, id: string): MirroredGeofence => ({
  scope,
  id,
  clientId: scope,
  name: `Cerca ${id}`,
  description: null,
  color: '#FF0000',
  speedLimit: null,
  geometry: { type: 'Circle', center: [-34.88, -8.05], radius: 100 },
  createdAt: AT,
  updatedAt: AT,
});

beforeAll(async () => {
  await db.vehicles.bulkPut([vehicle('north', 'n1'), vehicle('north', 'n2')]);
  await db.drivers.bulkPut([driver('north', 'n1'), driver('north', 'n2')]);
  await db.geofences.bulkPut([fence('north', 'n1'), fence('north', 'n2')]);
  await db.syncState.bulkPut(
    [mirrorKey('vehicles', 'north'), mirrorKey('drivers', 'north'), geofencesKey('north')].map(
      (key) => ({ key, watermark: AT, syncedAt: AT }),
    ),
  );
});

const tables: [string, (clientId: string) => Mirrored<{ id: string }>][] = [
  ['vehicles', (clientId) => useMirroredVehicles(clientId)],
  ['drivers', (clientId) => useMirroredDrivers(clientId)],
  ['geofences', (clientId) => useMirroredGeofences(clientId)],
];

describe.each(tables)('the %s mirror', (_, useRows) => {
  it("never gives the previous customer's rows or sync state as the new one's", async () => {
    const { result, rerender } = renderHook(({ clientId }) => useRows(clientId), {
      initialProps: { clientId: 'north' },
    });
    await waitFor(() =>
      expect(result.current.rows?.map((row) => row.id).sort()).toEqual(['n1', 'n2']),
    );
    expect(result.current.syncedAt).toBe(AT);

    rerender({ clientId: 'south' });
    // The render right after the change: not read yet, rather than the north's.
    expect(result.current.rows).toBeUndefined();
    expect(result.current.syncedAt).toBeUndefined();
    await waitFor(() => expect(result.current.rows).toEqual([]));
    expect(result.current.syncedAt).toBeUndefined();
  });
});
