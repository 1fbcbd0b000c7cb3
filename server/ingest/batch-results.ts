/**
 * The last step of a batch write (server/ingest/batch-write.ts), after the commit: what became
 * of each message (its answer, the counters, the installers' view), then the newest stored fix
 * of each tracker told to whoever listens (the live stream).
 */
import type { Logger } from '../platform/log';
import type { MessagePlan } from './batch-screen';
import type { AcceptResult, Counters, DeviceObserver, StoredListener } from './message';
import type { Fix, IngestTracker, LastFix, StoreResult, TrackerRef } from './queries/positions';
import { fixKey } from './queries/positions';

/** The newest fix stored in this batch of each tracker. */
export type Newest = Map<string, { tracker: TrackerRef; fix: Fix }>;

/** Each message's result in batch order, counted and told to the observer. */
export function tellResults(
  plans: MessagePlan[],
  outcome: StoreResult,
  counters: Counters,
  observer: DeviceObserver | undefined,
  log: Logger,
): { results: AcceptResult[]; newest: Newest } {
  const newest: Newest = new Map();
  const results: AcceptResult[] = [];
  const now = Date.now();
  for (const plan of plans) {
    const { pending, tracker, found, identity } = plan;
    const result =
      !tracker || !identity.ok
        ? refusedResult(plan, counters, log)
        : storedResult(plan, tracker, identity.authenticated, outcome, counters, newest);
    results.push(result);
    if (pending.source && observer)
      observer.message({
        identifier: pending.identifier,
        trackerId: found?.id,
        source: pending.source,
        result,
        refusal: identity.ok || identity.reason === 'unknown_device' ? undefined : identity.reason,
        at: now,
      });
  }
  return { results, newest };
}

/** An unknown device's message, or one whose sender its tracker refused. */
function refusedResult(plan: MessagePlan, counters: Counters, log: Logger): AcceptResult {
  const { identity, pending } = plan;
  const reason = identity.ok ? 'unknown_device' : identity.reason;
  counters[reason] += 1;
  log.debug('ingest: device refused', { identifier: pending.identifier, reason });
  return { status: 'unknown_device', stored: 0, rejected: [reason] };
}

/** A known tracker's message: which of the fixes it kept the store took. */
function storedResult(
  plan: MessagePlan,
  tracker: IngestTracker,
  authenticated: boolean,
  { inserted, refused, conflicts }: StoreResult,
  counters: Counters,
  newest: Newest,
): AcceptResult {
  const { kept, rejected, recovered, given } = plan;
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
  return { status: 'ok', stored: count, telemetry, rejected, authenticated, unstored };
}

/** Tells the listeners each tracker's newest fix, unless it is not newer than the stored one. */
export function tellNewest(
  newest: Newest,
  stored: Map<string, LastFix>,
  listeners: Set<StoredListener>,
  log: Logger,
) {
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
}
