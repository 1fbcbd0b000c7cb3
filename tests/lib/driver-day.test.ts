/** The driver's page tells where the day stands from the marks alone (it must work offline). */
import { describe, expect, it } from 'vitest';
import { driverState, NEXT_MARKS, restNotice } from '../../src/lib/driver-day';

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

describe('restNotice', () => {
  const at = (day: number, clock: string) =>
    Date.parse(`2026-11-${String(day).padStart(2, '0')}T${clock}:00-03:00`);
  const iso = (day: number, clock: string) => new Date(at(day, clock)).toISOString();
  const marked = (kind: string, day: number, clock: string) => ({ kind, at: iso(day, clock) });
  const journey = (from: [number, string], to: [number, string]) => ({
    start: iso(...from),
    end: iso(...to),
  });
  const H = 3_600_000;

  it('tells when 11 h of rest are complete after the day ended', () => {
    const marks = [marked('journey_start', 20, '07:00'), marked('journey_end', 20, '18:30')];
    expect(restNotice(marks, [], at(20, '22:00'))).toEqual({
      kind: 'resting',
      since: at(20, '18:30'),
      completeAt: at(21, '05:30'),
    });
    // Rested enough: nothing to say.
    expect(restNotice(marks, [], at(21, '05:30'))).toBeNull();
  });

  it('counts the rest from the trackers when the driver drove after marking the end', () => {
    // The last mark is the start; the trackers saw driving until 19:10, the day ended there.
    const journeys = [journey([20, '07:00'], [20, '19:10'])];
    const marks = [marked('journey_start', 20, '07:00'), marked('journey_end', 20, '17:00')];
    const notice = restNotice(marks, journeys, at(20, '23:00'));
    expect(notice).toEqual({
      kind: 'resting',
      since: at(20, '19:10'),
      completeAt: at(21, '06:10'),
    });
    // Driving seen a moment ago without marks is not a rest.
    expect(restNotice([], [journey([20, '22:00'], [20, '22:55'])], at(20, '23:00'))).toBeNull();
  });

  it("warns 'Descanso insuficiente' when the journey began before 11 h of rest", () => {
    const marks = [
      marked('journey_start', 20, '07:00'),
      marked('journey_end', 20, '22:00'),
      marked('journey_start', 21, '05:00'),
    ];
    // 7 h of rest: the first period of a split rest must be 8 h, nothing can make it up.
    expect(restNotice(marks, [], at(21, '06:00'))).toEqual({
      kind: 'short',
      restMs: 7 * H,
      remainder: null,
    });
    // Six hours into the journey it is no longer news (as the operator's alert).
    expect(restNotice(marks, [], at(21, '11:01'))).toBeNull();
  });

  it('tells a split rest how much remains and by when', () => {
    const marks = [marked('journey_end', 20, '21:00'), marked('journey_start', 21, '06:00')];
    // 9 h: 2 h more within the 16 h after the first period ended.
    expect(restNotice(marks, [], at(21, '06:30'))).toEqual({
      kind: 'short',
      restMs: 9 * H,
      remainder: { ms: 2 * H, by: at(21, '22:00') },
    });
    // 11 h: a full rest.
    const full = [marked('journey_end', 20, '19:00'), marked('journey_start', 21, '06:00')];
    expect(restNotice(full, [], at(21, '06:30'))).toBeNull();
  });

  it('says nothing without a known end of the last journey', () => {
    expect(restNotice([marked('journey_start', 21, '06:00')], [], at(21, '07:00'))).toBeNull();
    expect(restNotice([], [], at(21, '07:00'))).toBeNull();
  });
});
