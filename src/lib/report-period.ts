/**
 * Report periods: the calendar of reports (days are America/Sao_Paulo days, whatever the
 * server's or the browser's zone) and the interval rule of SPEC §5 — the difference between
 * start and end in whole hours (rounded) must be at most the allowed hours, and a separate
 * check in minutes catches what the rounding lets through (744 h 20 min rounds to 744 h).
 * Pure: the server validates with it and the PWA checks before asking.
 */

import { isRealDate, isRealInstant, PERIOD_ORDER } from '../contract/common';
import { TIME_ZONE } from './schedule';

/** Allowed hours per kind of report: 31 days of points, 93 days of totals. */
export const INTERVAL_LIMITS = {
  points: 744,
  totals: 93 * 24,
} as const;
export type IntervalKind = keyof typeof INTERVAL_LIMITS;

const limitText = (hours: number) =>
  hours % 24 === 0 ? `${hours / 24} dias (${hours} horas)` : `${hours} horas`;

export const PERIOD_MESSAGES = {
  order: PERIOD_ORDER,
  tooLong: (hours: number) => `O período máximo deste relatório é de ${limitText(hours)}`,
} as const;

/** Why a period may not be asked, or undefined when it may (SPEC §5 rule). */
export function periodProblem(
  beginAt: Date | string | number,
  endAt: Date | string | number,
  maxHours: number,
): string | undefined {
  const begin = new Date(beginAt).getTime();
  const end = new Date(endAt).getTime();
  if (!Number.isFinite(begin) || !Number.isFinite(end) || end <= begin)
    return PERIOD_MESSAGES.order;
  const hours = Math.round((end - begin) / 3_600_000);
  if (hours > maxHours) return PERIOD_MESSAGES.tooLong(maxHours);
  const minutes = Math.round((end - begin) / 60_000);
  if (minutes > maxHours * 60) return PERIOD_MESSAGES.tooLong(maxHours);
  return undefined;
}

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  // The reports' calendar is Brasília time, as every instant on screen (local-time.ts).
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The wall-clock time in São Paulo of an instant, as if it were UTC (for offsets). */
function wallClock(ms: number): number {
  const parts: Record<string, number> = {};
  for (const part of dayFormat.formatToParts(new Date(ms)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

/** Offsets only change on the hour: one formatting per hour, not per fix. */
const offsets = new Map<number, number>();
function offsetAt(ms: number): number {
  const hour = Math.floor(ms / 3_600_000);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    offset = wallClock(hour * 3_600_000) - hour * 3_600_000;
    if (offsets.size > 50_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

/** 'AAAA-MM-DD': the São Paulo calendar day of an instant. */
export function reportDay(instant: Date | number): string {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  return new Date(ms + offsetAt(ms)).toISOString().slice(0, 10);
}

/** The instant a São Paulo day ('AAAA-MM-DD') begins. */
export function dayStart(day: string): Date {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d);
  // Two rounds settle it even across a change of offset.
  let ms = guess - offsetAt(guess);
  ms = guess - offsetAt(ms);
  return new Date(ms);
}

/**
 * The first (or last) instant of a São Paulo day ('AAAA-MM-DD') as ISO text, for a filter by
 * day: the same list whatever the zone of the computer. A day the API would refuse is no bound.
 */
export function dayBound(day: string, end: boolean): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !isRealDate(day)) return null;
  const at = end ? new Date(dayStart(nextDay(day)).getTime() - 1) : dayStart(day);
  const text = at.toISOString();
  return isRealInstant(text) ? text : null;
}

/** The day after 'AAAA-MM-DD'. */
export function nextDay(day: string): string {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** Every São Paulo day an interval touches, in order ([begin, end)). */
export function daysOf(beginAt: Date, endAt: Date): string[] {
  const days: string[] = [];
  const last = reportDay(endAt.getTime() - 1);
  for (let day = reportDay(beginAt); day <= last; day = nextDay(day)) days.push(day);
  return days;
}

/**
 * The São Paulo wall-clock time of an instant, as the same digits in UTC: what a spreadsheet
 * cell (which has no time zone) must hold for '17/11/2026 07:00' to read as local time.
 */
export function localWallClock(instant: Date | number): Date {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  return new Date(ms + offsetAt(ms));
}
