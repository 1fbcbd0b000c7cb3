/**
 * Instants as people read them in Rastro: always in Brasília time (TIME_ZONE, the zone of the
 * reports' days, the schedules and the e-mails), whatever the browser's zone, so that one
 * screen never shows the same moment two ways (a toast at 15:04 beside a map saying 18:04 in a
 * browser on UTC). Pure.
 */
import { TIME_ZONE } from './schedule';

const format = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, ...options });

const dateTime = format({
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const date = format({ day: '2-digit', month: '2-digit', year: 'numeric' });
const dateAndClock = format({
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const dayAndClock = format({
  day: '2-digit',
  month: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});
const clock = format({ hour: '2-digit', minute: '2-digit' });
const clockSeconds = format({ hour: '2-digit', minute: '2-digit', second: '2-digit' });

type Instant = Date | string | number;

/** '23/11/2026, 15:04:16' */
export const localDateTime = (at: Instant) => dateTime.format(new Date(at));
/** '23/11/2026' */
export const localDate = (at: Instant) => date.format(new Date(at));
/** '23/11/2026, 15:04' */
export const localDateAndClock = (at: Instant) => dateAndClock.format(new Date(at));
/** '23/11, 15:04' */
export const localDayAndClock = (at: Instant) => dayAndClock.format(new Date(at));
/** '15:04' */
export const localClock = (at: Instant) => clock.format(new Date(at));
/** '15:04:16' */
export const localClockSeconds = (at: Instant) => clockSeconds.format(new Date(at));
