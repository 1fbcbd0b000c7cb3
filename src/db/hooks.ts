/**
 * Screens read the vehicles and drivers of the mirror through these hooks (useMirror.ts
 * holds what every mirrored table shares), one record of them, and the background sync.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import type { Driver, Vehicle } from '../contract';
import { startBackgroundSync } from './background-sync';
import { db } from './database';
import { mirrorKey, syncDrivers, syncVehicles } from './mirror';
import { type Mirrored, type MirrorSource, useMirror } from './useMirror';

export type { Mirrored } from './useMirror';

// The server answers a customer with the companies below it too: read the same scope.
const vehicleSource: MirrorSource<Vehicle> = {
  read: (_, ids) =>
    ids === 'all' ? db.vehicles.toArray() : db.vehicles.where('clientId').anyOf(ids).toArray(),
  stateKey: (clientId) => mirrorKey('vehicles', clientId),
  sync: syncVehicles,
};

const driverSource: MirrorSource<Driver> = {
  read: (_, ids) =>
    ids === 'all' ? db.drivers.toArray() : db.drivers.where('clientId').anyOf(ids).toArray(),
  stateKey: (clientId) => mirrorKey('drivers', clientId),
  sync: syncDrivers,
};

/**
 * `scope`: the customer's company ids (itself and those below it) to read from the mirror;
 * 'all' for a Terceiro, whose mirror holds only what the server let them see (their linked
 * vehicles, of companies they cannot list).
 */
export function useMirroredVehicles(
  clientId: string | null,
  scope: readonly string[] | 'all' = [],
): Mirrored<Vehicle> {
  return useMirror(vehicleSource, clientId, scope);
}

export function useMirroredDrivers(
  clientId: string | null,
  scope: readonly string[] | 'all' = [],
): Mirrored<Driver> {
  return useMirror(driverSource, clientId, scope);
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
