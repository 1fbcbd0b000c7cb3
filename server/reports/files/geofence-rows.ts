/**
 * SEAM (issue 13, the lead's geofence report): the visits a geofence file lists. Until the
 * lead's `geofenceVisits` (server/reports/geofences.ts) is on this branch, visits are paired
 * from the alert engine's GEOFENCE_ENTER and GEOFENCE_EXIT alerts (the same crossings); at
 * merge, replace the query below with that function's visits, mapped to GeofenceVisitRow.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
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
  if (vehicles.length === 0 || clientIds.length === 0) return [];
  const rows = rowsOf<{
    vehicle_id: string;
    geofence_id: string;
    name: string;
    type: string;
    fix_time: string | Date;
  }>(
    await db.execute(sql`
      select a.vehicle_id, a.geofence_id, g.name, a.type, a.fix_time
        from alerts a join geofences g on g.id = a.geofence_id
       where a.vehicle_id = any(${`{${vehicles.map((v) => v.id).join(',')}}`}::uuid[])
         and g.client_id = any(${`{${clientIds.join(',')}}`}::uuid[])
         and a.type in ('GEOFENCE_ENTER', 'GEOFENCE_EXIT')
         and a.fix_time >= ${from.toISOString()}::timestamptz
         and a.fix_time < ${to.toISOString()}::timestamptz
         ${geofenceIds?.length ? sql`and a.geofence_id = any(${`{${geofenceIds.join(',')}}`}::uuid[])` : sql``}
       order by a.vehicle_id, a.geofence_id, a.fix_time`),
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
