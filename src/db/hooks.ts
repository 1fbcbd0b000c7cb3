/**
 * Screens read the mirror through these hooks: the rows of a customer at once from
 * IndexedDB, and a controller effect that syncs on mount, when the connection comes back and
 * when the app becomes visible again (at once, not after a fixed delay).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import type { Driver, Vehicle } from '../contract';
import { startBackgroundSync } from './background-sync';
import { db } from './database';
import { mirrorKey, syncDrivers, syncVehicles } from './mirror';

export interface Mirrored<T> {
  rows: T[] | undefined;
  syncedAt: string | undefined;
  syncing: boolean;
  error: unknown;
  /** Syncs now (after a write). */
  refresh: () => void;
}

function useMirror<T>(
  table: 'vehicles' | 'drivers',
  clientId: string | null,
  scope: readonly string[] | 'all',
  read: (clientIds: string[] | 'all') => Promise<T[]>,
  sync: (clientId: string) => Promise<number>,
): Mirrored<T> {
  // The server answers a customer with the companies below it too: read the same scope.
  const ids = !clientId ? [] : scope === 'all' ? 'all' : [...new Set([clientId, ...scope])];
  const rows = useLiveQuery(() => read(ids), [ids === 'all' ? ids : ids.join()]);
  const state = useLiveQuery(
    () => (clientId ? db.syncState.get(mirrorKey(table, clientId)) : undefined),
    [clientId],
  );
  const [syncing, setSyncing] = useState(false);
  const [error, setError] = useState<unknown>();

  const run = useCallback(() => {
    if (!clientId || !navigator.onLine) return;
    setSyncing(true);
    sync(clientId)
      .then(() => setError(undefined), setError)
      .finally(() => setSyncing(false));
  }, [clientId, sync]);

  useEffect(() => {
    run();
    const onVisible = () => document.visibilityState === 'visible' && run();
    window.addEventListener('online', run);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('online', run);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [run]);

  return { rows, syncedAt: state?.syncedAt, syncing, error, refresh: run };
}

/**
 * `scope`: the customer's company ids (itself and those below it) to read from the mirror;
 * 'all' for a Terceiro, whose mirror holds only what the server let them see (their linked
 * vehicles, of companies they cannot list).
 */
export function useMirroredVehicles(
  clientId: string | null,
  scope: readonly string[] | 'all' = [],
): Mirrored<Vehicle> {
  return useMirror(
    'vehicles',
    clientId,
    scope,
    (ids) =>
      ids === 'all' ? db.vehicles.toArray() : db.vehicles.where('clientId').anyOf(ids).toArray(),
    syncVehicles,
  );
}

export function useMirroredDrivers(
  clientId: string | null,
  scope: readonly string[] | 'all' = [],
): Mirrored<Driver> {
  return useMirror(
    'drivers',
    clientId,
    scope,
    (ids) =>
      ids === 'all' ? db.drivers.toArray() : db.drivers.where('clientId').anyOf(ids).toArray(),
    syncDrivers,
  );
}

/**
 * One mirrored record (a vehicle or driver opened from a list or the map): `undefined` while it
 * is read, `null` when this device does not have it.
 */
export function useMirroredVehicle(id: string | undefined): Vehicle | null | undefined {
  return useLiveQuery(async () => (id ? ((await db.vehicles.get(id)) ?? null) : null), [id]);
}

export function useMirroredDriver(id: string | undefined): Driver | null | undefined {
  return useLiveQuery(async () => (id ? ((await db.drivers.get(id)) ?? null) : null), [id]);
}

/**
 * Keeps a customer's vehicles and drivers on the device without their lists being opened
 * (background-sync.ts). Started once the map shows its vehicles (`ready`); `ready` goes off
 * offline or hidden and on again after: that is when it runs again, once the map has caught up.
 */
export function useMirrorsInBackground(
  clientId: string | null,
  tables: { vehicles: boolean; drivers: boolean },
  ready: boolean,
): void {
  const { vehicles, drivers } = tables;
  useEffect(() => {
    if (!clientId || !ready || !(vehicles || drivers)) return;
    return startBackgroundSync(clientId, { vehicles, drivers });
  }, [clientId, ready, vehicles, drivers]);
}
