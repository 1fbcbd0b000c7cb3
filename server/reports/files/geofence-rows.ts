/**
 * SEAM (issue 13, the lead's geofence report): the visits a geofence file lists. Until the
 * lead's `geofenceVisits` (server/reports/geofences.ts) is on this branch, visits are paired
 * from the alert engine's GEOFENCE_ENTER and GEOFENCE_EXIT alerts (the same crossings); at
 * merge, replace the query below with that function's visits, mapped to GeofenceVisitRow.
 */
import type { Db } from '../../db/client';
import { geofenceCrossings } from '../../db/report-files';
import type { VehicleRow } from '../../db/reports';
import type { GeofenceVisitRow } from './documents';

export async function geofenceRows(
  db: Db,
  vehicles: VehicleRow[],
  clientIds: string[],
  geofenceIds: string[] | undefined,
  from: Date,
  to: Date,
): Promise<GeofenceVisitRow[]> {
  const rows = await geofenceCrossings(
    db,
    vehicles.map((v) => v.id),
    clientIds,
    geofenceIds,
    from,
    to,
  );
  const byId = new Map(vehicles.map((v) => [v.id, v]));
  const visits: GeofenceVisitRow[] = [];
  let open: GeofenceVisitRow | undefined;
  let key = '';
  for (const row of rows) {
    const k = `${row.vehicle_id}:${row.geofence_id}`;
    if (k !== key) {
      if (open) visits.push(open);
      open = undefined;
      key = k;
    }
    const at = new Date(row.fix_time);
    const vehicle = byId.get(row.vehicle_id);
    const base = {
      plate: vehicle?.plate ?? '',
      vehicleName: vehicle?.name ?? '',
      geofenceName: row.name,
    };
    if (row.type === 'GEOFENCE_ENTER') {
      if (open) visits.push(open);
      open = { ...base, enteredAt: at, exitedAt: null, duration: null };
    } else {
      const entered = open?.enteredAt ?? null;
      visits.push({
        ...base,
        enteredAt: entered,
        exitedAt: at,
        duration: entered ? (at.getTime() - entered.getTime()) / 1000 : null,
      });
      open = undefined;
    }
  }
  if (open) visits.push(open);
  return visits.sort(
    (a, b) =>
      (a.enteredAt ?? a.exitedAt ?? from).getTime() - (b.enteredAt ?? b.exitedAt ?? from).getTime(),
  );
}
