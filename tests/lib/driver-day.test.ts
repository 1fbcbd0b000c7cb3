/** The driver's page tells where the day stands from the marks alone (it must work offline). */
import { describe, expect, it } from 'vitest';
import { driverState, NEXT_MARKS } from '../../src/lib/driver-day';

const mark = (kind: string, at: string) => ({ kind, at: `2026-11-20T${at}:00-03:00` });

describe('driverState', () => {
  it('is off before any mark, and only a journey can start', () => {
    expect(driverState([])).toEqual({ state: 'off', since: null });
    expect(NEXT_MARKS.off).toEqual(['journey_start']);
  });

  it('follows the last mark by its time, not by the order they arrived', () => {
    // A mark kept offline arrives after a later one: its time decides.
    const marks = [mark('meal_start', '12:00'), mark('journey_start', '07:00')];
    expect(driverState(marks)).toEqual({ state: 'meal', since: marks[0]?.at });
    expect(NEXT_MARKS.meal).toEqual(['meal_end']);
    expect(driverState([...marks, mark('meal_end', '13:00')]).state).toBe('working');
    expect(driverState([...marks, mark('journey_end', '18:00')]).state).toBe('ended');
  });

  it('ignores kinds it does not know', () => {
    expect(driverState([mark('journey_start', '07:00'), mark('coffee', '09:00')]).state).toBe(
      'working',
    );
  });
});
