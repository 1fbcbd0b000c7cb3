/**
 * The first step of a batch write (server/ingest/batch-write.ts): who sent each message, and
 * which of its fixes are stored. Nothing here touches the database; it turns the batch into
 * the rows to store and, for each message, a plan of what was kept and refused, which the
 * results are told from once the rows are written (batch-results.ts).
 *
 * A report without GPS is stored at the tracker's last known place (its anchor), which it
 * never moves (pipeline.ts says why); a tracker with no place yet drops it ('no_fix'). A wrong
 * anchor of the jump filter (a new tracker's bad first fix) is outvoted by the fixes it refused
 * when they agree with one another (server/ingest/jump-votes.ts).
 */
import type { Config } from '../platform/config';
import { checkIdentity, type DeviceAuth, type Identity } from './identity';
import type { Ballot } from './jump-votes';
import { inTimeOrder, type Pending } from './message';
import type { Fix, IngestTracker, LastFix, Protocol, TrackerFix } from './queries/positions';
import { type Rejection, screen } from './screen';

type Anchor = Pick<LastFix, 'latitude' | 'longitude' | 'fixTime'>;

/** One message of a batch, screened: what it is stored as, and what was refused. */
export interface MessagePlan {
  pending: Pending;
  /** The tracker the message is stored for: undefined when unknown or its sender refused. */
  tracker: IngestTracker | undefined;
  /** The active tracker its identifier named, whether or not it took the message. */
  found: IngestTracker | undefined;
  identity: Identity;
  kept: Fix[];
  rejected: Rejection[];
  /** Refused jumps of earlier messages, stored now that they outvote their anchor. */
  recovered: Fix[];
  /** The fix given for each report without GPS kept (the report is a copy). */
  given: Map<Fix, Fix>;
}

export interface ScreenedBatch {
  plans: MessagePlan[];
  /** What to store, in batch order. */
  rows: TrackerFix[];
  /** Trackers bound to no protocol yet, and the one they were first heard on. */
  unbound: Map<string, Protocol>;
}

/** What screening a batch's messages shares, one message after another. */
interface Screening {
  /** The fix each next one is screened against (the odometer starts from the stored one). */
  previous: Map<string, Anchor>;
  rows: TrackerFix[];
  ballot: Ballot;
  rules: Config['ingest'];
}

/** Screens a batch's messages in batch order against its trackers and their stored last fixes. */
export function screenBatch(
  batch: Pending[],
  trackers: Map<string, IngestTracker>,
  stored: Map<string, LastFix>,
  ballot: Ballot,
  rules: Config['ingest'],
  auth: DeviceAuth,
): ScreenedBatch {
  const screening: Screening = { previous: new Map(stored), rows: [], ballot, rules };
  const unbound = new Map<string, Protocol>();
  const plans = batch.map((pending) => {
    const found = trackers.get(pending.identifier);
    const identity = identityOf(pending, found, auth);
    const tracker = identity.ok ? found : undefined;
    const plan: MessagePlan = {
      pending,
      tracker,
      found,
      identity,
      kept: [],
      rejected: [],
      recovered: [],
      given: new Map(),
    };
    if (!tracker) return plan;
    if (found?.protocol === null && pending.source) unbound.set(found.id, pending.source.protocol);
    screenMessage(plan, tracker, screening);
    return plan;
  });
  return { plans, rows: screening.rows, unbound };
}

/** A listener's sender is checked (identity.ts); a trusted caller only needs the tracker. */
function identityOf(
  pending: Pending,
  found: IngestTracker | undefined,
  auth: DeviceAuth,
): Identity {
  if (pending.source) return checkIdentity(found, pending.source, auth);
  return found ? { ok: true, authenticated: true } : { ok: false, reason: 'unknown_device' };
}

/** Screens one message's fixes in time order, each against the one kept before it. */
function screenMessage(plan: MessagePlan, tracker: IngestTracker, screening: Screening) {
  const { pending, kept, rejected } = plan;
  const { previous, rows, ballot, rules } = screening;
  for (const fix of inTimeOrder(pending.fixes)) {
    const anchor = previous.get(tracker.id);
    const reason = screen(fix, anchor, rules);
    if (!reason && fix.valid === false) {
      keepReportWithoutGps(plan, tracker, fix, anchor, rows);
      continue;
    }
    const chain =
      reason === 'impossible_jump' && anchor ? ballot.refused(tracker.id, fix, anchor) : undefined;
    if (chain) {
      keepOutvotingChain(plan, tracker, fix, chain, rows);
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
}

/** A report without GPS, at the last known place (it moves nothing). */
function keepReportWithoutGps(
  plan: MessagePlan,
  tracker: IngestTracker,
  fix: Fix,
  anchor: Anchor | undefined,
  rows: TrackerFix[],
) {
  if (!anchor) {
    plan.rejected.push('no_fix');
    return;
  }
  const report = { ...fix, latitude: anchor.latitude, longitude: anchor.longitude };
  report.speed = undefined;
  report.course = undefined;
  plan.given.set(report, fix);
  plan.kept.push(report);
  rows.push({ tracker, fix: report, protocol: plan.pending.protocol });
}

/**
 * The wrong anchor's refusals, stored now in time order; the first starts the odometer afresh
 * (the leg from the anchor is no distance driven).
 */
function keepOutvotingChain(
  plan: MessagePlan,
  tracker: IngestTracker,
  fix: Fix,
  chain: Fix[],
  rows: TrackerFix[],
) {
  const { pending, kept, rejected, recovered } = plan;
  chain.forEach((member, i) => {
    rows.push({ tracker, fix: member, protocol: pending.protocol, restart: i === 0 });
    if (member === fix) kept.push(fix);
    else if (!pending.fixes.includes(member)) recovered.push(member);
    else {
      rejected.splice(rejected.indexOf('impossible_jump'), 1);
      kept.push(member);
    }
  });
}
