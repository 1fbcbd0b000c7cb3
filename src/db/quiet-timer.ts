/**
 * Runs a piece of work once activity pauses, but never leaves it waiting for ever: the
 * locations worker merges the live stream's changes this way (once the stream is quiet, or
 * FLUSH_MS after the first change waited) and takes the set's snapshot after live writes.
 * The clock and the timer are given, so that tests move time by hand.
 */
export function createQuietTimer(options: {
  /** Runs once activity has paused this long… */
  quietMs: number;
  /** …or this long after the first thing began to wait, whichever comes first. */
  maxMs: number;
  run: () => void;
  schedule: (run: () => void, ms: number) => unknown;
  clock: () => number;
}) {
  const { quietMs, maxMs, run, schedule, clock } = options;
  /** Whether something waits, since when, and the last activity. */
  let waiting = false;
  let first = 0;
  let last = 0;
  let armed = false;
  const arm = (ms: number) => {
    armed = true;
    schedule(check, ms);
  };
  function check() {
    armed = false;
    if (!waiting) return;
    const now = clock();
    const quiet = now - last;
    const waited = now - first;
    if (quiet < quietMs && waited < maxMs) {
      arm(Math.max(1, Math.min(quietMs - quiet, maxMs - waited)));
      return;
    }
    waiting = false;
    run();
  }
  return {
    /** Something now waits for the run (the first one starts the longest wait). */
    wait() {
      if (waiting) return;
      waiting = true;
      first = clock();
    },
    /** Activity: the run waits for it to pause. */
    touch() {
      last = clock();
      if (waiting && !armed) arm(quietMs);
    },
    /** Nothing waits any more (the work was done, or dropped, some other way). */
    clear() {
      waiting = false;
    },
  };
}
