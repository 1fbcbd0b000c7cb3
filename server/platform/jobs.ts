/**
 * The server's periodic work, one mechanism for all of it (the alert engine's silence check,
 * alert e-mails, automated reports, commands to trackers, report links, partitions):
 *
 * - Each job runs on its own timer; a slow round is never overlapped by the next tick.
 * - A job marked `once` runs in one process of all: at each tick the process claims the job's
 *   lease (server/platform/db/leases.ts) for a little less than one period, and only the process
 *   that got it runs the job. So with any number of processes it runs about once per period, and
 *   when the process that ran it stops, another takes over at its next tick after the lease
 *   ran out. With one process (PGlite) the lease always goes to it.
 * - While the database is down (server/platform/db/health.ts) rounds are skipped ("paused"), not
 *   failed one after the other; a round that fails because the database went away is logged
 *   once as a pause. Other failures are logged as errors. Every round is counted by result.
 * - `stop()` clears the timers and waits for the rounds under way (a graceful stop).
 */
import { hostname } from 'node:os';
import type { Db } from './db/client';
import type { DatabaseHealth } from './db/health';
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

export type RoundResult = 'ran' | 'skipped' | 'paused' | 'failed';

export interface JobOptions {
  /** In one process of all (a lease per period). */
  once?: boolean;
  /** A first round at once, not one period after the start (catching up after downtime). */
  immediately?: boolean;
}

export interface Jobs {
  /** Runs `job` every `periodMs`; returns the function that stops it. */
  every(
    name: string,
    periodMs: number,
    job: () => Promise<unknown>,
    options?: JobOptions,
  ): () => void;
  /** Stops every job and waits for the rounds under way. */
  stop(): Promise<void>;
  /** Rounds so far, by job and result ('skipped': another process held the lease). */
  stats(): { job: string; result: RoundResult; value: number }[];
}

export function createJobs(db: Db, health: DatabaseHealth, log: Logger): Jobs {
  const timers = new Set<ReturnType<typeof setInterval>>();
  const running = new Set<Promise<void>>();
  const counts = new Map<string, Record<RoundResult, number>>();
  let stopped = false;

  return {
    every(name, periodMs, job, options = {}) {
      const count = { ran: 0, skipped: 0, paused: 0, failed: 0 };
      counts.set(name, count);
      let round: Promise<void> | undefined;
      /** The job waits for the database: said once, until a round runs again. */
      let paused = false;
      const pause = (why: string, err?: unknown) => {
        count.paused += 1;
        if (paused) return;
        paused = true;
        log.warn('periodic job paused: the database does not answer', {
          job: name,
          why,
          ...(err ? { err: err instanceof Error ? err.message : String(err) } : {}),
        });
      };
      const tick = () => {
        if (round || stopped) return;
        if (!health.up()) {
          pause('down');
          return;
        }
        round = (async () => {
          try {
            let ran = true;
            if (options.once) ran = await runOnce(db, name, periodMs, job);
            else await job();
            count[ran ? 'ran' : 'skipped'] += 1;
            if (paused) log.info('periodic job resumed', { job: name });
            paused = false;
          } catch (err) {
            if (health.report(err)) pause('failed', err);
            else {
              count.failed += 1;
              log.error('periodic job failed', { job: name, err });
            }
          }
        })().finally(() => {
          if (round) running.delete(round);
          round = undefined;
        });
        running.add(round);
      };
      const timer = setInterval(tick, periodMs);
      timer.unref();
      timers.add(timer);
      if (options.immediately) tick();
      return () => {
        clearInterval(timer);
        timers.delete(timer);
      };
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      await Promise.all([...running]);
    },
    stats() {
      return [...counts].flatMap(([job, count]) =>
        Object.entries(count).map(([result, value]) => ({
          job,
          result: result as RoundResult,
          value,
        })),
      );
    },
  };
}
