/**
 * The geofence reports: when each vehicle entered and left each geofence, and how long it
 * stayed. Crossings are the alert engine's (server/alerts/evaluate.ts `updateMembership`): the
 * same geometry, the same hysteresis, so a report never disagrees with the alerts it explains.
 *
 * A month of fixes for many vehicles is read without carrying every fix to the server: the
 * database keeps only the fixes inside the geofences' boxes (widened by the hysteresis) and
 * the first fix outside them after each stay. A fix outside every widened box is farther than
 * the hysteresis from every border, so it confirms an exit at once and the fixes after it,
 * until the next one inside a box, change nothing.
 */
import type { GeofenceTotal, GeofenceVisit } from '../../src/contract';
import { updateMembership, type VehicleContext, type VehicleState } from '../alerts/evaluate';
import { fixesAroundBoxes, geofenceShapes } from '../geofences/queries';
import { boxOf, GeofenceIndex, type IndexedGeofence, shapeOf } from '../geofences/spatial-index';
import type { Db } from '../platform/db/client';
import { ancestorIds } from '../tenancy/queries';

export interface FenceVehicle {
  id: string;
  plate: string;
}

/** Past this many geofences the database filter would be longer than the reading it saves. */
const MAX_BOXES = 200;

export async function geofenceVisits(
  db: Db,
  vehicles: FenceVehicle[],
  /** The reader's customers: fixes from while a vehicle was someone else's are not read. */
  owners: readonly string[],
  geofences: IndexedGeofence[],
  from: Date,
  to: Date,
  hysteresis: number,
): Promise<{ visits: GeofenceVisit[]; totals: GeofenceTotal[] }> {
  const visits: GeofenceVisit[] = [];
  const totals = new Map<string, GeofenceTotal>();
  if (vehicles.length === 0 || geofences.length === 0) return { visits, totals: [] };
  const index = new GeofenceIndex(geofences, hysteresis);
  const plates = new Map(vehicles.map((v) => [v.id, v.plate]));
  const names = new Map(geofences.map((g) => [g.id, g.name]));
  const boxes =
    geofences.length > MAX_BOXES ? undefined : geofences.map((g) => boxOf(g.shape, hysteresis));
  const rows = await fixesAroundBoxes(
    db,
    vehicles.map((v) => v.id),
    owners,
    boxes,
    from,
    to,
  );

  const total = (vehicleId: string, geofenceId: string) => {
    const key = `${vehicleId}:${geofenceId}`;
    let t = totals.get(key);
    if (!t) {
      t = {
        vehicleId,
        plate: plates.get(vehicleId) ?? '',
        geofenceId,
        geofenceName: names.get(geofenceId) ?? '',
        entries: 0,
        exits: 0,
        insideSeconds: 0,
      };
      totals.set(key, t);
    }
    return t;
  };

  let i = 0;
  while (i < rows.length) {
    const vehicleId = rows[i]?.vehicle_id ?? '';
    const ctx: Pick<VehicleContext, 'index' | 'hysteresis'> = { index, hysteresis };
    const state: VehicleState = {};
    /** Open stays: geofence → since when, and whether it began before the period. */
    const open = new Map<string, { since: number; before: boolean }>();
    let first = true;
    let last = 0;
    for (; i < rows.length && rows[i]?.vehicle_id === vehicleId; i += 1) {
      const row = rows[i];
      if (!row) break;
      const time = new Date(row.fix_time).getTime();
      last = time;
      const inside = updateMembership(
        state,
        {
          fixTime: time,
          receivedAt: time,
          latitude: row.latitude,
          longitude: row.longitude,
          attributes: {},
        },
        ctx,
      );
      for (const id of inside) {
        if (open.has(id)) continue;
        open.set(id, { since: time, before: first });
        if (!first) total(vehicleId, id).entries += 1;
      }
      for (const [id, stay] of open) {
        if (inside.has(id)) continue;
        open.delete(id);
        const t = total(vehicleId, id);
        t.exits += 1;
        t.insideSeconds += (time - stay.since) / 1000;
        visits.push(visit(vehicleId, id, stay, time, time));
      }
      first = false;
    }
    for (const [id, stay] of open) {
      total(vehicleId, id).insideSeconds += (last - stay.since) / 1000;
      visits.push(visit(vehicleId, id, stay, null, last));
    }
  }
  visits.sort((a, b) => (a.enteredAt < b.enteredAt ? -1 : a.enteredAt > b.enteredAt ? 1 : 0));
  return {
    visits,
    totals: [...totals.values()]
      .map((t) => ({ ...t, insideSeconds: Math.round(t.insideSeconds) }))
      .sort(
        (a, b) =>
          a.plate.localeCompare(b.plate, 'pt-BR') ||
          a.geofenceName.localeCompare(b.geofenceName, 'pt-BR'),
      ),
  };

  function visit(
    vehicleId: string,
    geofenceId: string,
    stay: { since: number; before: boolean },
    exit: number | null,
    until: number,
  ): GeofenceVisit {
    return {
      vehicleId,
      plate: plates.get(vehicleId) ?? '',
      geofenceId,
      geofenceName: names.get(geofenceId) ?? '',
      enteredAt: new Date(stay.since).toISOString(),
      exitedAt: exit === null ? null : new Date(exit).toISOString(),
      insideAtStart: stay.before,
      durationSeconds: Math.round((until - stay.since) / 1000),
    };
  }
}

/** Geofence rows as the engine indexes them (rows with an unusable geometry left out). */
export function indexedGeofences(
  rows: { id: string; name: string; speedLimit: number | null; geometry: unknown }[],
): IndexedGeofence[] {
  return rows.flatMap((row) => {
    const shape = shapeOf(row.geometry);
    return shape ? [{ id: row.id, name: row.name, speedLimit: row.speedLimit, shape }] : [];
  });
}

/**
 * The geofences that apply to a customer's vehicles (its own and its companies' above, as the
 * engine applies them) among those of the customers given (what the caller sees).
 */
export async function geofencesFor(db: Db, clientId: string, visibleClientIds: string[]) {
  const visible = new Set(visibleClientIds);
  const chain = (await ancestorIds(db, clientId)).filter((id) => visible.has(id));
  return indexedGeofences(await geofenceShapes(db, chain));
}
