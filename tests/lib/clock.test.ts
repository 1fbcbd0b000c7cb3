/** The age ticker: ages on screen stay true while the page is open, with one timer for all. */
import { describe, expect, it } from 'vitest';
import { createTicker, type Timers, timeSince } from '../../src/lib/clock';

/** A hand-driven clock: `advance` runs the timers that fall due, in order. */
function manualTimers(start: number) {
  let now = start;
  let next = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = next++;
      pending.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (id) => {
      pending.delete(id as number);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...pending.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].run();
    }
    now = end;
  };
  return { timers, advance, pending: () => pending.size };
}

const START = Date.parse('2026-11-22T12:00:00.400Z');

describe('age ticker', () => {
  it('ticks on the wall-clock second, so every age on screen moves together', () => {
    const clock = manualTimers(START);
    const ticker = createTicker(1000, clock.timers);
    const seen: number[] = [];
    ticker.subscribe(() => seen.push(ticker.now()));
    clock.advance(2600);
    expect(seen).toEqual([START + 600, START + 1600, START + 2600]);
  });

  it('keeps an age true while the page stays open (online or not: it needs no network)', () => {
    const clock = manualTimers(START);
    const ticker = createTicker(1000, clock.timers);
    const fix = new Date(START - 50_000).toISOString();
    let shown = '';
    ticker.subscribe(() => {
      shown = timeSince(fix, ticker.now());
    });
    clock.advance(1000);
    expect(shown).toBe('há 50 s');
    clock.advance(1000);
    expect(shown).toBe('há 51 s');
    clock.advance(60_000);
    expect(shown).toBe('há 1 min');
    clock.advance(2 * 60_000);
    expect(shown).toBe('há 3 min');
  });

  it('shares one timer between listeners and stops when nobody listens', () => {
    const clock = manualTimers(START);
    const ticker = createTicker(15_000, clock.timers);
    const stopA = ticker.subscribe(() => {});
    const stopB = ticker.subscribe(() => {});
    expect(clock.pending()).toBe(1);
    stopA();
    expect(clock.pending()).toBe(1);
    stopB();
    expect(clock.pending()).toBe(0);
  });

  it('starts from the true time when a screen opens after a pause', () => {
    const clock = manualTimers(START);
    const ticker = createTicker(1000, clock.timers);
    ticker.subscribe(() => {})();
    clock.advance(3_600_000);
    ticker.subscribe(() => {});
    expect(ticker.now()).toBe(START + 3_600_000);
  });
});
