/**
 * The odometer: every stored position carries its tracker's cumulative distance in metres, so
 * the distance of any period is the difference of two positions' odometers, and the per-day
 * rollup (`vehicle_days`) only adds steps. It is computed at ingest, in the batch's transaction.
 *
 * A step is the great-circle distance from the tracker's previous fix (in fix time), except:
 * none across a change of vehicle (the tracker was moved to another vehicle: that distance was
 * not driven by either), and none for GPS jitter (a step under 50 m at a fix that reports a
 * speed under 3 km/h). Impossible jumps never reach this: ingest drops them first.
 *
 * Fixes in fix-time order (the common case) continue from the last location's odometer: no
 * extra read. A fix older than the tracker's newest (a black box emptied after live fixes, a
 * retransmission) is put in its place: the stored fixes around it are read, the steps on both
 * sides recomputed, and every later fix of the tracker shifted by the difference, so the
 * odometer is the same whatever order the fixes arrived in. That costs an update of the later
 * fixes, which is rare and bounded by how late the fix is.
 *
 * Several processes writing the same tracker at once (one device connected to two) could read
 * the same last odometer; each device talks to one process, so this is accepted.
 */
import { type SQL, sql } from 'drizzle-orm';
import { reportDay } from '../../../src/lib/report-period';
import { type Db, rowsOf } from '../../platform/db/client';
import { bareArray, jsonArray, numberArray, textArray } from '../../platform/db/pg-arrays';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const EARTH_M = 6_371_008.8;
const JITTER_M = 50;
const JITTER_KMH = 3;

export interface OdometerPoint {
  time: number;
  latitude: number;
  longitude: number;
  vehicleId: string | null;
  speed?: number | null | undefined;
}

export function metresBetween(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The odometer step from `previous` to `fix` (metres), by the rule above. */
export function odometerStep(previous: OdometerPoint | undefined, fix: OdometerPoint): number {
  if (!previous || previous.vehicleId !== fix.vehicleId) return 0;
  const d = metresBetween(previous, fix);
  if (d < JITTER_M && fix.speed !== undefined && fix.speed !== null && fix.speed < JITTER_KMH)
    return 0;
  return d;
}

/** What a batch adds to one vehicle's day in `vehicle_days`. */
export interface DayDelta {
  vehicleId: string;
  clientId: string;
  day: string;
  distance: number;
  fixes: number;
  maxSpeed: number | null;
  firstFix: number;
  lastFix: number;
  driverRfids: Set<string>;
  engineSeconds: number;
}

/**
 * The longest gap between two fixes counted as engine time: a device reports every minute or
 * two while the ignition is on, so a longer silence (no signal, device off) is not known to be
 * engine time and counts only this much.
 */
export const ENGINE_GAP_MAX_MS = 10 * 60_000;

/**
 * Engine seconds of the step from `previous` to a fix: the time between them when the fix has
 * its ignition on (capped by ENGINE_GAP_MAX_MS). Counting by the fix that ends the step errs by
 * one step when the ignition turns on (counted) and one when it turns off (not counted): about
 * nothing over a trip.
 */
export function engineStep(
  previous: { time: number; vehicleId: string | null } | undefined,
  fix: { time: number; vehicleId: string | null; ignition?: boolean | null | undefined },
): number {
  if (!previous || fix.ignition !== true || previous.vehicleId !== fix.vehicleId) return 0;
  return Math.min(Math.max(fix.time - previous.time, 0), ENGINE_GAP_MAX_MS) / 1000;
}

export class DayDeltas {
  readonly byKey = new Map<string, DayDelta>();

  /** A step of `distance` metres at a fix (counted as a new fix when `fix` is set). */
  add(
    vehicleId: string | null,
    clientId: string,
    time: number,
    distance: number,
    fix?: { speed?: number | null | undefined; driverRfid?: string | null | undefined },
    engineSeconds = 0,
  ) {
    if (!vehicleId) return;
    const day = reportDay(time);
    const key = `${vehicleId}|${day}|${clientId}`;
    let delta = this.byKey.get(key);
    if (!delta) {
      delta = {
        vehicleId,
        clientId,
        day,
        distance: 0,
        fixes: 0,
        maxSpeed: null,
        firstFix: time,
        lastFix: time,
        driverRfids: new Set(),
        engineSeconds: 0,
      };
      this.byKey.set(key, delta);
    }
    delta.distance += distance;
    delta.engineSeconds += engineSeconds;
    if (!fix) return;
    delta.fixes += 1;
    delta.firstFix = Math.min(delta.firstFix, time);
    delta.lastFix = Math.max(delta.lastFix, time);
    if (fix.speed !== undefined && fix.speed !== null)
      delta.maxSpeed = Math.max(delta.maxSpeed ?? 0, fix.speed);
    if (fix.driverRfid) delta.driverRfids.add(fix.driverRfid);
  }
}

/** The statement that adds the deltas to the day rows (undefined when there are none). */
export function dayDeltasStatement(deltas: DayDeltas): SQL | undefined {
  if (deltas.byKey.size === 0) return undefined;
  // In key order (vehicle, day, owner): every batch locks the rows in the same order.
  const rows = [...deltas.byKey.keys()].sort().flatMap((key) => deltas.byKey.get(key) ?? []);
  const column = <K extends keyof DayDelta>(key: K) => rows.map((r) => r[key]);
  const time = (key: 'firstFix' | 'lastFix') => rows.map((r) => new Date(r[key]).toISOString());
  return sql`
    insert into vehicle_days as d (vehicle_id, day, client_id, distance, fixes, max_speed,
      first_fix, last_fix, driver_rfids, engine_seconds)
    select vehicle_id, day, client_id, distance, fixes, max_speed, first_fix, last_fix,
      array(select jsonb_array_elements_text(driver_rfids)), engine_seconds
      from unnest(${bareArray(column('vehicleId'))}::uuid[], ${textArray(column('day'))}::text[],
        ${bareArray(column('clientId'))}::uuid[], ${numberArray(column('distance'))}::float8[],
        ${numberArray(column('fixes'))}::int[], ${numberArray(column('maxSpeed'))}::real[],
        ${bareArray(time('firstFix'))}::timestamptz[], ${bareArray(time('lastFix'))}::timestamptz[],
        ${jsonArray(rows.map((r) => [...r.driverRfids]))}::jsonb[],
        ${numberArray(column('engineSeconds'))}::float8[])
        as x(vehicle_id, day, client_id, distance, fixes, max_speed, first_fix, last_fix,
          driver_rfids, engine_seconds)
    on conflict (vehicle_id, day, client_id) do update set
      distance = d.distance + excluded.distance,
      fixes = d.fixes + excluded.fixes,
      engine_seconds = d.engine_seconds + excluded.engine_seconds,
      max_speed = greatest(d.max_speed, excluded.max_speed),
      first_fix = least(d.first_fix, excluded.first_fix),
      last_fix = greatest(d.last_fix, excluded.last_fix),
      driver_rfids = case when excluded.driver_rfids <@ d.driver_rfids then d.driver_rfids
        else array(select distinct unnest(d.driver_rfids || excluded.driver_rfids)) end`;
}

/** A fix older than its tracker's newest, waiting for its odometer. */
export interface LateFix extends OdometerPoint {
  clientId: string;
  driverRfid?: string | null | undefined;
  /**
   * Set here: the odometer it is stored with (undefined: a repeat of a stored fix, or refused
   * as an impossible jump).
   */
  odometer?: number;
  /** A report without GPS: its coordinates are set here, to those of the fix before it. */
  noGps?: boolean | undefined;
}

interface StoredFix extends OdometerPoint {
  odometer: number;
  clientId: string;
  /** False for a stored report without GPS: never a neighbour a late fix is checked against. */
  valid: boolean;
}

/** Whether going from `a` to `b` would need more than `maxKmh` (steps under 1 km never do). */
export function impossibleStep(
  a: { time: number; latitude: number; longitude: number },
  b: { time: number; latitude: number; longitude: number },
  maxKmh: number,
): boolean {
  const km = metresBetween(a, b) / 1000;
  const hours = Math.abs(b.time - a.time) / 3_600_000;
  return km > 1 && (hours === 0 || km / hours > maxKmh);
}

/**
 * The late fixes that agree with neither stored fix around them (or with the only one): a fix
 * back-dated into a tracker's past lands between two real ones and must fit both. One that
 * fits one side is kept (that neighbour, not it, may be the wrong one). Reports without GPS
 * are never neighbours: their place is borrowed.
 */
function impossibleLate(stored: StoredFix[], late: LateFix[], maxKmh: number): Set<LateFix> {
  const refused = new Set<LateFix>();
  if (!Number.isFinite(maxKmh)) return refused;
  const fixes = stored.filter((s) => s.valid);
  for (const fix of late) {
    if (fix.noGps) continue;
    let before: StoredFix | undefined;
    let after: StoredFix | undefined;
    for (const s of fixes) {
      if (s.time < fix.time) before = s;
      else if (s.time > fix.time) {
        after = s;
        break;
      }
    }
    const wrongBefore = before ? impossibleStep(before, fix, maxKmh) : undefined;
    const wrongAfter = after ? impossibleStep(fix, after, maxKmh) : undefined;
    if ((wrongBefore ?? true) && (wrongAfter ?? true) && (before || after)) refused.add(fix);
  }
  return refused;
}

/**
 * Places a tracker's late fixes among its stored ones (see the file's comment): sets each late
 * fix's odometer, updates the stored fixes whose odometer changes, shifts every later fix, and
 * records the day deltas. Returns the shift of the tracker's newest odometer (the amount fresh
 * fixes of the same batch continue from); the caller moves the last location's by it
 * (server/ingest/queries/positions.ts, at the end of the transaction, under the event-id lock).
 */
/** The first fix with GPS after position `i` of a merged span (see placeLateFixes). */
function placeAfter(
  merged: { stored?: StoredFix; fix?: LateFix }[],
  i: number,
): OdometerPoint | undefined {
  for (const item of merged.slice(i + 1)) {
    if (item.stored?.valid) return item.stored;
    if (item.fix && !item.fix.noGps) return item.fix;
  }
  return undefined;
}

export async function placeLateFixes(
  tx: Tx,
  trackerId: string,
  late: LateFix[],
  days: DayDeltas,
  maxJumpKmh = Number.POSITIVE_INFINITY,
): Promise<{ shift: number; refused: number[] }> {
  const first = late[0];
  const last = late.at(-1);
  if (!first || !last) return { shift: 0, refused: [] };
  const from = new Date(first.time).toISOString();
  const to = new Date(last.time).toISOString();
  const stored = rowsOf<{
    fix_time: string | Date;
    latitude: number;
    longitude: number;
    speed: number | null;
    odometer: number;
    vehicle_id: string | null;
    client_id: string;
    valid: boolean | null;
  }>(
    await tx.execute(sql`
      select fix_time, latitude, longitude, speed, odometer, vehicle_id, client_id, valid
        from positions
       where tracker_id = ${trackerId}
         and fix_time >= coalesce((select max(fix_time) from positions
               where tracker_id = ${trackerId} and fix_time < ${from}::timestamptz), ${from}::timestamptz)
         and fix_time <= coalesce((select min(fix_time) from positions
               where tracker_id = ${trackerId} and fix_time > ${to}::timestamptz), ${to}::timestamptz)
       order by fix_time`),
  ).map((row) => ({
    time: new Date(row.fix_time).getTime(),
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    speed: row.speed,
    odometer: Number(row.odometer),
    vehicleId: row.vehicle_id,
    clientId: row.client_id,
    valid: row.valid !== false,
  }));
  const storedTimes = new Set(stored.map((s) => s.time));
  const unseen = late.filter((f) => !storedTimes.has(f.time));
  const impossible = impossibleLate(stored, unseen, maxJumpKmh);
  const refused = [...impossible].map((f) => f.time);
  const fresh = unseen.filter((f) => !impossible.has(f));
  if (fresh.length === 0) return { shift: 0, refused };
  // The stored fix before the span keeps its odometer; everything after is recomputed.
  const before = stored[0] && stored[0].time < first.time ? stored[0] : undefined;
  const merged: { time: number; stored?: StoredFix; fix?: LateFix }[] = [
    ...stored.filter((s) => s !== before).map((s) => ({ time: s.time, stored: s })),
    ...fresh.map((fix) => ({ time: fix.time, fix })),
  ].sort((a, b) => a.time - b.time);
  let previous: OdometerPoint | undefined = before;
  let previousOdometer = before?.odometer ?? 0;
  let previousStoredOdometer = before?.odometer;
  let delta = 0;
  const changed: { time: number; odometer: number }[] = [];
  for (const [i, item] of merged.entries()) {
    if (item.fix?.noGps) {
      // Where the tracker was: the fix before it, else (none stored before) the one after.
      const place = previous ?? placeAfter(merged, i);
      if (place) {
        item.fix.latitude = place.latitude;
        item.fix.longitude = place.longitude;
      }
    }
    const point = item.stored ?? item.fix;
    if (!point) continue;
    const step = odometerStep(previous, point);
    const odometer = previousOdometer + step;
    if (item.stored) {
      const oldStep =
        previousStoredOdometer === undefined ? 0 : item.stored.odometer - previousStoredOdometer;
      days.add(item.stored.vehicleId, item.stored.clientId, item.stored.time, step - oldStep);
      delta = odometer - item.stored.odometer;
      if (delta !== 0) changed.push({ time: item.stored.time, odometer });
      previousStoredOdometer = item.stored.odometer;
    } else if (item.fix) {
      item.fix.odometer = odometer;
      days.add(item.fix.vehicleId, item.fix.clientId, item.fix.time, step, item.fix);
    }
    previous = point;
    previousOdometer = odometer;
  }
  const next = merged.at(-1)?.stored;
  if (!next) return { shift: 0, refused };
  // The stored fix after the span and every later one move by the same delta.
  const span = changed.filter((c) => c.time < next.time);
  if (span.length)
    await tx.execute(sql`
      update positions p set odometer = x.odometer
        from jsonb_to_recordset(${JSON.stringify(span.map((c) => ({ fix_time: new Date(c.time).toISOString(), odometer: c.odometer })))}::jsonb)
          as x(fix_time timestamptz, odometer float8)
       where p.tracker_id = ${trackerId} and p.fix_time = x.fix_time`);
  if (delta !== 0)
    await tx.execute(sql`
      update positions set odometer = odometer + ${delta}
       where tracker_id = ${trackerId} and fix_time >= ${new Date(next.time).toISOString()}::timestamptz`);
  return { shift: delta, refused };
}
