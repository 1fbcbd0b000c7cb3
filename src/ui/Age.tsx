/**
 * How long ago something happened ('há 3 min'), redrawn by itself every second while it is
 * on screen: online or offline, the text stays true without the page re-rendering lists.
 */
import { useSyncExternalStore } from 'react';
import { createTicker, timeSince } from '../lib/clock';

const seconds = createTicker(1000);
const short = new Intl.DateTimeFormat('pt-BR', {
  day: '2-digit',
  month: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

export function Age({ at, withDate = false }: { at: string; withDate?: boolean }) {
  const now = useSyncExternalStore(seconds.subscribe, seconds.now, seconds.now);
  return (
    <time dateTime={at} title={new Date(at).toLocaleString('pt-BR')}>
      {timeSince(at, now)}
      {withDate ? ` · ${short.format(new Date(at))}` : ''}
    </time>
  );
}
