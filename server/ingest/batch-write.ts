/**
 * One batch of the ingest pipeline written in one transaction (server/ingest/pipeline.ts): one
 * look-up of the trackers and their last fixes, the fixes screened (batch-screen.ts), the fixes,
 * last locations and daily rollups stored with the alert engine's work on them in the same
 * transaction (server/ingest/queries/positions.ts → storeFixes), then the results told
 * (batch-results.ts). A write that throws is retried smaller by batch-retry.ts.
 */
import type { Config } from '../platform/config';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/log';
import { tellNewest, tellResults } from './batch-results';
import { screenBatch } from './batch-screen';
import type { DeviceAuth } from './identity';
import type { JumpVotes } from './jump-votes';
import type { AcceptResult, Counters, DeviceObserver, Pending, StoredListener } from './message';
import {
  bindProtocols,
  type LastFix,
  type StoreResult,
  type StoreRules,
  storeFixes,
  type TrackerFix,
  trackersAndLastFixes,
} from './queries/positions';
import type { TrackerCache } from './tracker-cache';

/**
 * Work done on every newly stored fix inside the ingest transaction (the alert engine): it
 * commits with the positions or not at all. Returns what to run after the commit.
 */
export interface FixProcessor {
  process(tx: Db, stored: TrackerFix[], receivedAt: Date): Promise<(() => void) | undefined>;
}

/** Screens and stores one batch; its results in batch order. Throws when the write fails. */
export type WriteBatch = (batch: Pending[]) => Promise<AcceptResult[]>;

/** What a batch write reads, writes and tells; one of each for the pipeline's life. */
export interface BatchWriterParts {
  db: Db;
  log: Logger;
  rules: Config['ingest'];
  auth: DeviceAuth;
  processor: FixProcessor | undefined;
  /** Trackers and last fixes held in memory (one process owns the database). */
  cache: TrackerCache | undefined;
  votes: JumpVotes;
  counters: Counters;
  observer: DeviceObserver | undefined;
  listeners: Set<StoredListener>;
}

/** Whether a failed write was caused by the data itself (retrying it alone fails again). */
export function isDataError(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(22|23|54)/.test(code)) return true;
  }
  return false;
}

export function createBatchWriter(parts: BatchWriterParts): WriteBatch {
  const { db, log, rules, auth, processor, cache, votes, counters, observer, listeners } = parts;
  const storeRules: StoreRules = { maxJumpKmh: rules.maxJumpKmh };
  return async (batch) => {
    const identifiers = [...new Set(batch.map((p) => p.identifier))];
    const { trackers, last: stored } = cache
      ? await cache.lookup(identifiers)
      : await trackersAndLastFixes(db, identifiers);
    const ballot = votes.ballot();
    const { plans, rows, unbound } = screenBatch(batch, trackers, stored, ballot, rules, auth);
    let written: Stored;
    try {
      written = await storeWithAlerts(db, rows, stored, processor, storeRules, log);
    } catch (err) {
      // A refused jump the database cannot take would fail every outvote it joins.
      if (isDataError(err)) votes.forget(ballot.outvoted);
      throw err;
    }
    ballot.commit();
    try {
      written.afterCommit?.();
    } catch (err) {
      log.error('alerts: notification failed', { err });
    }
    if (unbound.size > 0) {
      // A tracker from before protocols were bound takes the first it is heard on.
      await bindProtocols(db, unbound).catch((err: unknown) =>
        log.warn('ingest: could not bind trackers to their protocol', { err }),
      );
      cache?.clear();
    }
    const { results, newest } = tellResults(plans, written.outcome, counters, observer, log);
    tellNewest(newest, stored, listeners, log);
    return results;
  };
}

interface Stored {
  outcome: StoreResult;
  /** The alert engine's work after the commit (its notifications). */
  afterCommit: (() => void) | undefined;
}

/** Stores the rows with the alert engine's work in the same transaction. */
async function storeWithAlerts(
  db: Db,
  rows: TrackerFix[],
  stored: Map<string, LastFix>,
  processor: FixProcessor | undefined,
  rules: StoreRules,
  log: Logger,
): Promise<Stored> {
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
  try {
    const outcome = await storeFixes(db, rows, stored, engine, rules);
    return { outcome, afterCommit };
  } catch (err) {
    if (engineFailure === undefined) throw err;
    // A failing engine costs the alerts of this batch, never its fixes: stored again alone.
    log.error('alerts: engine failed, fixes stored without their alerts', {
      err: engineFailure,
    });
    return {
      outcome: await storeFixes(db, rows, stored, undefined, rules),
      afterCommit: undefined,
    };
  }
}
