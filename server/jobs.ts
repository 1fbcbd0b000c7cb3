/**
 * Periodic work done once across processes (partitions and retention, the alert engine's
 * silence check): each process runs a timer, and at each tick claims the job's lease
 * (server/db/leases.ts) for a little less than one period; only the process that got it runs
 * the job. So with any number of processes a job runs about once per period, and when the
 * process that ran it stops, another takes over at its next tick after the lease ran out.
 * With one process (PGlite) the lease always goes to it.
 */
import { hostname } from 'node:os';
import type { Db } from './db/client';
import { claimLease } from './db/leases';
import type { Logger } from './log';

/** This process, as a lease holder. */
export const HOLDER = `${hostname()}:${process.pid}`;

/**
 * How long a claim lasts: one period less a little slack, so that the claimant's own next tick
 * (a timer is never early, only late) finds the lease over, and another process's tick in
 * between does not.
 */
export function leaseMs(periodMs: number) {
  return Math.max(1, periodMs - Math.min(periodMs / 20, 30_000));
}

/** Runs `job` once per tick if this process claims the lease; false when another has it. */
export async function runOnce(
  db: Db,
  name: string,
  periodMs: number,
  job: () => Promise<unknown>,
): Promise<boolean> {
  if (!(await claimLease(db, name, HOLDER, leaseMs(periodMs)))) return false;
  await job();
  return true;
}

/** Every `periodMs`, `job` runs in the one process that claims it; returns the stop function. */
export function everyOnce(
  db: Db,
  log: Logger,
  name: string,
  periodMs: number,
  job: () => Promise<unknown>,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    // A slow round is not overlapped by the next tick of the same process.
    if (running) return;
    running = true;
    runOnce(db, name, periodMs, job)
      .catch((err: unknown) => log.error('periodic job failed', { job: name, err }))
      .finally(() => {
        running = false;
      });
  }, periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
