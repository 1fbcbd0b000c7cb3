/**
 * Recovery from a wrong anchor of the jump filter (server/ingest/batch-screen.ts → screen). A fix
 * is refused as an impossible jump when it is too far from the tracker's newest kept fix, its
 * anchor. When that anchor is itself wrong — a new tracker's bad first fix, or a wild fix that
 * got through because a long silence allowed the distance — every good fix after it is refused
 * until time allows the distance: at 1,000 km/h, two hours for a 2,000 km error.
 *
 * So the refused jumps of a tracker are remembered, in this process: when JUMP_CONFIRMATIONS of
 * them, of distinct times and all newer than the anchor, agree with one another, they outvote
 * it. They are stored (the first one starting the odometer afresh: the leg from the wrong
 * anchor is not distance driven), and the newest becomes the anchor. Only an unsupported
 * anchor can be outvoted: one kept with no fix within SUPPORT_WINDOW_MS before it to agree
 * with (a first fix, a fix after a silence). An anchor on a live track is not, so a few
 * consistent wild fixes (a glitch, a spoofed OsmAnd device) stay refused as before; nor is one
 * this process has not seen kept (after a restart), which keeps the filter's old behaviour.
 *
 * A batch works on a Ballot; its changes are kept only when the batch is written (a batch
 * that failed is screened again on its retry).
 */
import type { Config } from '../platform/config';
import type { Fix } from './queries/positions';
import { screen } from './screen';

/** Refused jumps that agree with one another and outvote an unsupported anchor. */
export const JUMP_CONFIRMATIONS = 3;
/** A kept fix with an agreeing one at most this much older is a supported anchor. */
export const SUPPORT_WINDOW_MS = 5 * 60_000;
/** Trackers with refused jumps remembered at most (the oldest is forgotten first). */
export const MAX_CHAINS = 50_000;

type Anchor = Pick<Fix, 'latitude' | 'longitude' | 'fixTime'>;

export class JumpVotes {
  /** Each tracker's latest refused jumps that agree with one another, in arrival order. */
  readonly chains = new Map<string, Fix[]>();
  /** Trackers whose anchor, kept in this process, had no recent fix to agree with. */
  readonly unsupported = new Set<string>();

  constructor(readonly rules: Config['ingest']) {}

  ballot() {
    return new Ballot(this);
  }

  /** Forgets the chains of these trackers (a chain that holds a fix the database refuses). */
  forget(trackerIds: Iterable<string>) {
    for (const id of trackerIds) this.chains.delete(id);
  }
}

export class Ballot {
  private readonly chains = new Map<string, Fix[]>();
  private readonly support = new Map<string, boolean>();
  /** Trackers whose anchor was outvoted in this batch. */
  readonly outvoted = new Set<string>();

  constructor(private readonly votes: JumpVotes) {}

  private chainOf(trackerId: string) {
    return this.chains.get(trackerId) ?? this.votes.chains.get(trackerId) ?? [];
  }

  private supported(trackerId: string) {
    return this.support.get(trackerId) ?? !this.votes.unsupported.has(trackerId);
  }

  /**
   * `fix` was refused as a jump from `anchor`: it joins the tracker's chain when it agrees
   * with the chain's last fix (else it starts a new one). Returns the chain, in time order,
   * when it now outvotes the anchor; the anchor is then the chain's newest fix.
   */
  refused(trackerId: string, fix: Fix, anchor: Anchor): Fix[] | undefined {
    const after = anchor.fixTime.getTime();
    const time = fix.fixTime.getTime();
    if (time <= after) return undefined;
    const chain = this.chainOf(trackerId).filter((f) => f.fixTime.getTime() > after);
    if (chain.some((f) => f.fixTime.getTime() === time)) return undefined;
    const tail = chain.at(-1);
    const next = tail && !screen(fix, tail, this.votes.rules) ? [...chain, fix] : [fix];
    this.chains.set(trackerId, next);
    if (next.length < JUMP_CONFIRMATIONS || this.supported(trackerId)) return undefined;
    this.chains.set(trackerId, []);
    this.support.set(trackerId, true);
    this.outvoted.add(trackerId);
    return [...next].sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime());
  }

  /**
   * `fix` was kept, screened against `anchor` (none: the tracker's first fix). One that agrees
   * with the anchor shows the refused ones were the wrong ones; one that becomes the anchor
   * is supported when the anchor before it was recent.
   */
  kept(trackerId: string, fix: Fix, anchor: Anchor | undefined) {
    if (!anchor) {
      this.support.set(trackerId, false);
      return;
    }
    if (this.chainOf(trackerId).length > 0) this.chains.set(trackerId, []);
    const gap = fix.fixTime.getTime() - anchor.fixTime.getTime();
    if (gap >= 0) this.support.set(trackerId, gap <= SUPPORT_WINDOW_MS);
  }

  /** The batch was written: its changes become the process's. */
  commit() {
    const { chains, unsupported } = this.votes;
    for (const [trackerId, chain] of this.chains) {
      chains.delete(trackerId);
      if (chain.length > 0) chains.set(trackerId, chain);
    }
    while (chains.size > MAX_CHAINS) {
      const oldest = chains.keys().next().value;
      if (oldest === undefined) break;
      chains.delete(oldest);
    }
    for (const [trackerId, supported] of this.support) {
      if (supported) unsupported.delete(trackerId);
      else unsupported.add(trackerId);
    }
  }
}
