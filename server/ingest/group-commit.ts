/**
 * The queue in front of the batch writes (server/ingest/pipeline.ts). While batches are being
 * written (one at a time on PGlite, a few at once on PostgreSQL: INGEST_BATCHES_IN_FLIGHT),
 * every message that arrives waits here; the next batch takes them all (up to `MAX_BATCH`
 * fixes). Under light load a batch is one fix and nothing waits; under heavy load the cost of a
 * commit is shared by hundreds, and with several batches in flight the round trips of one
 * overlap the others'. A device is in one batch at a time: its next message waits until the
 * batch with its previous one is written, so its fixes are screened and numbered in order.
 */
import type { SettleBatch } from './batch-retry';
import type { Pending } from './message';

/** Fixes per transaction at most; more wait for the next one. */
export const MAX_BATCH = 2000;
/** Fixes waiting before a batch starts beside one being written (see `pump`). */
const MIN_EXTRA_BATCH = 200;

export interface GroupCommit {
  /** Queues a message for the next batch that may take it. */
  enqueue(pending: Pending): void;
  /** Fixes waiting to be written (not counting the batches being written). */
  queuedFixes(): number;
}

export function createGroupCommit(maxInFlight: number, settle: SettleBatch): GroupCommit {
  const queue: Pending[] = [];
  /** Fixes in `queue`. */
  let queuedFixes = 0;
  /** Identifiers in the batches being written: a device's next message waits for its last. */
  const busy = new Set<string>();
  let inFlight = 0;
  let scheduled = false;

  /**
   * The next batch: queued messages in arrival order up to MAX_BATCH fixes, leaving those of a
   * device already being written (and every later one of that device, to keep its order).
   */
  function take(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const left = new Set<string>();
    let size = 0;
    for (const next of queue) {
      const full = batch.length > 0 && size + next.fixes.length > MAX_BATCH;
      if (full || busy.has(next.identifier) || left.has(next.identifier)) {
        rest.push(next);
        left.add(next.identifier);
        continue;
      }
      size += next.fixes.length;
      batch.push(next);
    }
    queue.length = 0;
    for (const next of rest) queue.push(next);
    queuedFixes -= size;
    return batch;
  }

  /**
   * Starts batches while fewer than `maxInFlight` are being written. A batch beside others
   * starts only with MIN_EXTRA_BATCH fixes waiting: many small transactions cost the database
   * more than a few large ones, and fewer fixes wait as well for the next batch.
   */
  function pump() {
    scheduled = false;
    while (inFlight < maxInFlight && queue.length > 0) {
      if (inFlight > 0 && queuedFixes < MIN_EXTRA_BATCH) return;
      const batch = take();
      if (batch.length === 0) return;
      const identifiers = new Set(batch.map((p) => p.identifier));
      for (const id of identifiers) busy.add(id);
      inFlight += 1;
      void settle(batch)
        .catch((err: unknown) => {
          for (const pending of batch) pending.reject(err);
        })
        .finally(() => {
          inFlight -= 1;
          for (const id of identifiers) busy.delete(id);
          schedule();
        });
    }
  }

  // Let the requests that already arrived be read first, so that they join the next batch: a
  // database answer can come back before the sockets are read, and without the pause a busy
  // server would write one fix per batch.
  function schedule() {
    if (scheduled || queue.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(pump);
  }

  return {
    enqueue(pending) {
      queue.push(pending);
      queuedFixes += pending.fixes.length;
      schedule();
    },
    queuedFixes: () => queuedFixes,
  };
}
