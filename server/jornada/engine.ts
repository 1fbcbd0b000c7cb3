/**
 * The driver's working day (Lei 13.103/2015: CLT art. 235-C, CTB art. 67-C), worked out with
 * no database: from the driving the trackers saw, the driver's marks and a manager's
 * corrections, the periods of each day (driving, other work, waiting, meal, rest) with where
 * each comes from, the day's totals and the rules it broke.
 *
 * How the periods are layered, the strongest last: time not otherwise known is rest (inferred);
 * a marked journey (início → fim) is other work; a marked meal, rest or waiting is that; what
 * the trackers saw driving is driving, whatever was marked (the truck moved); a manager's
 * correction overrides all of it.
 *
 * A journey (one working day) is a run of activity between rests of at least 6 h, or split by
 * an 'início de jornada' mark after a rest; it belongs to the São Paulo day it starts on, and
 * the day's totals are its journeys'. The timeline of a day is cut at its midnights.
 *
 * The rules:
 * - driving: at most 5 h 30 without a break; a stop under 10 min neither breaks a stretch nor
 *   counts as rest (a traffic light, a toll);
 * - cargo: 30 min of rest within each 6 h of driving (passengers: 4 h), which may be split into
 *   stops of 10 min or more;
 * - 11 h of rest within 24 h, which may be split: the first period (the rest before the
 *   journey) at least 8 h unbroken, the remainder within the 16 h after it ends;
 * - a journey of more than 6 h of work has a 1 h interval (meal or rest), 5 min of variation
 *   let go;
 * - 8 h of work a day plus up to 2 h of overtime (4 h by collective agreement);
 * - waiting ("tempo de espera") is counted apart: not work, not rest.
 */
import type {
  JornadaRegime,
  MarkKind,
  MarkSource,
  PeriodKind,
  PeriodSource,
  ViolationRule,
} from '../../src/contract/jornada';
import { dayStart, localWallClock, nextDay, reportDay } from '../../src/lib/report-period';
import { type AssignedPeriod, assignedWithin } from '../reports/attribution';
import { driverBetween, type Samples, type TripSpan } from '../reports/motion';

const MIN = 60_000;
const HOUR = 60 * MIN;

export const LIMITS = {
  continuousDrivingMin: 330,
  /** A stop shorter than this neither ends a driving stretch nor counts as a break. */
  shortestBreakMin: 10,
  breakMin: 30,
  drivingPerBreakMin: { cargo: 360, passageiros: 240 } satisfies Record<JornadaRegime, number>,
  journeyGapMin: 360,
  firstRestMin: 480,
  dailyRestMin: 660,
  /** The remainder of a split rest is taken within this long after the first period. */
  restRemainderWithinMin: 960,
  mealAfterWorkMin: 360,
  mealMin: 60,
  /**
   * How much shorter than 1 h an interval may be before it is a violation: the 5 min of
   * variation in a time record that CLT art. 58 §1 lets go (a lunch stop the tracker sees as
   * 59 min, because the engine was started a moment before leaving).
   */
  mealToleranceMin: 5,
  dayWorkMin: 480,
};

export interface Span {
  start: number;
  end: number;
}
export interface DrivingSpan extends Span {
  vehicleId: string;
  /** Whose it is by: the driver's tag (absent) or the driver's assignment to the vehicle. */
  source?: Extract<PeriodSource, 'rastreador' | 'designacao'>;
}
export interface EngineMark {
  kind: MarkKind;
  at: number;
  source: MarkSource;
}
export interface EngineCorrection extends Span {
  kind: PeriodKind;
}
export interface EngineSettings {
  regime: JornadaRegime;
  overtimeLimitMinutes: number;
}
export interface Period extends Span {
  kind: PeriodKind;
  source: PeriodSource;
  vehicleId: string | null;
}
export interface Violation extends Span {
  rule: ViolationRule;
  /** By how much, in minutes. */
  minutes: number;
}
export interface Totals {
  worked: number;
  driving: number;
  otherWork: number;
  overtime: number;
  waiting: number;
  meal: number;
  night: number;
}
export interface Journey extends Span {
  day: string;
  /** The rest before it, when the data shows where that rest began. */
  restBefore: Span | null;
  totals: Totals;
  violations: Violation[];
}
export interface DayResult {
  day: string;
  start: number | null;
  end: number | null;
  periods: Period[];
  totals: Totals;
  violations: Violation[];
}

export interface EngineInput {
  /** The time worked out: [from, until). Read some data before the first day (its rest). */
  from: number;
  until: number;
  driving: DrivingSpan[];
  marks: EngineMark[];
  corrections: EngineCorrection[];
  settings: EngineSettings;
}

const minutes = (ms: number) => Math.round(ms / MIN);

/**
 * The driving of one driver in a vehicle's trips: the trips whose tag read most was theirs,
 * and of the trips in which no tag was read at all, the part the driver's assignment to the
 * vehicle covers (server/reports/attribution.ts: a tag read always wins).
 */
export function drivingOfDriver(
  samples: Samples,
  trips: TripSpan[],
  vehicleId: string,
  rfid: string | null,
  assignment?: { driverId: string; periods: readonly AssignedPeriod[] },
): DrivingSpan[] {
  const spans: DrivingSpan[] = [];
  for (const trip of trips) {
    const start = samples.time[trip.start];
    const end = samples.time[trip.end];
    if (start === undefined || end === undefined || end <= start) continue;
    const tag = driverBetween(samples, trip.start, trip.end);
    if (tag !== null) {
      if (tag === rfid) spans.push({ start, end, vehicleId });
    } else if (assignment)
      for (const piece of assignedWithin(
        assignment.periods,
        assignment.driverId,
        vehicleId,
        start,
        end,
      ))
        spans.push({ ...piece, vehicleId, source: 'designacao' });
  }
  return spans;
}

interface Layer extends Span {
  kind: PeriodKind;
  source: PeriodSource;
  vehicleId: string | null;
  rank: number;
}

/** The spans the marks open and close, in order; what is still open runs to `until`. */
function markLayers(marks: EngineMark[], until: number): Layer[] {
  const layers: Layer[] = [];
  const open = new Map<PeriodKind, EngineMark>();
  const close = (kind: PeriodKind, at: number) => {
    const mark = open.get(kind);
    if (!mark) return;
    open.delete(kind);
    if (at > mark.at)
      layers.push({
        start: mark.at,
        end: at,
        kind,
        source: mark.source,
        vehicleId: null,
        rank: kind === 'work' ? 1 : 2,
      });
  };
  const openOnly = (kind: PeriodKind, mark: EngineMark) => {
    for (const other of ['meal', 'rest', 'waiting'] as const)
      if (other !== kind) close(other, mark.at);
    if (!open.has(kind)) open.set(kind, mark);
  };
  for (const mark of [...marks].sort((a, b) => a.at - b.at)) {
    switch (mark.kind) {
      case 'journey_start':
        if (!open.has('work')) open.set('work', mark);
        break;
      case 'journey_end':
        for (const kind of ['meal', 'rest', 'waiting', 'work'] as const) close(kind, mark.at);
        break;
      case 'meal_start':
        openOnly('meal', mark);
        break;
      case 'rest_start':
        openOnly('rest', mark);
        break;
      case 'wait_start':
        openOnly('waiting', mark);
        break;
      case 'meal_end':
        close('meal', mark.at);
        break;
      case 'rest_end':
        close('rest', mark.at);
        break;
      case 'wait_end':
        close('waiting', mark.at);
        break;
    }
  }
  for (const kind of [...open.keys()]) close(kind, until);
  return layers;
}

/** Every instant of [from, until) with the strongest layer over it, adjacent equals merged. */
export function timeline(input: EngineInput): Period[] {
  const { from, until } = input;
  const layers: Layer[] = [
    ...markLayers(input.marks, until),
    ...input.driving.map((d) => ({
      ...d,
      kind: 'driving' as const,
      source: d.source ?? ('rastreador' as const),
      rank: 3,
    })),
    ...input.corrections.map((c) => ({
      start: c.start,
      end: c.end,
      kind: c.kind,
      source: 'correcao' as const,
      vehicleId: null,
      rank: 4,
    })),
  ].filter((l) => l.end > from && l.start < until && l.end > l.start);
  const cuts = [
    ...new Set(
      [from, until, ...layers.flatMap((l) => [l.start, l.end])].filter(
        (t) => t >= from && t <= until,
      ),
    ),
  ].sort((a, b) => a - b);
  const periods: Period[] = [];
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const start = cuts[i] ?? 0;
    const end = cuts[i + 1] ?? 0;
    let best: Layer | undefined;
    for (const l of layers)
      if (l.start <= start && l.end >= end && (!best || l.rank >= best.rank)) best = l;
    const piece: Period = best
      ? { start, end, kind: best.kind, source: best.source, vehicleId: best.vehicleId }
      : { start, end, kind: 'rest', source: 'inferido', vehicleId: null };
    const last = periods[periods.length - 1];
    if (
      last &&
      last.end === start &&
      last.kind === piece.kind &&
      last.source === piece.source &&
      last.vehicleId === piece.vehicleId
    )
      last.end = end;
    else periods.push(piece);
  }
  return periods;
}

/** Driving stretches: driving joined across stops shorter than the shortest break. */
function stretches(periods: Period[]): Span[] {
  const out: Span[] = [];
  for (const p of periods) {
    if (p.kind !== 'driving') continue;
    const last = out[out.length - 1];
    if (last && p.start - last.end < LIMITS.shortestBreakMin * MIN) last.end = p.end;
    else out.push({ start: p.start, end: p.end });
  }
  return out;
}

function drivingViolations(periods: Period[], settings: EngineSettings): Violation[] {
  const violations: Violation[] = [];
  const list = stretches(periods);
  const continuous = LIMITS.continuousDrivingMin * MIN;
  for (const s of list)
    if (s.end - s.start > continuous)
      violations.push({
        rule: 'continuous_driving',
        start: s.start + continuous,
        end: s.end,
        minutes: minutes(s.end - s.start - continuous),
      });
  // The 30 min of rest within each 6 h (4 h) of driving: driving counts up until the stops
  // of 10 min or more since the last full break add up to 30 min.
  const limit = LIMITS.drivingPerBreakMin[settings.regime] * MIN;
  let driven = 0;
  let rested = 0;
  let crossed: number | null = null;
  let lastEnd = 0;
  const closeCycle = () => {
    if (crossed !== null && driven > limit)
      violations.push({
        rule: 'driving_break',
        start: crossed,
        end: lastEnd,
        minutes: minutes(driven - limit),
      });
    driven = 0;
    rested = 0;
    crossed = null;
  };
  list.forEach((s, i) => {
    const before = driven;
    driven += s.end - s.start;
    lastEnd = s.end;
    if (before <= limit && driven > limit) crossed = s.start + (limit - before);
    const next = list[i + 1];
    if (!next) return;
    rested += next.start - s.end;
    if (rested >= LIMITS.breakMin * MIN) closeCycle();
  });
  closeCycle();
  return violations;
}

const isRest = (p: Period) => p.kind === 'rest';

/** Worked minutes (driving and other work) between 22:00 and 05:00 São Paulo time. */
function nightMs(p: Span): number {
  const offset = localWallClock(p.start).getTime() - p.start;
  const a = p.start + offset;
  const b = p.end + offset;
  let total = 0;
  const DAY = 24 * HOUR;
  for (let day = Math.floor(a / DAY) * DAY - DAY; day < b; day += DAY) {
    const nightStart = day + 22 * HOUR;
    const nightEnd = day + 29 * HOUR;
    total += Math.max(0, Math.min(b, nightEnd) - Math.max(a, nightStart));
  }
  return total;
}

function emptyTotals(): Totals {
  return { worked: 0, driving: 0, otherWork: 0, overtime: 0, waiting: 0, meal: 0, night: 0 };
}

/** The journeys of the timeline with their totals and the rules each broke. */
export function journeys(input: EngineInput, periods: Period[]): Journey[] {
  const starts = input.marks.filter((m) => m.kind === 'journey_start').map((m) => m.at);
  // Rest runs that separate journeys.
  const runs: Span[] = [];
  for (const p of periods) {
    if (!isRest(p)) continue;
    const last = runs[runs.length - 1];
    if (last && last.end === p.start) last.end = p.end;
    else runs.push({ start: p.start, end: p.end });
  }
  const bounds = runs.filter(
    (r) =>
      r.end - r.start >= LIMITS.journeyGapMin * MIN ||
      starts.some((at) => at >= r.start && at <= r.end && r.end < input.until),
  );
  const out: Journey[] = [];
  const settings = input.settings;
  for (let i = 0; i <= bounds.length; i += 1) {
    const before = bounds[i - 1];
    const after = bounds[i];
    const from = before ? before.end : input.from;
    const to = after ? after.start : input.until;
    if (to <= from) continue;
    const inside = periods.filter(
      (p) => p.end > from && p.start < to && !(isRest(p) && (p.start <= from || p.end >= to)),
    );
    if (!inside.some((p) => !isRest(p))) continue;
    const start = Math.max(from, inside[0]?.start ?? from);
    const end = Math.min(to, inside[inside.length - 1]?.end ?? to);
    const totals = emptyTotals();
    let pause = 0;
    let overtimeAt: number | null = null;
    const overtimeLimit = (LIMITS.dayWorkMin + settings.overtimeLimitMinutes) * MIN;
    let worked = 0;
    for (const p of inside) {
      const len = Math.min(p.end, end) - Math.max(p.start, start);
      if (p.kind === 'driving' || p.kind === 'work') {
        if (worked <= overtimeLimit && worked + len > overtimeLimit)
          overtimeAt = Math.max(p.start, start) + (overtimeLimit - worked);
        worked += len;
        totals.night += nightMs({ start: Math.max(p.start, start), end: Math.min(p.end, end) });
        if (p.kind === 'driving') totals.driving += len;
        else totals.otherWork += len;
      } else if (p.kind === 'waiting') totals.waiting += len;
      else if (p.kind === 'meal') {
        totals.meal += len;
        pause += len;
      } else pause += len;
    }
    totals.worked = worked;
    totals.overtime = Math.max(0, worked - LIMITS.dayWorkMin * MIN);
    const violations: Violation[] = [];
    if (overtimeAt !== null)
      violations.push({
        rule: 'overtime',
        start: overtimeAt,
        end,
        minutes: minutes(worked - overtimeLimit),
      });
    if (
      worked > LIMITS.mealAfterWorkMin * MIN &&
      pause < (LIMITS.mealMin - LIMITS.mealToleranceMin) * MIN
    )
      violations.push({
        rule: 'meal_break',
        start,
        end,
        minutes: minutes(LIMITS.mealMin * MIN - pause),
      });
    // The rest before the journey, when the data shows where it began.
    if (before && before.start > input.from) {
      const first = before.end - before.start;
      if (first < LIMITS.firstRestMin * MIN)
        violations.push({
          rule: 'daily_rest_first',
          start: before.start,
          end: before.end,
          minutes: minutes(LIMITS.firstRestMin * MIN - first),
        });
      else if (first < LIMITS.dailyRestMin * MIN) {
        const windowEnd = before.end + LIMITS.restRemainderWithinMin * MIN;
        if (windowEnd <= input.until) {
          let rested = first;
          for (const p of periods)
            if (isRest(p) && p.end > before.end && p.start < windowEnd)
              rested += Math.min(p.end, windowEnd) - Math.max(p.start, before.end);
          if (rested < LIMITS.dailyRestMin * MIN)
            violations.push({
              rule: 'daily_rest',
              start: before.start,
              end: windowEnd,
              minutes: minutes(LIMITS.dailyRestMin * MIN - rested),
            });
        }
      }
    }
    out.push({
      start,
      end,
      day: reportDay(start),
      restBefore: before && before.start > input.from ? before : null,
      totals,
      violations,
    });
  }
  return out;
}

const toMinutes = (t: Totals): Totals => ({
  worked: minutes(t.worked),
  driving: minutes(t.driving),
  otherWork: minutes(t.otherWork),
  overtime: minutes(t.overtime),
  waiting: minutes(t.waiting),
  meal: minutes(t.meal),
  night: minutes(t.night),
});

/**
 * The São Paulo days [fromDay, toDay] of a driver: each day's periods cut at its midnights,
 * and the totals (in minutes) and violations of the journeys that start on it. The input's
 * `from` should reach at least two days before `fromDay` (the rest before the first journey)
 * and its `until` past the end of `toDay` (a journey that crosses midnight).
 */
export function jornadaDays(input: EngineInput, fromDay: string, toDay: string): DayResult[] {
  const periods = timeline(input);
  const list = journeys(input, periods);
  const driving = drivingViolations(periods, input.settings);
  const days: DayResult[] = [];
  for (let day = fromDay; day <= toDay; day = nextDay(day)) {
    const a = dayStart(day).getTime();
    const b = dayStart(nextDay(day)).getTime();
    const ofDay = list.filter((j) => j.day === day);
    const totals = emptyTotals();
    for (const j of ofDay)
      for (const key of Object.keys(totals) as (keyof Totals)[]) totals[key] += j.totals[key];
    days.push({
      day,
      start: ofDay[0]?.start ?? null,
      end: ofDay[ofDay.length - 1]?.end ?? null,
      periods: periods
        .filter((p) => p.end > a && p.start < b && p.start < input.until)
        .map((p) => ({ ...p, start: Math.max(p.start, a), end: Math.min(p.end, b) })),
      totals: toMinutes(totals),
      violations: [
        ...ofDay.flatMap((j) => j.violations),
        ...driving.filter((v) => reportDay(v.start) === day),
      ].sort((x, y) => x.start - y.start),
    });
  }
  return days;
}

/**
 * When the stretch being driven now reaches the legal limit of continuous driving (null when
 * the driver is not driving: the last driving ended a full short break ago or more). What the
 * driver's page counts down to.
 */
export function breakDueAt(input: EngineInput, now: number): number | null {
  const last = stretches(timeline({ ...input, until: Math.min(input.until, now) })).at(-1);
  if (!last || now - last.end >= LIMITS.shortestBreakMin * MIN) return null;
  return last.start + LIMITS.continuousDrivingMin * MIN;
}

/** Continuous driving at which the driver is warned: 30 min before the limit. */
export const DRIVING_WARNING_MIN = LIMITS.continuousDrivingMin - 30;
/** How long after a journey starts its short rest is still worth an alert. */
const REST_ALERT_WITHIN_MS = 6 * HOUR;

export interface PendingAlerts {
  /** The stretch being driven now, once it reaches 5 h: its start and vehicle. */
  drivingLimit: { start: number; vehicleId: string; minutes: number } | null;
  /** Journeys begun in the last hours after less than 11 h of unbroken rest. */
  restShort: { start: number; vehicleId: string; restMinutes: number }[];
}

/**
 * What a driver should be warned of at `now` (the input's `until`): a driving stretch still
 * going (its last driving within the shortest break of now) that has reached 5 h, and a
 * journey begun after less than 11 h of rest. Alerts belong to vehicles: a journey with no
 * driving yet is not warned of until it has some.
 */
export function pendingAlerts(input: EngineInput, now: number): PendingAlerts {
  const periods = timeline({ ...input, until: Math.min(input.until, now) });
  const driving = periods.filter((p) => p.kind === 'driving');
  const last = stretches(periods).at(-1);
  let drivingLimit: PendingAlerts['drivingLimit'] = null;
  if (
    last &&
    now - last.end < LIMITS.shortestBreakMin * MIN &&
    last.end - last.start >= DRIVING_WARNING_MIN * MIN
  ) {
    const vehicleId = driving.at(-1)?.vehicleId;
    if (vehicleId)
      drivingLimit = { start: last.start, vehicleId, minutes: minutes(last.end - last.start) };
  }
  const restShort: PendingAlerts['restShort'] = [];
  for (const j of journeys({ ...input, until: Math.min(input.until, now) }, periods)) {
    if (!j.restBefore || now - j.start > REST_ALERT_WITHIN_MS) continue;
    const rest = j.restBefore.end - j.restBefore.start;
    if (rest >= LIMITS.dailyRestMin * MIN) continue;
    const vehicleId = driving.find((p) => p.start >= j.start && p.start < j.end)?.vehicleId;
    if (vehicleId) restShort.push({ start: j.start, vehicleId, restMinutes: minutes(rest) });
  }
  return { drivingLimit, restShort };
}
