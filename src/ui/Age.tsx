/**
 * How long ago something happened ('há 3 min'), redrawn by itself every second while it is
 * on screen: online or offline, the text stays true without the page re-rendering lists.
 */
import { useSyncExternalStore } from 'react';
import { createTicker, timeSince } from '../lib/clock';
import { localDateTime, localDayAndClock } from '../lib/local-time';

const seconds = createTicker(1000);

export function Age({ at, withDate = false }: { at: string; withDate?: boolean }) {
  const now = useSyncExternalStore(seconds.subscribe, seconds.now, seconds.now);
  return (
    <time dateTime={at} title={localDateTime(at)}>
      {timeSince(at, now)}
      {withDate ? ` · ${localDayAndClock(at)}` : ''}
    </time>
  );
}
