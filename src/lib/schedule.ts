/**
 * Weekly windows in local time (America/Sao_Paulo): when an alert rule is active and when a
 * geofence's interval rule applies. A window is a set of weekdays (0 Sunday … 6 Saturday)
 * and a start and end time ('HH:MM'). When the end comes before the start the window crosses
 * midnight: 'Monday 22:00–06:00' runs from Monday 22:00 to Tuesday 06:00, the weekday naming
 * the day it starts. Equal start and end mean the whole day.
 */

export const TIME_ZONE = 'America/Sao_Paulo';

export interface Window {
  weekdays: readonly number[];
  startTime: string;
  endTime: string;
}

// 'HH:MM' is the contract's (it loads before the sign-in page; this file's formatter does not).
export { TIME_PATTERN } from '../contract/geofences';

const formatter = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The local offset changes at most twice a year: cache it per UTC hour. */
const offsets = new Map<number, { weekday: number; minuteOfDay: number; hourStart: number }>();

/** Weekday and minute of the day of an instant in São Paulo. */
export function localTime(ms: number): { weekday: number; minutes: number } {
  const hour = Math.floor(ms / 3_600_000);
  let known = offsets.get(hour);
  if (!known) {
    const start = hour * 3_600_000;
    const parts = formatter.formatToParts(new Date(start));
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '0';
    known = {
      weekday: WEEKDAYS[get('weekday')] ?? 0,
      minuteOfDay: Number(get('hour')) * 60 + Number(get('minute')),
      hourStart: start,
    };
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(hour, known);
  }
  const extra = Math.floor((ms - known.hourStart) / 60_000);
  const total = known.minuteOfDay + extra;
  // Minutes past the hour may carry into the next local day.
  return total >= 1440
    ? { weekday: (known.weekday + 1) % 7, minutes: total - 1440 }
    : { weekday: known.weekday, minutes: total };
}

export function minutesOf(time: string): number {
  const [h = '0', m = '0'] = time.split(':');
  return Number(h) * 60 + Number(m);
}

/** Whether an instant falls within a weekly window (crossing midnight when end < start). */
export function withinWindow(window: Window, ms: number): boolean {
  const { weekday, minutes } = localTime(ms);
  const start = minutesOf(window.startTime);
  const end = minutesOf(window.endTime);
  if (start === end) return window.weekdays.includes(weekday);
  if (start < end) return window.weekdays.includes(weekday) && minutes >= start && minutes < end;
  // Crosses midnight: the evening part belongs to today, the morning part to yesterday.
  if (minutes >= start) return window.weekdays.includes(weekday);
  if (minutes < end) return window.weekdays.includes((weekday + 6) % 7);
  return false;
}

export const WEEKDAY_LABELS = ['Dom', 'Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sáb'] as const;
