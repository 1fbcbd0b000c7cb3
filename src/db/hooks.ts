/**
 * Screens read the mirror through these hooks: the rows of a customer at once from
 * IndexedDB, and a controller effect that syncs on mount, when the connection comes back and
 * when the app becomes visible again (at once, not after a fixed delay).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import type { Driver, Vehicle } from '../contract';
import { db } from './database';
import { syncDrivers, syncVehicles } from './mirror';

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
  read: (clientId: string) => Promise<T[]>,
  sync: (clientId: string) => Promise<number>,
): Mirrored<T> {
  const rows = useLiveQuery(
    () => (clientId ? read(clientId) : Promise.resolve([] as T[])),
    [clientId],
  );
  const state = useLiveQuery(
    () => (clientId ? db.syncState.get(`${table}:${clientId}`) : undefined),
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

export function useMirroredVehicles(clientId: string | null): Mirrored<Vehicle> {
  return useMirror(
    'vehicles',
    clientId,
    (id) => db.vehicles.where('clientId').equals(id).toArray(),
    syncVehicles,
  );
}

export function useMirroredDrivers(clientId: string | null): Mirrored<Driver> {
  return useMirror(
    'drivers',
    clientId,
    (id) => db.drivers.where('clientId').equals(id).toArray(),
    syncDrivers,
  );
}
