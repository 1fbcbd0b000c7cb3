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
