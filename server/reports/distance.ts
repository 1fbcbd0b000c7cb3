/**
 * Distances per São Paulo day (SPEC §3 `dailyResults`): whole days come from the rollup that
 * ingest keeps (vehicle_days); a day the period cuts (a beginAt or endAt that is not midnight)
 * is measured from the odometer at its two ends, two index look-ups per vehicle. When the
 * tracker changed within such a cut day, the distance counts the tracker at its end only.
 */
import type { DayResult, DistanceReport } from '../../src/contract';
import { dayStart, daysOf, nextDay } from '../../src/lib/report-period';
import type { Db } from '../platform/db/client';
import { odometersAt, segmentStats, type VehicleRow, vehicleDaysOf } from './queries/reports';

const empty = (): DayResult => ({
  distance: 0,
  fixes: 0,
  maxSpeed: null,
  firstFix: null,
  lastFix: null,
});
const round = (n: number) => Math.round(n * 10) / 10;

/** Each vehicle's distance in a cut day [from, to), with its stats. */
async function cutDay(db: Db, ids: string[], owners: readonly string[], from: Date, to: Date) {
  const [start, end, stats] = await Promise.all([
    odometersAt(db, ids, owners, from),
    odometersAt(db, ids, owners, to),
    segmentStats(db, ids, owners, from, to),
  ]);
  const out = new Map<string, DayResult>();
  for (const id of ids) {
    const s = stats.get(id);
    const last = end.get(id);
    if (!s || s.fixes === 0 || !last) {
      out.set(id, empty());
      continue;
    }
    const before = start.get(id);
    const base =
      before && before.trackerId === last.trackerId
        ? before.odometer
        : s.firstTracker === last.trackerId
          ? (s.firstOdometer ?? last.odometer)
          : last.odometer;
    out.set(id, {
      distance: round(Math.max(0, last.odometer - base)),
      fixes: s.fixes,
      maxSpeed: s.maxSpeed,
      firstFix: s.firstFix?.toISOString() ?? null,
      lastFix: s.lastFix?.toISOString() ?? null,
    });
  }
  return out;
}

export async function distanceReports(
  db: Db,
  vehicles: VehicleRow[],
  beginAt: Date,
  endAt: Date,
): Promise<DistanceReport[]> {
  const ids = vehicles.map((v) => v.id);
  // The vehicles of one report are read for one reader, with the same owners; were they not,
  // only the customers every vehicle allows would be read.
  const owners = vehicles
    .slice(1)
    .reduce<readonly string[]>(
      (kept, vehicle) => kept.filter((id) => vehicle.owners.includes(id)),
      vehicles[0]?.owners ?? [],
    );
  const days = daysOf(beginAt, endAt);
  const firstDay = days[0] ?? '';
  const lastDay = days.at(-1) ?? '';
  const rollup = await vehicleDaysOf(db, ids, owners, firstDay, lastDay);
  const results = new Map<string, Record<string, DayResult>>(
    ids.map((id) => [id, Object.fromEntries(days.map((day) => [day, empty()]))]),
  );
  for (const row of rollup) {
    const daily = results.get(row.vehicleId);
    if (!daily) continue;
    daily[row.day] = {
      distance: round(row.distance),
      fixes: row.fixes,
      maxSpeed: row.maxSpeed,
      firstFix: row.firstFix.toISOString(),
      lastFix: row.lastFix.toISOString(),
    };
  }
  // Days the period cuts are measured exactly.
  const cuts: { day: string; from: Date; to: Date }[] = [];
  for (const day of new Set([firstDay, lastDay])) {
    const start = dayStart(day);
    const end = dayStart(nextDay(day));
    const from = beginAt > start ? beginAt : start;
    const to = endAt < end ? endAt : end;
    if (from.getTime() !== start.getTime() || to.getTime() !== end.getTime())
      cuts.push({ day, from, to });
  }
  for (const cut of cuts) {
    const measured = await cutDay(db, ids, owners, cut.from, cut.to);
    for (const [id, result] of measured) {
      const daily = results.get(id);
      if (daily) daily[cut.day] = result;
    }
  }
  return vehicles.map((vehicle) => {
    const dailyResults = results.get(vehicle.id) ?? {};
    return {
      vehicleId: vehicle.id,
      plate: vehicle.plate,
      name: vehicle.name,
      beginAt: beginAt.toISOString(),
      endAt: endAt.toISOString(),
      distance: round(Object.values(dailyResults).reduce((sum, d) => sum + d.distance, 0)),
      dailyResults,
    };
  });
}
