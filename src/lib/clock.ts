/**
 * Ages as people read them ('há 3 min') and the ticker that keeps them true while a page
 * stays open, online or offline. The ticker is one timer for every subscriber, woken on the
 * wall-clock boundary of its period (each second, each 15 s…), so ages on a screen change
 * together, and it stops when nobody listens. Timers are injected so tests drive the clock.
 */

import { isoMs } from './iso-time';

const SECOND = 1000;

/** "agora", "há 40 s", "há 5 min", "há 3 h", "há 2 dias". */
export function timeSince(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - isoMs(iso)) / SECOND));
  if (seconds < 10) return 'agora';
  if (seconds < 60) return `há ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `há ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `há ${hours} h`;
  const days = Math.floor(hours / 24);
  return days === 1 ? 'há 1 dia' : `há ${days} dias`;
}

export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Ticker {
  /** The time of the last tick (what ages are computed against). */
  now(): number;
  /** Listens to ticks; returns the function that stops listening. */
  subscribe(listener: () => void): () => void;
}

export function createTicker(periodMs: number, timers: Timers = realTimers): Ticker {
  const listeners = new Set<() => void>();
  let current = timers.now();
  let handle: unknown;

  const schedule = () => {
    const at = timers.now();
    // The next wall-clock multiple of the period: every screen's ages change together.
    handle = timers.setTimeout(tick, periodMs - (at % periodMs));
  };
  function tick() {
    current = timers.now();
    for (const listener of [...listeners]) listener();
    if (listeners.size > 0) schedule();
    else handle = undefined;
  }

  return {
    now: () => current,
    subscribe(listener) {
      listeners.add(listener);
      if (handle === undefined) {
        // A screen opened after a pause starts from the true time, not the last tick.
        current = timers.now();
        schedule();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && handle !== undefined) {
          timers.clearTimeout(handle);
          handle = undefined;
        }
      };
    },
  };
}
