/**
 * The one ingest path of every source (OsmAnd, Wialon IPS, flespi, the simulator): match
 * the tracker by identifier, check who sent it (server/ingest/identity.ts), validate and filter
 * each fix, store the fixes and the last location, then tell whoever listens (live stream,
 * alerts). A source acknowledges the device only after `accept` resolves, i.e. after the
 * commit, and only for what was stored: a fix refused or in conflict is reported as such.
 *
 * A report without GPS fix is stored at the tracker's last known place (its anchor), which
 * it never moves, so that its ignition, inputs, power and alarms still raise their alerts; a
 * tracker with no place yet drops it ('no_fix').
 *
 * This file puts the stages together, each in its own module:
 * - group-commit.ts: messages wait in a queue while batches are written, and the next batch
 *   takes them all, one device in one batch at a time;
 * - batch-write.ts: one batch in one transaction, its fixes screened (batch-screen.ts: who
 *   sent them, the jump filter and its outvoting) and stored with the alert engine's work, and
 *   the results told (batch-results.ts);
 * - batch-retry.ts: a failed batch retried message by message, then fix by fix, so that a
 *   value the database refuses costs only its own fix;
 * - device-logins.ts: the logins of protocols that have one, looked up together.
 */
import type { Config } from '../platform/config';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/log';
import { createSettle } from './batch-retry';
import { createBatchWriter, type FixProcessor } from './batch-write';
import { batchedDeviceLogins } from './device-logins';
import { createGroupCommit } from './group-commit';
import type { DeviceSource } from './identity';
import { JumpVotes } from './jump-votes';
import {
  type AcceptResult,
  type Counters,
  createCounters,
  type DeviceObserver,
  type StoredListener,
} from './message';
import type { DeviceLogin, Fix, Protocol } from './queries/positions';
import type { TrackerCache } from './tracker-cache';

export interface Pipeline {
  /**
   * Stores the fixes of one device. A `DeviceSource` (every listener) has its sender checked
   * against the tracker (protocol, password); a bare protocol is a trusted caller of this
   * process (the demo's history, tests) and is only recorded with the last location.
   */
  accept(identifier: string, fixes: Fix[], from?: Protocol | DeviceSource): Promise<AcceptResult>;
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
  stats(): Counters;
  onStored(listener: StoredListener): () => void;
}

/** The answer to an HTTP source while the database is behind (backlogged), and its wait. */
export const BACKLOGGED = 'Servidor ocupado: tente novamente em instantes';
export const BACKLOG_RETRY_SECONDS = 5;

export function createPipeline(
  db: Db,
  config: Pick<Config, 'ingest'> & Partial<Pick<Config, 'devices'>>,
  log: Logger,
  processor?: FixProcessor,
  options: {
    batchesInFlight?: number;
    /** Trackers and last fixes held in memory (one process owns the database). */
    trackerCache?: TrackerCache | undefined;
    /** Told what became of every device's message (the installers' view). */
    observer?: DeviceObserver | undefined;
  } = {},
): Pipeline {
  const cache = options.trackerCache;
  const counters = createCounters();
  const listeners = new Set<StoredListener>();
  const write = createBatchWriter({
    db,
    log,
    rules: config.ingest,
    auth: config.devices?.auth ?? 'required',
    processor,
    cache,
    votes: new JumpVotes(config.ingest),
    counters,
    observer: options.observer,
    listeners,
  });
  const settle = createSettle({ write, cache, log, counters });
  const batches = createGroupCommit(Math.max(1, options.batchesInFlight ?? 1), settle);
  const logins = batchedDeviceLogins(db);

  return {
    accept(identifier, fixes, from) {
      const source = typeof from === 'object' ? from : undefined;
      const protocol = typeof from === 'object' ? from.protocol : from;
      return new Promise<AcceptResult>((resolve, reject) => {
        batches.enqueue({ identifier, fixes, protocol, source, resolve, reject });
      });
    },
    backlogged: () => batches.queuedFixes() >= config.ingest.maxBacklog,
    queued: () => batches.queuedFixes(),
    device: (identifier) => logins.load(identifier),
    stats: () => ({ ...counters }),
    onStored(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
