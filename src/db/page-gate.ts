/**
 * What the locations worker knows of the page it talks to: how many 'rows' messages it has
 * posted, and how many of them the page has shown and gone idle after (the page says so). A
 * mirror write waits here for the page to have shown what was sent before it, at most
 * `maxWaitMs` (a hidden page may not say soon): writing 10,000 rows while the page draws them
 * took the CPU the drawing needed, on two cores.
 */
export function createPageGate(
  maxWaitMs: number,
  schedule: (run: () => void, ms: number) => unknown,
) {
  let posted = 0;
  let shown = 0;
  /** Those waiting: each for the messages posted before it asked. */
  const waiting = new Set<{ need: number; go: () => void }>();
  function release() {
    for (const waiter of waiting)
      if (waiter.need <= shown) {
        waiting.delete(waiter);
        waiter.go();
      }
  }
  return {
    /** A 'rows' message went to the page. */
    posted() {
      posted += 1;
    },
    /** The page has shown the first `seen` messages and is idle. */
    shown(seen: number) {
      shown = Math.max(shown, seen);
      release();
    },
    /** Counts everything posted as shown: whatever waits goes now. */
    openAll() {
      shown = posted;
      release();
    },
    /**
     * A promise that resolves once the page has shown what was posted until now, or
     * `maxWaitMs` later. Taken when a write is queued; awaited when its turn comes.
     */
    turn(): () => Promise<void> {
      const need = posted;
      return () => {
        if (need <= shown) return Promise.resolve();
        return new Promise((resolve) => {
          const waiter = { need, go: resolve };
          waiting.add(waiter);
          schedule(() => {
            if (waiting.delete(waiter)) resolve();
          }, maxWaitMs);
        });
      };
    },
  };
}
