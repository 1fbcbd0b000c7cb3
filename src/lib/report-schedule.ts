/**
 * When automated reports are due and which period each covers, in America/Sao_Paulo time:
 * a DAILY rule sends the previous day, a WEEKLY rule the previous week (Monday to Sunday) on its
 * weekday (1 Monday … 7 Sunday), a MONTHLY rule the previous month on its day of the month
 * (1–28), each at its hour (0–23). Pure: the scheduler plans with it and the screen shows the
 * next send with it.
 */
import { dayStart, nextDay, reportDay } from './report-period';

export interface ScheduleRule {
  periodicity: 'DAILY' | 'WEEKLY' | 'MONTHLY';
  sendHour: number;
  weekday: number;
  monthDay: number;
}

export interface DuePeriod {
  periodStart: Date;
  periodEnd: Date;
  dueAt: Date;
}

const DAY_MS = 86_400_000;

function shift(day: string, days: number): string {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** 1 Monday … 7 Sunday. */
export function isoWeekday(day: string): number {
  const d = new Date(`${day}T12:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** Whether a rule sends on this São Paulo day. */
export function sendsOn(rule: ScheduleRule, day: string): boolean {
  if (rule.periodicity === 'DAILY') return true;
  if (rule.periodicity === 'WEEKLY') return isoWeekday(day) === rule.weekday;
  return Number(day.slice(8, 10)) === rule.monthDay;
}

/** The period a send on `day` covers. */
export function periodSentOn(rule: ScheduleRule, day: string): { start: string; end: string } {
  if (rule.periodicity === 'DAILY') return { start: shift(day, -1), end: day };
  if (rule.periodicity === 'WEEKLY') {
    const monday = shift(day, 1 - isoWeekday(day));
    return { start: shift(monday, -7), end: monday };
  }
  const first = `${day.slice(0, 8)}01`;
  const [y = 1970, m = 1] = first.split('-').map(Number);
  const previous = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10);
  return { start: previous, end: first };
}

function due(rule: ScheduleRule, day: string): DuePeriod {
  const { start, end } = periodSentOn(rule, day);
  return {
    periodStart: dayStart(start),
    periodEnd: dayStart(end),
    dueAt: new Date(dayStart(day).getTime() + rule.sendHour * 3_600_000),
  };
}

/**
 * The sends due in (notBefore, now], oldest first, at most `max` (the newest ones): what a
 * scheduler that was down catches up on when it starts.
 */
export function duePeriods(rule: ScheduleRule, now: Date, notBefore: Date, max = 12): DuePeriod[] {
  const out: DuePeriod[] = [];
  let day = reportDay(now);
  const oldest = notBefore.getTime() - DAY_MS;
  for (let i = 0; i < 400 && out.length < max; i += 1) {
    if (dayStart(day).getTime() < oldest) break;
    if (sendsOn(rule, day)) {
      const run = due(rule, day);
      if (run.dueAt.getTime() <= now.getTime() && run.dueAt.getTime() > notBefore.getTime())
        out.push(run);
    }
    day = shift(day, -1);
  }
  return out.reverse();
}

/** The next send after `now`. */
export function nextSend(rule: ScheduleRule, now: Date): DuePeriod {
  let day = reportDay(now);
  for (let i = 0; i < 400; i += 1) {
    if (sendsOn(rule, day)) {
      const run = due(rule, day);
      if (run.dueAt.getTime() > now.getTime()) return run;
    }
    day = nextDay(day);
  }
  return due(rule, day);
}
