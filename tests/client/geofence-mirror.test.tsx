// @vitest-environment happy-dom
/**
 * A customer's geofences from the mirror answer for that customer only: right after a change
 * of customer the previous one's fences and sync state are not given as the new one's (the
 * geofences page framed a customer with fences on its fleet when they were).
 */
import 'fake-indexeddb/auto';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MirroredGeofence } from '../../src/db/schema';
import { installStorage } from './memory-storage';

installStorage();
// Offline: the hook reads the mirror and does not sync (no server here).
Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
const { db } = await import('../../src/db/database');
const { geofencesKey, useMirroredGeofences } = await import('../../src/db/geofences');

afterEach(cleanup);

const fence = (scope: string, id: string): MirroredGeofence => ({
  scope,
  id,
  clientId: scope,
  name: `Cerca ${id}`,
  description: null,
  color: '#FF0000',
  speedLimit: null,
  geometry: { type: 'Circle', center: [-34.88, -8.05], radius: 100 },
  createdAt: '2026-11-24T12:00:00.000Z',
  updatedAt: '2026-11-24T12:00:00.000Z',
});

beforeAll(async () => {
  await db.geofences.bulkPut([fence('north', 'n1'), fence('north', 'n2')]);
  await db.syncState.put({
    key: geofencesKey('north'),
    watermark: '2026-11-24T12:00:00.000Z',
    syncedAt: '2026-11-24T12:00:00.000Z',
  });
});

describe('useMirroredGeofences', () => {
  it("never gives the previous customer's fences or sync state as the new one's", async () => {
    const { result, rerender } = renderHook(({ scope }) => useMirroredGeofences(scope), {
      initialProps: { scope: 'north' },
    });
    await waitFor(() => expect(result.current.rows?.map((g) => g.id)).toEqual(['n1', 'n2']));
    expect(result.current.syncedAt).toBe('2026-11-24T12:00:00.000Z');

    rerender({ scope: 'south' });
    // The render right after the change: not read yet, rather than the north's.
    expect(result.current.rows).toBeUndefined();
    expect(result.current.syncedAt).toBeUndefined();
    await waitFor(() => expect(result.current.rows).toEqual([]));
    expect(result.current.syncedAt).toBeUndefined();
  });
});
