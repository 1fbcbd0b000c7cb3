/**
 * The one ingest path of every source (OsmAnd, Wialon IPS, flespi, the simulator): match
 * the tracker by identifier, validate and filter each fix, store the fixes and the last
 * location, then tell whoever listens (live stream, alerts). A source acknowledges the
 * device only after `accept` resolves, i.e. after the commit.
 *
 * Group commit: while one batch is being written, every fix that arrives waits in a queue;
 * the next batch takes them all (up to `MAX_BATCH`) and stores them in one transaction with
 * one look-up of the trackers and one of their last fixes. Under light load a batch is one
 * fix and nothing waits; under heavy load the cost of a commit is shared by hundreds.
 */
import type { Config } from '../config';
import type { Db } from '../db/client';
import {
  type Fix,
  fixKey,
  type LastFix,
  lastFixesOf,
  storeFixes,
  type TrackerFix,
  type TrackerRef,
  trackersByIdentifiers,
} from '../db/positions';
import type { Logger } from '../log';

export type Rejection =
  | 'unknown_device'
  | 'invalid_coordinates'
  | 'zero_coordinates'
  | 'future_fix'
  | 'impossible_jump'
  | 'duplicate';

export interface AcceptResult {
  status: 'ok' | 'unknown_device';
  stored: number;
  rejected: Rejection[];
}

export interface Pipeline {
  accept(identifier: string, fixes: Fix[]): Promise<AcceptResult>;
  /** Whether an active tracker has this identifier (protocols with a login ask first). */
  knows(identifier: string): Promise<boolean>;
  /** Counters since start, for logs and health. */
  stats(): Record<Rejection | 'stored', number>;
  onStored(listener: (tracker: TrackerRef, newest: Fix) => void): () => void;
}

const EARTH_KM = 6371;

export function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
) {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.sqrt(h));
}

/** Why a fix must be dropped, or undefined when it is kept. */
export function screen(
  fix: Fix,
  previous: { latitude: number; longitude: number; fixTime: Date } | undefined,
  rules: Config['ingest'],
  now = Date.now(),
): Rejection | undefined {
  const { latitude, longitude } = fix;
  if (
    !Number.isFinite(latitude) ||
    !Number.isFinite(longitude) ||
    Math.abs(latitude) > 90 ||
    Math.abs(longitude) > 180
  ) {
    return 'invalid_coordinates';
  }
  if (rules.dropZero && latitude === 0 && longitude === 0) return 'zero_coordinates';
  if (fix.fixTime.getTime() - now > rules.maxFutureSeconds * 1000) return 'future_fix';
  if (previous) {
    const hours = Math.abs(fix.fixTime.getTime() - previous.fixTime.getTime()) / 3_600_000;
    const km = distanceKm(previous, fix);
    if (km > 1 && (hours === 0 || km / hours > rules.maxJumpKmh)) return 'impossible_jump';
  }
  return undefined;
}

/** Fixes per transaction at most; more wait for the next one. */
export const MAX_BATCH = 2000;

interface Pending {
  identifier: string;
  fixes: Fix[];
  resolve(result: AcceptResult): void;
  reject(err: unknown): void;
}

type Counters = Record<Rejection | 'stored', number>;

export function createPipeline(db: Db, config: Pick<Config, 'ingest'>, log: Logger): Pipeline {
  const counters: Counters = {
    stored: 0,
    unknown_device: 0,
    invalid_coordinates: 0,
    zero_coordinates: 0,
    future_fix: 0,
    impossible_jump: 0,
    duplicate: 0,
  };
  const listeners = new Set<(tracker: TrackerRef, newest: Fix) => void>();
  const queue: Pending[] = [];
  let writing = false;

  /** Screens, stores and answers one batch; throws only when the transaction fails. */
  async function write(batch: Pending[]): Promise<void> {
    const identifiers = [...new Set(batch.map((p) => p.identifier))];
    const trackers = await trackersByIdentifiers(db, identifiers);
    const stored = await lastFixesOf(
      db,
      [...trackers.values()].map((t) => t.id),
    );
    const previous = new Map<string, LastFix>(stored);
    const rows: TrackerFix[] = [];
    const plans = batch.map((pending) => {
      const tracker = trackers.get(pending.identifier);
      const rejected: Rejection[] = [];
      const kept: Fix[] = [];
      if (!tracker) return { pending, tracker, kept, rejected };
      const ordered = [...pending.fixes].sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime());
      for (const fix of ordered) {
        const reason = screen(fix, previous.get(tracker.id), config.ingest);
        if (reason) {
          rejected.push(reason);
          continue;
        }
        kept.push(fix);
        rows.push({ tracker, fix });
        const last = previous.get(tracker.id);
        if (!last || fix.fixTime >= last.fixTime) previous.set(tracker.id, fix);
      }
      return { pending, tracker, kept, rejected };
    });
    const inserted = await storeFixes(db, rows);
    const newest = new Map<string, { tracker: TrackerRef; fix: Fix }>();
    for (const { pending, tracker, kept, rejected } of plans) {
      if (!tracker) {
        counters.unknown_device += 1;
        log.debug('ingest: unknown device', { identifier: pending.identifier });
        pending.resolve({ status: 'unknown_device', stored: 0, rejected: ['unknown_device'] });
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
      for (const reason of rejected) counters[reason] += 1;
      counters.stored += count;
      pending.resolve({ status: 'ok', stored: count, rejected });
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
  }

  async function drain() {
    writing = true;
    try {
      while (queue.length > 0) {
        // Let the requests that already arrived be read first, so that they join this
        // batch: PGlite works on this thread, and without the pause every batch is one fix.
        await new Promise((resolve) => setImmediate(resolve));
        const batch: Pending[] = [];
        let size = 0;
        for (let next = queue[0]; next; next = queue[0]) {
          if (batch.length > 0 && size + next.fixes.length > MAX_BATCH) break;
          queue.shift();
          size += next.fixes.length;
          batch.push(next);
        }
        try {
          await write(batch);
        } catch (err) {
          const [only] = batch;
          if (only && batch.length === 1) {
            only.reject(err);
            continue;
          }
          // One bad message must not fail the others: write them one by one.
          log.warn('ingest: batch failed, storing one by one', { size: batch.length, err });
          for (const pending of batch) {
            await write([pending]).catch((e: unknown) => pending.reject(e));
          }
        }
      }
    } finally {
      writing = false;
    }
  }

  return {
    accept(identifier, fixes) {
      return new Promise<AcceptResult>((resolve, reject) => {
        queue.push({ identifier, fixes, resolve, reject });
        if (!writing) void drain();
      });
    },
    async knows(identifier) {
      return (await trackersByIdentifiers(db, [identifier])).has(identifier);
    },
    stats: () => ({ ...counters }),
    onStored(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
