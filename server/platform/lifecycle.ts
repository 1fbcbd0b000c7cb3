/**
 * Where the process is in its life, for the parts that behave differently when it stops:
 * readiness answers 503 from the first moment of a stop (a load balancer sends no more), and
 * live streams end (browsers resume on another process from their last event id).
 */
import { setMaxListeners } from 'node:events';

export interface Lifecycle {
  /** Aborted when the server begins to stop. */
  signal: AbortSignal;
  stopping(): boolean;
  /** The server begins to stop (server/start.ts, on SIGTERM). */
  stop(): void;
}

export function createLifecycle(): Lifecycle {
  const controller = new AbortController();
  // Every live stream listens to it (removed when the stream ends): no limit is a leak here.
  setMaxListeners(0, controller.signal);
  return {
    signal: controller.signal,
    stopping: () => controller.signal.aborted,
    stop: () => controller.abort(),
  };
}
