/**
 * Last locations as the API shows them (SPEC §3 "Location item"), for the lastLocation call
 * and the live stream alike: scoped to what the caller may see, named after the vehicle
 * ('Veículo'/'Rastreador' when there is none) and its driver.
 */
import type { Context } from 'hono';
import { type LocationItem, locationName } from '../../src/contract';
import type { AuthEnv } from '../accounts/auth/middleware';
import type { Deps } from '../deps';
import { fleetVehicleIds, lastLocationsWithNames } from '../ingest/queries/positions';
import { linkedVehicleIds } from '../sharing/queries';
import { clientsWithin } from '../tenancy/scope';

export interface LocationScope {
  clientIds: string[];
  vehicleIds: string[] | undefined;
  /** False: the items name no driver (a Terceiro's). */
  driverNames?: boolean;
}

/** What a caller may see of last locations, narrowed by the query's customer, vehicles, fleets. */
export async function locationScope(
  c: Context<AuthEnv>,
  deps: Deps,
  q: {
    clientId?: string | undefined;
    vehicleIds?: string[] | undefined;
    fleets?: string[] | undefined;
  },
): Promise<LocationScope> {
  const { db } = deps.database;
  // A mother company's map shows its children's vehicles too.
  const clientIds = await clientsWithin(c, deps, q.clientId);
  let vehicleIds = q.vehicleIds;
  if (q.fleets)
    vehicleIds = [...(vehicleIds ?? []), ...(await fleetVehicleIds(db, q.fleets, clientIds))];
  if (c.var.user.role === 'VISITOR') {
    const linked = await linkedVehicleIds(db, c.var.user.id);
    vehicleIds = vehicleIds ? vehicleIds.filter((id) => linked.includes(id)) : linked;
  }
  // A Terceiro sees no driver anywhere: not on the map either.
  return { clientIds, vehicleIds, driverNames: c.var.user.role !== 'VISITOR' };
}

export async function locationItems(
  deps: Deps,
  scope: LocationScope,
  extra: {
    receivedFrom?: Date | undefined;
    trackerIds?: string[] | undefined;
    afterSeq?: number | undefined;
  } = {},
): Promise<LocationItem[]> {
  const rows = await lastLocationsWithNames(deps.database.db, scope.clientIds, {
    vehicleIds: scope.vehicleIds,
    ...extra,
  });
  return rows.map((row) => {
    const type = row.vehicleId ? 'vehicle' : 'tracker';
    return {
      id: row.vehicleId ?? row.trackerId,
      type,
      name: locationName({ type, name: row.vehicleName ?? undefined }),
      plate: row.plate,
      vehicleType: row.vehicleType,
      trackerId: row.trackerId,
      clientId: row.clientId,
      latitude: row.latitude,
      longitude: row.longitude,
      speed: row.speed,
      course: row.course,
      ignition: row.ignition,
      battery: row.battery,
      driver: scope.driverNames === false ? null : row.driver,
      // Only when it is so, as noGpsSince: most rows name no driver with an expired CNH.
      ...(row.driverLicenseExpired && scope.driverNames !== false
        ? { driverLicenseExpired: true }
        : {}),
      fixTime: row.fixTime,
      receivedAt: row.receivedAt,
      eventId: row.eventId,
      // Only when there is no fix: the answer for 10,000 vehicles stays as small.
      ...(row.noGpsSince ? { noGpsSince: row.noGpsSince } : {}),
    };
  });
}
