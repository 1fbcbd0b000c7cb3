/** When automated reports are due and what they cover, in São Paulo time (src/lib/report-schedule). */
import { describe, expect, it } from 'vitest';
import { dayBound, dayStart } from '../../src/lib/report-period';
import { duePeriods, isoWeekday, nextSend, periodSentOn } from '../../src/lib/report-schedule';

const rule = (periodicity: 'DAILY' | 'WEEKLY' | 'MONTHLY', extra = {}) => ({
  periodicity,
  sendHour: 7,
  weekday: 1,
  monthDay: 1,
  ...extra,
});
const sp = (day: string, hh = 0) => new Date(dayStart(day).getTime() + hh * 3_600_000);

describe('report schedule', () => {
  it('covers the previous day, the previous Monday–Sunday week and the previous month', () => {
    expect(periodSentOn(rule('DAILY'), '2026-03-01')).toEqual({
      start: '2026-02-28',
      end: '2026-03-01',
    });
    expect(isoWeekday('2026-11-16')).toBe(1);
    expect(isoWeekday('2026-11-22')).toBe(7);
    // A Wednesday send still covers the whole week before (Monday to Sunday).
    expect(periodSentOn(rule('WEEKLY', { weekday: 3 }), '2026-11-18')).toEqual({
      start: '2026-11-09',
      end: '2026-11-16',
    });
    expect(periodSentOn(rule('MONTHLY', { monthDay: 5 }), '2026-01-05')).toEqual({
      start: '2025-12-01',
      end: '2026-01-01',
    });
  });

  it('is due at the rule’s hour in São Paulo, not before, and catches up what was missed', () => {
    const weekly = rule('WEEKLY');
    const created = sp('2026-11-01', 12);
    expect(duePeriods(weekly, sp('2026-11-16', 6), created).map((d) => d.dueAt)).toEqual([
      sp('2026-11-02', 7),
      sp('2026-11-09', 7),
    ]);
    const due = duePeriods(weekly, sp('2026-11-16', 7), created);
    expect(due.at(-1)).toEqual({
      periodStart: dayStart('2026-11-09'),
      periodEnd: dayStart('2026-11-16'),
      dueAt: sp('2026-11-16', 7),
    });
    // 07:00 in São Paulo is 10:00 UTC.
    expect(due.at(-1)?.dueAt.toISOString()).toBe('2026-11-16T10:00:00.000Z');
    // Nothing from before the rule existed; at most `max`, the newest.
    expect(duePeriods(rule('DAILY'), sp('2026-11-30', 8), created, 3).map((d) => d.dueAt)).toEqual([
      sp('2026-11-28', 7),
      sp('2026-11-29', 7),
      sp('2026-11-30', 7),
    ]);
    expect(
      nextSend(rule('MONTHLY', { monthDay: 28, sendHour: 23 }), sp('2026-02-28', 23)).dueAt,
    ).toEqual(sp('2026-03-28', 23));
  });
});

describe('dayBound', () => {
  it('bounds a day in Brasília time, whatever the computer’s zone', () => {
    expect(dayBound('2026-03-10', false)).toBe('2026-03-10T03:00:00.000Z');
    expect(dayBound('2026-03-10', true)).toBe('2026-03-11T02:59:59.999Z');
  });

  it('is no bound for a day the API would refuse', () => {
    // Typed by hand in a date box: an impossible day, and the last day of year 9999, whose end
    // in Brasília is in year 10000 in UTC.
    expect(dayBound('2026-02-30', false)).toBeNull();
    expect(dayBound('9999-12-31', true)).toBeNull();
    expect(dayBound('9999-12-31', false)).toBe('9999-12-31T03:00:00.000Z');
    expect(dayBound('', true)).toBeNull();
  });
});
