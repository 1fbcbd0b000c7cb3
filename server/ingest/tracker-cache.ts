/**
 * The trackers and their last fixes kept in memory for ingest, where one process owns the
 * database (the embedded PGlite). Each batch otherwise starts by reading them (one query of a
 * few thousand identifiers with a join); with this, it reads one counter.
 *
 * Kept exact by two things:
 * - every change to trackers (an edit, a new one, a cancelation, in any code or by hand) moves
 *   `tracker_version` forward (a statement trigger, migration 0015); a batch that finds it moved
 *   forgets everything and reads again;
 * - last locations are written only by `storeFixes`, which tells this cache what it moved after
 *   each commit (`watchLastFixes`), whoever called it (ingest, the demo's history).
 *
 * Not for several processes on one PostgreSQL: there another process moves last locations
 * unseen here.
 */
import type { Db } from '../platform/db/client';
import type { IngestTracker } from './queries/positions';
import {
  type LastFix,
  trackersAndLastFixes,
  trackerVersion,
  watchLastFixes,
} from './queries/positions';

export interface TrackerCache {
  /** The active trackers among `identifiers` and the last fix of each, as the database has them. */
  lookup(
    identifiers: string[],
  ): Promise<{ trackers: Map<string, IngestTracker>; last: Map<string, LastFix> }>;
  /** Forgets everything (after a write that may or may not have committed). */
  clear(): void;
  /** Stops following last locations. */
  close(): void;
  /** Trackers held, for tests and logs. */
  size(): number;
}

export function createTrackerCache(db: Db): TrackerCache {
  let version: number | undefined;
  /** Moves forward whenever something held is dropped (see `lookup`). */
  let generation = 0;
  const trackers = new Map<string, IngestTracker>();
  /** Identifier of each tracker held, by tracker id. */
  const identifiers = new Map<string, string>();
  /** The last fix of the trackers held that have one. */
  const last = new Map<string, LastFix>();

  function clear() {
    generation += 1;
    version = undefined;
    trackers.clear();
    identifiers.clear();
    last.clear();
  }

  function forget(trackerId: string) {
    const identifier = identifiers.get(trackerId);
    if (identifier === undefined) return;
    generation += 1;
    trackers.delete(identifier);
    identifiers.delete(trackerId);
    last.delete(trackerId);
  }

  const stop = watchLastFixes(db, ({ moved, stale }) => {
    for (const [trackerId, fix] of moved) if (identifiers.has(trackerId)) last.set(trackerId, fix);
    for (const trackerId of stale) forget(trackerId);
  });

  return {
    async lookup(wanted) {
      const current = await trackerVersion(db);
      // Without the counter's row nothing can be known to hold: every batch reads.
      if (current === undefined) {
        clear();
        return trackersAndLastFixes(db, wanted);
      }
      if (current !== version) {
        clear();
        version = current;
      }
      const missing = wanted.filter((identifier) => !trackers.has(identifier));
      if (missing.length > 0) {
        const seen = generation;
        const read = await trackersAndLastFixes(db, missing);
        // Something held was dropped during the read (another batch found trackers changed, a
        // write failed, a last location went stale): the batch reads all of its own.
        if (generation !== seen) return trackersAndLastFixes(db, wanted);
        for (const [identifier, tracker] of read.trackers) {
          trackers.set(identifier, tracker);
          identifiers.set(tracker.id, identifier);
          const fix = read.last.get(tracker.id);
          if (fix) last.set(tracker.id, fix);
        }
      }
      const found = new Map<string, IngestTracker>();
      const fixes = new Map<string, LastFix>();
      for (const identifier of wanted) {
        const tracker = trackers.get(identifier);
        if (!tracker) continue;
        found.set(identifier, tracker);
        const fix = last.get(tracker.id);
        if (fix) fixes.set(tracker.id, fix);
      }
      return { trackers: found, last: fixes };
    },
    clear,
    close: stop,
    size: () => trackers.size,
  };
}
