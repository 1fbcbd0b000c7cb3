/**
 * A vehicle's trips and stops over a period, the same whatever period is asked: the fixes are
 * read from a little before `beginAt` (enough for the window rules of reports/motion.ts) to a
 * little after `endAt`, and further ahead while the last trip or stop that starts in the period
 * has not ended in the data read (up to a week ahead). Trips and stops are then kept when
 * they start in [beginAt, endAt), whole.
 */
import type { Db } from '../platform/db/client';
import {
  detectStops,
  detectTrips,
  emptySamples,
  type MotionRules,
  type Samples,
  type StopSpan,
  type TripSpan,
} from './motion';
import { appendSamples, type HistorySubject, hasFixAfter } from './queries/reports';

const MAX_LOOK_AHEAD_MS = 7 * 86_400_000;

export interface Analysis {
  samples: Samples;
  trips: TripSpan[];
  stops: StopSpan[];
  /** Index of the first sample at or after beginAt, and the first at or after endAt. */
  first: number;
  end: number;
}

function firstAtOrAfter(times: number[], instant: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] ?? 0) < instant) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export async function analyseVehicle(
  db: Db,
  vehicle: HistorySubject,
  beginAt: Date,
  endAt: Date,
  rules: MotionRules,
): Promise<Analysis> {
  const margin = (rules.gapSeconds + rules.stopSeconds + 60) * 1000;
  const from = beginAt.getTime() - margin;
  let to = endAt.getTime() + margin;
  const samples = emptySamples();
  await appendSamples(db, samples, vehicle, from, to);
  let lookAhead = margin;
  for (;;) {
    const trips = detectTrips(samples, rules);
    const stops = detectStops(samples, trips, rules);
    const last = Math.max(
      ...[...trips, ...stops]
        .filter((span) => (samples.time[span.start] ?? 0) < endAt.getTime())
        .map((span) => span.end),
      -1,
    );
    // Settled when what starts in the period ends well before the data read does.
    const settled =
      last < 0 || (samples.time[last] ?? 0) < to - margin || lookAhead >= MAX_LOOK_AHEAD_MS;
    if (settled || !(await hasFixAfter(db, vehicle, to))) {
      const first = firstAtOrAfter(samples.time, beginAt.getTime());
      const end = firstAtOrAfter(samples.time, endAt.getTime());
      const inPeriod = (span: { start: number }) => span.start >= first && span.start < end;
      return { samples, trips: trips.filter(inPeriod), stops: stops.filter(inPeriod), first, end };
    }
    const more = Math.min(lookAhead, MAX_LOOK_AHEAD_MS - lookAhead);
    await appendSamples(db, samples, vehicle, to, to + more);
    to += more;
    lookAhead += more;
  }
}
