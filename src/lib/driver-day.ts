/**
 * Where a driver's working day stands from their marks alone, so that the driver's page shows
 * the right state and buttons without a connection: the last mark of the day says it.
 */
export type DriverState = 'off' | 'working' | 'meal' | 'rest' | 'waiting' | 'ended';

const AFTER: Record<string, DriverState> = {
  journey_start: 'working',
  meal_end: 'working',
  rest_end: 'working',
  wait_end: 'working',
  meal_start: 'meal',
  rest_start: 'rest',
  wait_start: 'waiting',
  journey_end: 'ended',
};

/** The marks a driver may make next in each state: a pause is ended before anything else. */
export const NEXT_MARKS: Record<DriverState, readonly string[]> = {
  off: ['journey_start'],
  ended: ['journey_start'],
  working: ['meal_start', 'rest_start', 'wait_start', 'journey_end'],
  meal: ['meal_end'],
  rest: ['rest_end'],
  waiting: ['wait_end'],
};

/** The state after these marks (any order; the times decide) and since when. */
export function driverState(marks: readonly { kind: string; at: string }[]): {
  state: DriverState;
  since: string | null;
} {
  let last: { kind: string; at: string } | undefined;
  for (const mark of marks)
    if (AFTER[mark.kind] && (!last || Date.parse(mark.at) >= Date.parse(last.at))) last = mark;
  if (!last) return { state: 'off', since: null };
  return { state: AFTER[last.kind] ?? 'off', since: last.at };
}

const HOUR_MS = 3_600_000;
/** The daily rest the law asks for (CLT art. 235-C §3): 11 h within each 24 h. */
export const DAILY_REST_MS = 11 * HOUR_MS;
/** When the 11 h are split, the first period is at least 8 h unbroken. */
export const FIRST_REST_MS = 8 * HOUR_MS;
/** The remainder of a split rest is taken within the 16 h after the first period ends. */
export const REST_REMAINDER_WITHIN_MS = 16 * HOUR_MS;
/** How long after a journey begins a short rest before it is still shown (as the alert). */
const SHORT_REST_SHOWN_MS = 6 * HOUR_MS;
/** Activity that ended less than this ago may still be going on: it is not the start of a rest. */
const STILL_ACTIVE_MS = 10 * 60_000;

/**
 * What the driver's page says of the daily rest:
 * - `resting`: no journey open and the 11 h not yet complete: when they will be;
 * - `short`: the journey in progress began after less than 11 h of rest ('Descanso
 *   insuficiente'), with, when the first period reached 8 h, until when the remainder may be
 *   taken.
 */
export type RestNotice =
  | { kind: 'resting'; since: number; completeAt: number }
  | {
      kind: 'short';
      restMs: number;
      /** Split rest: the rest still owed and the time it must be taken by. */
      remainder: { ms: number; by: number } | null;
    };

/**
 * The rest notice at `now`, from the driver's marks (the page's own, sent or not) and the
 * journeys the server worked out from marks and trackers (a journey driven without marks still
 * ends a rest). The rest before a journey ends at its start and begins at the later of the last
 * 'fim de jornada' mark and the end of the last journey before it.
 */
export function restNotice(
  marks: readonly { kind: string; at: string }[],
  journeys: readonly { start: string; end: string }[],
  now: number,
): RestNotice | null {
  const { state, since } = driverState(marks);
  const restStartBefore = (t: number): number | null => {
    let start: number | null = null;
    for (const m of marks) {
      const at = Date.parse(m.at);
      if (m.kind === 'journey_end' && at <= t && (start === null || at > start)) start = at;
    }
    for (const j of journeys) {
      const end = Date.parse(j.end);
      if (end <= t && (start === null || end > start)) start = end;
    }
    return start;
  };
  if (state === 'off' || state === 'ended') {
    const start = restStartBefore(now);
    if (start === null || now - start < 0) return null;
    // Driving seen by the trackers just now, without marks: not a rest.
    if (journeys.some((j) => Date.parse(j.end) > now - STILL_ACTIVE_MS)) return null;
    if (now - start >= DAILY_REST_MS) return null;
    return { kind: 'resting', since: start, completeAt: start + DAILY_REST_MS };
  }
  // In a journey: the latest 'início de jornada' is where its rest ended.
  let begun: number | null = null;
  for (const m of marks) {
    const at = Date.parse(m.at);
    if (m.kind === 'journey_start' && (begun === null || at > begun)) begun = at;
  }
  if (begun === null || since === null || now - begun > SHORT_REST_SHOWN_MS) return null;
  const start = restStartBefore(begun);
  if (start === null) return null;
  const restMs = begun - start;
  if (restMs >= DAILY_REST_MS) return null;
  return {
    kind: 'short',
    restMs,
    remainder:
      restMs >= FIRST_REST_MS
        ? { ms: DAILY_REST_MS - restMs, by: begun + REST_REMAINDER_WITHIN_MS }
        : null,
  };
}
