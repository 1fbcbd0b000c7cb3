/**
 * The period of a report screen: whole São Paulo days chosen in the form and kept in the
 * address (`?from=AAAA-MM-DD&to=AAAA-MM-DD`), so a report can be reloaded, shared and opened
 * from the Relatórios list; and the pt-BR date and time formats of report tables.
 */
import { localClockSeconds, localDateTime, localDayAndClock } from './local-time';
import { dayStart, nextDay, reportDay } from './report-period';

export interface DayRange {
  from: string;
  to: string;
}

export function today(): string {
  return reportDay(Date.now());
}

export function shiftDay(day: string, days: number): string {
  return reportDay(dayStart(day).getTime() + days * 86_400_000 + 12 * 3_600_000);
}

/** The instants of a range of whole days ([first day 00:00, day after the last 00:00)). */
export function periodOf(range: DayRange) {
  return {
    beginAt: dayStart(range.from).toISOString(),
    endAt: dayStart(nextDay(range.to)).toISOString(),
  };
}

const dayOnly = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'UTC',
  weekday: 'short',
  day: '2-digit',
  month: '2-digit',
});

export const formatDateTime = (iso: string | number) => localDateTime(iso).replace(',', '');
/** '18/11 07:05': tables of trips, where the year is the period's. */
export const formatShort = (iso: string | number) => localDayAndClock(iso).replace(',', '');
export const formatTime = (iso: string | number) => localClockSeconds(iso);
/** 'seg., 16/11' for '2026-11-16'. */
export const formatDay = (day: string) => dayOnly.format(new Date(`${day}T12:00:00Z`));
export const formatCoordinates = (lat: number, lon: number) =>
  `${lat.toFixed(4)}, ${lon.toFixed(4)}`;
