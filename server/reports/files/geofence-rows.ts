/**
 * The visits a geofence file lists: the geofence report's (server/reports/geofences.ts), with
 * the alert engine's crossings (same geometry and hysteresis), for each vehicle the geofences
 * that apply to it (its customer's and those above) that the caller sees, or only some.
 */
import type { Db } from '../../platform/db/client';
import { geofencesFor, geofenceVisits } from '../geofences';
import type { VehicleRow } from '../queries/reports';
import type { GeofenceVisitRow } from './documents';

export async function geofenceRows(
  db: Db,
  vehicles: VehicleRow[],
  clientIds: string[],
  geofenceIds: string[] | undefined,
  from: Date,
  to: Date,
  hysteresis: number,
): Promise<GeofenceVisitRow[]> {
  const byClient = new Map<string, VehicleRow[]>();
  for (const vehicle of vehicles) {
    const list = byClient.get(vehicle.clientId);
    if (list) list.push(vehicle);
    else byClient.set(vehicle.clientId, [vehicle]);
  }
  const names = new Map(vehicles.map((v) => [v.id, v.name]));
  const wanted = geofenceIds?.length ? new Set(geofenceIds) : undefined;
  const rows: GeofenceVisitRow[] = [];
  for (const [clientId, list] of byClient) {
    const fences = (await geofencesFor(db, clientId, clientIds)).filter(
      (g) => !wanted || wanted.has(g.id),
    );
    const owners = list[0]?.owners ?? [];
    const { visits } = await geofenceVisits(db, list, owners, fences, from, to, hysteresis);
    for (const visit of visits)
      rows.push({
        plate: visit.plate,
        vehicleName: names.get(visit.vehicleId) ?? '',
        geofenceName: visit.geofenceName,
        // A stay that began before the period has no entry in it.
        enteredAt: visit.insideAtStart ? null : new Date(visit.enteredAt),
        exitedAt: visit.exitedAt ? new Date(visit.exitedAt) : null,
        duration: visit.durationSeconds,
      });
  }
  return rows.sort(
    (a, b) =>
      (a.enteredAt ?? a.exitedAt ?? from).getTime() - (b.enteredAt ?? b.exitedAt ?? from).getTime(),
  );
}
