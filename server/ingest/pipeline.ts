/**
 * The one ingest path of every source (OsmAnd, Wialon IPS, flespi, the simulator): match
 * the tracker by identifier, validate and filter each fix, store the fixes and the last
 * location, then tell whoever listens (live stream, alerts). A source acknowledges the
 * device only after `accept` resolves, i.e. after the commit.
 *
 * Group commit: while batches are being written (one at a time on PGlite, a few at once on
 * PostgreSQL: INGEST_BATCHES_IN_FLIGHT), every fix that arrives waits in a queue; the next
 * batch takes them all (up to `MAX_BATCH`) and stores them in one transaction with one look-up
 * of the trackers and their last fixes. Under light load a batch is one fix and nothing waits;
 * under heavy load the cost of a commit is shared by hundreds, and with several batches in
 * flight the round trips of one overlap the others'. A device is in one batch at a time: its
 * next message waits until the batch with its previous one is written, so its fixes are
 * screened and numbered in order.
 *
 * A wrong anchor of the jump filter (a new tracker's bad first fix) is outvoted by the fixes
 * it refused when they agree with one another (server/ingest/jump-votes.ts).
 *
 * A failed batch is retried message by message, and a failed message fix by fix, so that a
 * value the database refuses (a data error: SQLSTATE class 22/23/54) costs only its own fix,
 * which is dropped and counted as 'invalid_value'. Any other failure (connection, shutdown)
 * rejects the message: it is not acknowledged, and the device sends it again.
 */
import type { Config } from '../config';
import type { Db } from '../db/client';
import {
  type DeviceLogin,
  deviceLogin,
  type Fix,
  fixKey,
  type LastFix,
  type Protocol,
  storeFixes,
  type TrackerFix,
  type TrackerRef,
  trackersAndLastFixes,
} from '../db/positions';
import type { Logger } from '../log';
import { JumpVotes } from './jump-votes';
import { type Rejection, screen } from './screen';
import type { TrackerCache } from './tracker-cache';

/**
 * Work done on every newly stored fix inside the ingest transaction (the alert engine): it
 * commits with the positions or not at all. Returns what to run after the commit.
 */
export interface FixProcessor {
  process(tx: Db, stored: TrackerFix[], receivedAt: Date): Promise<(() => void) | undefined>;
}

export interface AcceptResult {
  status: 'ok' | 'unknown_device';
  stored: number;
  rejected: Rejection[];
}

export interface Pipeline {
  /** Stores the fixes of one device; `protocol` is recorded with its last location. */
  accept(identifier: string, fixes: Fix[], protocol?: Protocol): Promise<AcceptResult>;
  /** The active tracker with this identifier, for protocols with a login; else undefined. */
  device(identifier: string): Promise<DeviceLogin | undefined>;
  /**
   * Whether INGEST_MAX_BACKLOG fixes or more wait to be written (the database is behind):
   * sources that can be told to come back (HTTP: 503) should not queue more. Wialon IPS needs
   * no check: each connection holds one line in hand, and TCP holds the rest.
   */
  backlogged(): boolean;
  /** Fixes waiting to be written (not counting the batches being written). */
  queued(): number;
  /**
   * Counters since start, for logs and health. A refused jump stored later, when it outvoted
   * its anchor (jump-votes.ts), is counted both as `impossible_jump` and as `stored`.
   */
  stats(): Record<Rejection | 'stored', number>;
  onStored(listener: (tracker: TrackerRef, newest: Fix) => void): () => void;
}

/** The answer to an HTTP source while the database is behind (backlogged), and its wait. */
export const BACKLOGGED = 'Servidor ocupado: tente novamente em instantes';
export const BACKLOG_RETRY_SECONDS = 5;

/** Fixes per transaction at most; more wait for the next one. */
export const MAX_BATCH = 2000;
/** Fixes waiting before a batch starts beside one being written (see `pump`). */
const MIN_EXTRA_BATCH = 200;

interface Pending {
  identifier: string;
  fixes: Fix[];
  protocol: Protocol | undefined;
  resolve(result: AcceptResult): void;
  reject(err: unknown): void;
}

/** Whether a failed write was caused by the data itself (retrying it alone fails again). */
export function isDataError(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(22|23|54)/.test(code)) return true;
  }
  return false;
}

type Counters = Record<Rejection | 'stored', number>;

export function createPipeline(
  db: Db,
  config: Pick<Config, 'ingest'>,
  log: Logger,
  processor?: FixProcessor,
  options: {
    batchesInFlight?: number;
    /** Trackers and last fixes held in memory (one process owns the database). */
    trackerCache?: TrackerCache | undefined;
  } = {},
): Pipeline {
  const counters: Counters = {
    stored: 0,
    unknown_device: 0,
    invalid_coordinates: 0,
    no_fix: 0,
    zero_coordinates: 0,
    future_fix: 0,
    impossible_jump: 0,
    duplicate: 0,
    invalid_value: 0,
  };
  const listeners = new Set<(tracker: TrackerRef, newest: Fix) => void>();
  const queue: Pending[] = [];
  const maxInFlight = Math.max(1, options.batchesInFlight ?? 1);
  const cache = options.trackerCache;
  const votes = new JumpVotes(config.ingest);

  /** Screens and stores one batch; its results in batch order. Throws when the write fails. */
  async function write(batch: Pending[]): Promise<AcceptResult[]> {
    const identifiers = [...new Set(batch.map((p) => p.identifier))];
    const { trackers, last: stored } = cache
      ? await cache.lookup(identifiers)
      : await trackersAndLastFixes(db, identifiers);
    // The fix each next one is screened against (the odometer starts from `stored`).
    const previous = new Map<string, Pick<LastFix, 'latitude' | 'longitude' | 'fixTime'>>(stored);
    const rows: TrackerFix[] = [];
    const ballot = votes.ballot();
    const plans = batch.map((pending) => {
      const tracker = trackers.get(pending.identifier);
      const rejected: Rejection[] = [];
      const kept: Fix[] = [];
      /** Refused jumps of earlier messages, stored now that they outvote their anchor. */
      const recovered: Fix[] = [];
      if (!tracker) return { pending, tracker, kept, rejected, recovered };
      const ordered = [...pending.fixes].sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime());
      for (const fix of ordered) {
        const anchor = previous.get(tracker.id);
        const reason = screen(fix, anchor, config.ingest);
        const chain =
          reason === 'impossible_jump' && anchor
            ? ballot.refused(tracker.id, fix, anchor)
            : undefined;
        if (chain) {
          // The wrong anchor's refusals, stored now in time order; the first starts the
          // odometer afresh (the leg from the anchor is no distance driven).
          chain.forEach((member, i) => {
            rows.push({ tracker, fix: member, protocol: pending.protocol, restart: i === 0 });
            if (member === fix) kept.push(fix);
            else if (!pending.fixes.includes(member)) recovered.push(member);
            else {
              rejected.splice(rejected.indexOf('impossible_jump'), 1);
              kept.push(member);
            }
          });
          previous.set(tracker.id, chain.at(-1) ?? fix);
          continue;
        }
        if (reason) {
          rejected.push(reason);
          continue;
        }
        ballot.kept(tracker.id, fix, anchor);
        kept.push(fix);
        rows.push({ tracker, fix, protocol: pending.protocol });
        if (!anchor || fix.fixTime >= anchor.fixTime) previous.set(tracker.id, fix);
      }
      return { pending, tracker, kept, rejected, recovered };
    });
    let afterCommit: (() => void) | undefined;
    let engineFailure: unknown;
    const engine =
      processor &&
      (async (tx: Db, fresh: TrackerFix[], receivedAt: Date) => {
        try {
          afterCommit = await processor.process(tx, fresh, receivedAt);
        } catch (err) {
          engineFailure = err;
          throw err;
        }
      });
    let inserted: Set<string>;
    try {
      try {
        inserted = await storeFixes(db, rows, stored, engine);
      } catch (err) {
        if (engineFailure === undefined) throw err;
        // A failing engine costs the alerts of this batch, never its fixes: stored again alone.
        log.error('alerts: engine failed, fixes stored without their alerts', {
          err: engineFailure,
        });
        afterCommit = undefined;
        inserted = await storeFixes(db, rows, stored);
      }
    } catch (err) {
      // A refused jump the database cannot take would fail every outvote it joins.
      if (isDataError(err)) votes.forget(ballot.outvoted);
      throw err;
    }
    ballot.commit();
    try {
      afterCommit?.();
    } catch (err) {
      log.error('alerts: notification failed', { err });
    }
    const newest = new Map<string, { tracker: TrackerRef; fix: Fix }>();
    const results: AcceptResult[] = [];
    for (const { pending, tracker, kept, rejected, recovered } of plans) {
      if (!tracker) {
        counters.unknown_device += 1;
        log.debug('ingest: unknown device', { identifier: pending.identifier });
        results.push({ status: 'unknown_device', stored: 0, rejected: ['unknown_device'] });
        continue;
      }
      let count = 0;
      for (const fix of kept) {
        // The first claimant of a new key stores it; a repeat (even in this batch) does not.
        if (inserted.delete(fixKey(tracker.id, fix.fixTime))) {
          count += 1;
          const seen = newest.get(tracker.id);
          if (!seen || fix.fixTime > seen.fix.fixTime) newest.set(tracker.id, { tracker, fix });
        } else rejected.push('duplicate');
      }
      for (const fix of recovered)
        if (inserted.delete(fixKey(tracker.id, fix.fixTime))) counters.stored += 1;
      for (const reason of rejected) counters[reason] += 1;
      counters.stored += count;
      results.push({ status: 'ok', stored: count, rejected });
    }
    for (const { tracker, fix } of newest.values()) {
      const before = stored.get(tracker.id);
      if (before && before.fixTime >= fix.fixTime) continue;
      for (const listener of listeners) {
        try {
          listener(tracker, fix);
        } catch (err) {
          log.error('ingest: listener failed', { err });
        }
      }
    }
    return results;
  }

  /** One message alone failed: store it fix by fix, dropping only the fixes refused as data. */
  async function writeFixByFix(pending: Pending): Promise<AcceptResult> {
    const total: AcceptResult = { status: 'ok', stored: 0, rejected: [] };
    const ordered = [...pending.fixes].sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime());
    for (const fix of ordered) {
      let result: AcceptResult | undefined;
      try {
        [result] = await write([{ ...pending, fixes: [fix] }]);
      } catch (err) {
        if (!isDataError(err)) {
          cache?.clear();
          throw err;
        }
        log.warn('ingest: fix refused by the database, dropped', {
          identifier: pending.identifier,
          err,
        });
        counters.invalid_value += 1;
        result = { status: 'ok', stored: 0, rejected: ['invalid_value'] };
      }
      if (!result) continue;
      if (result.status === 'unknown_device') return result;
      total.stored += result.stored;
      total.rejected.push(...result.rejected);
    }
    return total;
  }

  /** Writes a batch; when it fails, each message alone, then each fix alone (see above). */
  async function settle(batch: Pending[]): Promise<void> {
    try {
      const results = await write(batch);
      batch.forEach((pending, i) => {
        const result = results[i];
        if (result) pending.resolve(result);
      });
      return;
    } catch (err) {
      // Whether a failed write committed is not always known: the trackers are read again.
      cache?.clear();
      if (batch.length > 1) {
        log.warn('ingest: batch failed, storing one by one', { size: batch.length, err });
        for (const pending of batch) await settle([pending]);
        return;
      }
      const [only] = batch;
      if (!only) return;
      if (!isDataError(err)) {
        only.reject(err);
        return;
      }
      await writeFixByFix(only).then(only.resolve, only.reject);
    }
  }

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
    accept(identifier, fixes, protocol) {
      return new Promise<AcceptResult>((resolve, reject) => {
        queue.push({ identifier, fixes, protocol, resolve, reject });
        queuedFixes += fixes.length;
        schedule();
      });
    },
    backlogged: () => queuedFixes >= config.ingest.maxBacklog,
    queued: () => queuedFixes,
    device: (identifier) => deviceLogin(db, identifier),
    stats: () => ({ ...counters }),
    onStored(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
