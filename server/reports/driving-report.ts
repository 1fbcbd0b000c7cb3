/**
 * The report 'Comportamento do motorista' of one São Paulo calendar month: every vehicle's
 * events (server/reports/driving.ts) gathered per driver (the tag matched to a driver of the
 * vehicle's company; with no tag, the driver assigned to the vehicle then), the score of each,
 * ranked, and the change since the month before. The events no known driver caused stay per
 * vehicle, never ranked.
 */
import {
  DEFAULT_IDLE_MINUTES,
  DRIVING_EVENT_KINDS,
  DRIVING_WEIGHTS,
  type DrivingEventKind,
  type DrivingReport,
  type DrivingRow,
  type DrivingWeights,
  MIN_SCORE_KM,
} from '../../src/contract/driving';
import { dayStart, reportDay } from '../../src/lib/report-period';
import { assignedPeriods, liveDrivers } from '../jornada/queries/assignments';
import type { Db } from '../platform/db/client';
import { assignedAt } from './attribution';
import { DEFAULT_SPEED_LIMIT_KMH, type DrivingEvent, drivingEvents, drivingScore } from './driving';
import { drivingFixes, drivingVehicles, taggedDrivers } from './queries/driving';

/** The month `by` months from 'AAAA-MM'. */
export function shiftMonth(month: string, by: number): string {
  const [y = 0, m = 1] = month.split('-').map(Number);
  const index = y * 12 + m - 1 + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The [begin, end) of a month 'AAAA-MM' in São Paulo time, and the month before it. */
export function monthPeriod(month: string) {
  return {
    beginAt: dayStart(`${month}-01`),
    endAt: dayStart(`${shiftMonth(month, 1)}-01`),
    previous: shiftMonth(month, -1),
  };
}

/** The month 'AAAA-MM' of an instant, in São Paulo time. */
export function monthOf(instant: Date | number): string {
  return reportDay(instant).slice(0, 7);
}

interface Gathered {
  key: string;
  driverId: string | null;
  name: string;
  clientId: string;
  metres: number;
  events: (DrivingEvent & { vehicleId: string; plate: string })[];
}

async function gather(
  db: Db,
  clientIds: string[],
  beginAt: Date,
  endAt: Date,
  idleMinutes: number,
): Promise<Map<string, Gathered>> {
  const [vehicles, drivers] = await Promise.all([
    drivingVehicles(db, clientIds),
    taggedDrivers(db, clientIds),
  ]);
  const periods = await assignedPeriods(
    db,
    { vehicleIds: vehicles.map((v) => v.id) },
    beginAt,
    endAt,
  );
  const byTag = new Map(drivers.map((d) => [`${d.clientId}:${d.rfid}`, d]));
  const byId = await liveDrivers(db, [...new Set(periods.map((p) => p.driverId))]);
  const out = new Map<string, Gathered>();
  const entry = (
    vehicle: (typeof vehicles)[number],
    rfid: string | null,
    assigned?: string | null,
  ): Gathered => {
    const driver = rfid
      ? byTag.get(`${vehicle.clientId}:${rfid}`)
      : assigned
        ? byId.get(assigned)
        : undefined;
    const key = driver ? driver.id : `vehicle:${vehicle.id}`;
    let row = out.get(key);
    if (!row) {
      row = {
        key,
        driverId: driver?.id ?? null,
        name: driver?.name ?? vehicle.plate,
        clientId: driver?.clientId ?? vehicle.clientId,
        metres: 0,
        events: [],
      };
      out.set(key, row);
    }
    return row;
  };
  for (const vehicle of vehicles) {
    const fixes = await drivingFixes(db, vehicle.id, vehicle.clientId, beginAt, endAt);
    if (fixes.length === 0) continue;
    const { events, metres, assignedMetres } = drivingEvents(fixes, {
      speedLimit: vehicle.speedLimit ?? DEFAULT_SPEED_LIMIT_KMH,
      idleMinutes,
      assignedAt: (at) => assignedAt(periods, vehicle.id, at),
    });
    // The untagged metres an assignment covers are the assigned driver's, not the vehicle's.
    let moved = 0;
    for (const [driverId, m] of assignedMetres) {
      entry(vehicle, null, driverId).metres += m;
      moved += m;
    }
    for (const [rfid, m] of metres) {
      const own = rfid ? m : m - moved;
      if (own > 0.001) entry(vehicle, rfid || null).metres += own;
    }
    for (const event of events)
      entry(vehicle, event.rfid, event.assigned).events.push({
        ...event,
        vehicleId: vehicle.id,
        plate: vehicle.plate,
      });
  }
  return out;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * How a report scores: the points of each event and the idling time that makes one — the
 * company's (reports/queries/driving-settings.ts), the same for both months so that the trend
 * compares like with like.
 */
export interface DrivingScoring {
  weights: DrivingWeights;
  idleMinutes: number;
}

export const DEFAULT_SCORING: DrivingScoring = {
  weights: DRIVING_WEIGHTS,
  idleMinutes: DEFAULT_IDLE_MINUTES,
};

/**
 * Reports made in the last minutes, by customers, month, idling time and weights (new weights
 * are a new entry, so a saved change never meets a score made with the old ones): a month of a
 * large company's fixes takes seconds to read, and the dashboard card and the report screen ask
 * for the same one. A few minutes late is nothing for a monthly ranking.
 */
const CACHE_MS = 5 * 60_000;
const CACHE_SIZE = 20;
const caches = new WeakMap<Db, Map<string, { at: number; report: Promise<DrivingReport> }>>();

/** The month's report for these customers (the caller's, already checked), a recent one if any. */
export function drivingReport(
  db: Db,
  clientIds: string[],
  month: string,
  scoring: DrivingScoring = DEFAULT_SCORING,
  now = Date.now(),
): Promise<DrivingReport> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const entries = cache;
  const weights = DRIVING_EVENT_KINDS.map((k) => scoring.weights[k]).join(',');
  const key = `${[...clientIds].sort().join(',')}|${month}|${scoring.idleMinutes}|${weights}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) return hit.report;
  const report = buildDrivingReport(db, clientIds, month, scoring);
  cache.set(key, { at: now, report });
  // A failed read is not kept; the oldest entries go first.
  report.catch(() => entries.delete(key));
  while (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
  return report;
}

async function buildDrivingReport(
  db: Db,
  clientIds: string[],
  month: string,
  { weights, idleMinutes }: DrivingScoring,
): Promise<DrivingReport> {
  const { beginAt, endAt, previous } = monthPeriod(month);
  const before = monthPeriod(previous);
  const [now, then] = await Promise.all([
    gather(db, clientIds, beginAt, endAt, idleMinutes),
    gather(db, clientIds, before.beginAt, before.endAt, idleMinutes),
  ]);
  const rows: DrivingRow[] = [...now.values()].map((g) => {
    const km = g.metres / 1000;
    const score = drivingScore(g.events, km, weights);
    const old = then.get(g.key);
    const previousScore = old ? drivingScore(old.events, old.metres / 1000, weights) : null;
    const counts = Object.fromEntries(DRIVING_EVENT_KINDS.map((k) => [k, 0])) as Record<
      DrivingEventKind,
      number
    >;
    for (const e of g.events) counts[e.kind] += 1;
    return {
      driverId: g.driverId,
      name: g.name,
      clientId: g.clientId,
      km: round1(km),
      score,
      previousScore,
      delta: score !== null && previousScore !== null ? round1(score - previousScore) : null,
      counts,
      events: g.events.map((e) => ({
        kind: e.kind,
        at: new Date(e.at).toISOString(),
        vehicleId: e.vehicleId,
        plate: e.plate,
        value: e.value,
        limit: e.limit,
        source: e.source,
      })),
    };
  });
  const ranked = rows
    .filter((r) => r.driverId !== null)
    .sort(
      (a, b) =>
        (b.score ?? -1) - (a.score ?? -1) || b.km - a.km || a.name.localeCompare(b.name, 'pt-BR'),
    );
  return {
    month,
    beginAt: beginAt.toISOString(),
    endAt: endAt.toISOString(),
    weights: { ...weights },
    idleMinutes,
    minKm: MIN_SCORE_KM,
    drivers: ranked,
    unassigned: rows
      .filter((r) => r.driverId === null)
      .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR')),
  };
}
