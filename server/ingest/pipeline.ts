/**
 * The one ingest path of every source (OsmAnd, Wialon IPS, flespi, the simulator): match
 * the tracker by identifier, check who sent it (server/ingest/identity.ts), validate and filter
 * each fix, store the fixes and the last location, then tell whoever listens (live stream,
 * alerts). A source acknowledges the device only after `accept` resolves, i.e. after the
 * commit, and only for what was stored: a fix refused or in conflict is reported as such.
 *
 * A report without a GPS fix is stored at the tracker's last known place (its anchor), which
 * it never moves, so that its ignition, inputs, power and alarms still raise their alerts; a
 * tracker with no place yet drops it ('no_fix').
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
  bindProtocols,
  type DeviceLogin,
  deviceLogins,
  type Fix,
  fixKey,
  type LastFix,
  type Protocol,
  type StoreResult,
  storeFixes,
  type TrackerFix,
  type TrackerRef,
  trackersAndLastFixes,
} from '../db/positions';
import type { Logger } from '../log';
import { checkIdentity, type DeviceSource, type IdentityRefusal } from './identity';
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
  /** 'unknown_device' also for a known tracker that refused its sender (see identity.ts). */
  status: 'ok' | 'unknown_device';
  /** Fixes and reports without GPS stored (a retransmission of a stored fix is not counted). */
  stored: number;
  /** Of those, reports without GPS. */
  telemetry?: number;
  rejected: Rejection[];
  /** Whether the sender proved the device's password (see identity.ts). */
  authenticated?: boolean;
  /**
   * The fixes given that were neither stored nor already stored: in conflict with another
   * fix of the same time, or refused by the database ('invalid_value'). Those a device must be
   * told were not registered.
   */
  unstored?: Fix[];
}

/** What happened to one device's message, for the installers' view (device-status.ts). */
export interface DeviceEvent {
  identifier: string;
  /** The tracker it named, when that is an active one. */
  trackerId: string | undefined;
  source: DeviceSource;
  result: AcceptResult;
  /** Why a known tracker's message was refused as an unknown one's. */
  refusal: IdentityRefusal | undefined;
  at: number;
}

export interface DeviceObserver {
  message(event: DeviceEvent): void;
}

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
  /** Undefined for a trusted caller (see Pipeline.accept). */
  source: DeviceSource | undefined;
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
  const counters: Counters = {
    stored: 0,
    unknown_device: 0,
    wrong_password: 0,
    no_password: 0,
    wrong_protocol: 0,
    invalid_coordinates: 0,
    no_fix: 0,
    zero_coordinates: 0,
    future_fix: 0,
    impossible_jump: 0,
    duplicate: 0,
    conflict: 0,
    invalid_value: 0,
  };
  const auth = config.devices?.auth ?? 'required';
  const storeRules = { maxJumpKmh: config.ingest.maxJumpKmh };
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
    /** Trackers bound to no protocol yet, and the one they were first heard on. */
    const unbound = new Map<string, Protocol>();
    const plans = batch.map((pending) => {
      const found = trackers.get(pending.identifier);
      const identity = pending.source
        ? checkIdentity(found, pending.source, auth)
        : found
          ? ({ ok: true, authenticated: true } as const)
          : ({ ok: false, reason: 'unknown_device' } as const);
      const tracker = identity.ok ? found : undefined;
      const rejected: Rejection[] = [];
      const kept: Fix[] = [];
      /** Refused jumps of earlier messages, stored now that they outvote their anchor. */
      const recovered: Fix[] = [];
      /** The fix given for each report without GPS kept (the report is a copy). */
      const given = new Map<Fix, Fix>();
      const plan = { pending, tracker, found, identity, kept, rejected, recovered, given };
      if (!tracker) return plan;
      if (found?.protocol === null && pending.source)
        unbound.set(found.id, pending.source.protocol);
      const ordered = [...pending.fixes].sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime());
      for (const fix of ordered) {
        const anchor = previous.get(tracker.id);
        const reason = screen(fix, anchor, config.ingest);
        if (!reason && fix.valid === false) {
          // A report without GPS, at the last known place (it moves nothing).
          if (!anchor) {
            rejected.push('no_fix');
            continue;
          }
          const report = { ...fix, latitude: anchor.latitude, longitude: anchor.longitude };
          report.speed = undefined;
          report.course = undefined;
          given.set(report, fix);
          kept.push(report);
          rows.push({ tracker, fix: report, protocol: pending.protocol });
          continue;
        }
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
        if (!anchor || fix.fixTime > anchor.fixTime) previous.set(tracker.id, fix);
      }
      return plan;
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
    let outcome: StoreResult;
    try {
      try {
        outcome = await storeFixes(db, rows, stored, engine, storeRules);
      } catch (err) {
        if (engineFailure === undefined) throw err;
        // A failing engine costs the alerts of this batch, never its fixes: stored again alone.
        log.error('alerts: engine failed, fixes stored without their alerts', {
          err: engineFailure,
        });
        afterCommit = undefined;
        outcome = await storeFixes(db, rows, stored, undefined, storeRules);
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
    if (unbound.size > 0) {
      // A tracker from before protocols were bound takes the first it is heard on.
      await bindProtocols(db, unbound).catch((err: unknown) =>
        log.warn('ingest: could not bind trackers to their protocol', { err }),
      );
      cache?.clear();
    }
    const { inserted, refused, conflicts } = outcome;
    const newest = new Map<string, { tracker: TrackerRef; fix: Fix }>();
    const results: AcceptResult[] = [];
    const now = Date.now();
    for (const { pending, tracker, found, identity, kept, rejected, recovered, given } of plans) {
      let result: AcceptResult;
      if (!tracker || !identity.ok) {
        const reason = identity.ok ? 'unknown_device' : identity.reason;
        counters[reason] += 1;
        log.debug('ingest: device refused', { identifier: pending.identifier, reason });
        result = { status: 'unknown_device', stored: 0, rejected: [reason] };
      } else {
        let count = 0;
        let telemetry = 0;
        const unstored: Fix[] = [];
        for (const fix of kept) {
          const key = fixKey(tracker.id, fix.fixTime);
          // The first claimant of a new key stores it; a repeat (even in this batch) does not.
          if (inserted.delete(key)) {
            count += 1;
            if (fix.valid === false) telemetry += 1;
            const seen = newest.get(tracker.id);
            if (!seen || fix.fixTime > seen.fix.fixTime) newest.set(tracker.id, { tracker, fix });
          } else if (refused.has(key)) rejected.push('impossible_jump');
          else if (conflicts.has(key)) {
            rejected.push('conflict');
            unstored.push(given.get(fix) ?? fix);
          } else rejected.push('duplicate');
        }
        for (const fix of recovered)
          if (inserted.delete(fixKey(tracker.id, fix.fixTime))) counters.stored += 1;
        for (const reason of rejected) counters[reason] += 1;
        counters.stored += count;
        result = {
          status: 'ok',
          stored: count,
          telemetry,
          rejected,
          authenticated: identity.authenticated,
          unstored,
        };
      }
      results.push(result);
      if (pending.source && options.observer)
        options.observer.message({
          identifier: pending.identifier,
          trackerId: found?.id,
          source: pending.source,
          result,
          refusal:
            identity.ok || identity.reason === 'unknown_device' ? undefined : identity.reason,
          at: now,
        });
    }
    for (const { tracker, fix } of newest.values()) {
      const before = stored.get(tracker.id);
      if (before && (before.lastReportAt ?? before.fixTime) >= fix.fixTime) continue;
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
    const total: AcceptResult = {
      status: 'ok',
      stored: 0,
      telemetry: 0,
      rejected: [],
      unstored: [],
    };
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
        result = { status: 'ok', stored: 0, rejected: ['invalid_value'], unstored: [fix] };
      }
      if (!result) continue;
      if (result.status === 'unknown_device') return result;
      total.stored += result.stored;
      total.telemetry = (total.telemetry ?? 0) + (result.telemetry ?? 0);
      total.authenticated = result.authenticated;
      total.rejected.push(...result.rejected);
      total.unstored?.push(...(result.unstored ?? []));
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

  /**
   * Device logins asked in the same turn of the event loop are looked up in one query: after a
   * restart a whole fleet reconnects at once, and one query per device would queue hundreds of
   * lookups ahead of the batches being written (on PGlite, statements run one at a time).
   */
  const logins = (() => {
    let waiting = new Map<string, ((login: DeviceLogin | undefined) => void)[]>();
    let failing = new Map<string, ((err: unknown) => void)[]>();
    const run = () => {
      const asked = waiting;
      const failed = failing;
      waiting = new Map();
      failing = new Map();
      deviceLogins(db, [...asked.keys()]).then(
        (found) => {
          for (const [identifier, resolvers] of asked)
            for (const resolve of resolvers) resolve(found.get(identifier));
        },
        (err: unknown) => {
          for (const rejecters of failed.values()) for (const reject of rejecters) reject(err);
        },
      );
    };
    return {
      load(identifier: string) {
        return new Promise<DeviceLogin | undefined>((resolve, reject) => {
          if (waiting.size === 0) setImmediate(run);
          waiting.set(identifier, [...(waiting.get(identifier) ?? []), resolve]);
          failing.set(identifier, [...(failing.get(identifier) ?? []), reject]);
        });
      },
    };
  })();

  // Let the requests that already arrived be read first, so that they join the next batch: a
  // database answer can come back before the sockets are read, and without the pause a busy
  // server would write one fix per batch.
  function schedule() {
    if (scheduled || queue.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(pump);
  }

  return {
    accept(identifier, fixes, from) {
      const source = typeof from === 'object' ? from : undefined;
      const protocol = typeof from === 'object' ? from.protocol : from;
      return new Promise<AcceptResult>((resolve, reject) => {
        queue.push({ identifier, fixes, protocol, source, resolve, reject });
        queuedFixes += fixes.length;
        schedule();
      });
    },
    backlogged: () => queuedFixes >= config.ingest.maxBacklog,
    queued: () => queuedFixes,
    device: (identifier) => logins.load(identifier),
    stats: () => ({ ...counters }),
    onStored(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
