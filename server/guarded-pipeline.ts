/**
 * The ingest pipeline as the device listeners reach it, with two duties around it:
 *
 * - **Refused writes, by source.** A message whose write failed because the database could
 *   not be reached is not acknowledged (the device keeps it and sends it again); its fixes are
 *   counted by source for /metrics (`rastro_database_refused_writes_total`), and the failure
 *   is reported to the database's health, which then checks whether the database is down.
 * - **Drain on stop.** `drain()` refuses new messages (`ShuttingDown`, a "not stored, send it
 *   again" like a database away: the device sends it to the next process) and resolves when
 *   every message accepted before it is written and answered, or when `signal` aborts (the
 *   stop's deadline). Nothing acknowledged is lost either way: a fix is acknowledged only
 *   after its commit.
 */
import type { Pipeline } from './ingest/pipeline';
import { type DatabaseHealth, DatabaseUnavailable } from './platform/db/health';

/** Refused because the server is stopping: the device sends it again, elsewhere or later. */
export class ShuttingDown extends DatabaseUnavailable {
  constructor() {
    super('Servidor encerrando: a posição não foi gravada');
  }
}

export interface GuardedPipeline extends Pipeline {
  /**
   * Refuses new messages from now on and resolves when every one accepted before is settled
   * (true), or when `signal` aborts first (false).
   */
  drain(signal?: AbortSignal): Promise<boolean>;
  /** Messages accepted and not settled yet. */
  inFlight(): number;
  /** Fixes not stored because the database could not be reached, by source (protocol). */
  refused(): Record<string, number>;
}

export function guardPipeline(pipeline: Pipeline, health: DatabaseHealth): GuardedPipeline {
  let inFlight = 0;
  let draining = false;
  const settledListeners = new Set<() => void>();
  const refused: Record<string, number> = {};

  const settled = () => {
    inFlight -= 1;
    if (inFlight === 0) for (const listener of [...settledListeners]) listener();
  };

  return {
    device: (identifier) => pipeline.device(identifier),
    backlogged: () => pipeline.backlogged(),
    queued: () => pipeline.queued(),
    stats: () => pipeline.stats(),
    onStored: (listener) => pipeline.onStored(listener),
    accept(identifier, fixes, from) {
      if (draining) return Promise.reject(new ShuttingDown());
      inFlight += 1;
      const accepted = pipeline.accept(identifier, fixes, from);
      accepted.then(settled, (err: unknown) => {
        if (health.report(err)) {
          const source = (typeof from === 'object' ? from.protocol : from) ?? 'other';
          refused[source] = (refused[source] ?? 0) + fixes.length;
        }
        settled();
      });
      return accepted;
    },
    drain(signal) {
      draining = true;
      if (inFlight === 0) return Promise.resolve(true);
      if (signal?.aborted) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const done = (all: boolean) => {
          settledListeners.delete(onSettled);
          signal?.removeEventListener('abort', onAbort);
          resolve(all);
        };
        const onSettled = () => done(true);
        const onAbort = () => done(false);
        settledListeners.add(onSettled);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    inFlight: () => inFlight,
    refused: () => ({ ...refused }),
  };
}
