/**
 * Whether the database answers now. A PostgreSQL restart, a failover or a network blip takes
 * it away for seconds; the server must ride through that: refuse what needs the database
 * (devices told "not stored", the API 503) and take up the work again by itself when it
 * answers.
 *
 * - A failure anywhere (a query, a pooled connection's socket, the LISTEN connection, a job)
 *   is `report`ed here. A connection error makes the health check the database at once with
 *   a connection of its own (`probe`): one dropped connection (an idle one closed by the
 *   server or a pooler) is not an outage, and the database stays up when the probe answers.
 * - When the probe fails, the database is down: the pool refuses new connections at once
 *   (server/platform/db/client.ts) instead of every request opening one against a server that
 *   is not there, and the probe is tried again after a pause that doubles up to `retryMaxMs`. The
 *   first probe that answers brings it up, and whoever waits (`whenUp`, `onChange`) carries
 *   on: writing resumes within one pause of the database's return.
 */
import type { Logger } from '../log';

/**
 * Messages of a connection that is gone or cannot be made: node-postgres's own, and
 * PostgreSQL's answer to a new connection while its database is closed to them (ALTER
 * DATABASE … ALLOW_CONNECTIONS false, before maintenance or a restore). That one comes as
 * SQLSTATE 55000, which statements also raise for reasons of their own, so the code alone
 * cannot tell it.
 */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Cannot use a pool after calling end on the pool',
  'is not currently accepting connections',
];

/** Socket-level failures: the server is not there, or the way to it is broken. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTCONN',
]);

/**
 * SQLSTATE codes of a database that cannot serve now, whatever the statement: class 08
 * (connection exception), 57P01–57P03 (shut down by an administrator, after a crash, or
 * starting up and not accepting connections yet), 53300 (no connection slot left) and 25006
 * (a read-only server: after a failover, a connection to the old primary, now a standby).
 */
const SQLSTATE = /^(08...|57P0[123]|53300|25006)$/;

/** Thrown instead of opening a connection while the database is known to be down. */
export class DatabaseUnavailable extends Error {
  readonly code = 'DATABASE_UNAVAILABLE';
  constructor(message = 'Banco de dados indisponível', options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * Whether `err` (or what caused it: drizzle wraps the driver's error in `cause`) says the
 * database could not be reached or cannot serve now, rather than that a statement or its data
 * was wrong. What it answers decides between "try again later" (a device keeps its fix, the
 * API answers 503) and a real failure.
 */
export function isConnectionError(err: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (e: unknown): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e)) return false;
    seen.add(e);
    if (e instanceof DatabaseUnavailable) return true;
    const { code, message, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.includes(m)))
      return true;
    // A host name with several addresses fails with one error per address.
    if (Array.isArray(errors) && errors.some(walk)) return true;
    return walk(cause);
  };
  return walk(err);
}

export interface DatabaseHealth {
  /** Whether the database answered when last seen (true from the start until it fails). */
  up(): boolean;
  /**
   * Whether a new connection may be tried: while up, and while a probe runs (the embedded
   * database's probe goes through the pool itself).
   */
  connectable(): boolean;
  /** Calls `listener(up)` at every change; returns the function that stops it. */
  onChange(listener: (up: boolean) => void): () => void;
  /** Resolves once the database is up (at once when it is), or when `signal` aborts. */
  whenUp(signal?: AbortSignal): Promise<void>;
  /**
   * A failure seen anywhere: a connection error makes the health check the database (and
   * mark it down when it does not answer). Answers whether `err` was a connection error.
   */
  report(err: unknown): boolean;
  /**
   * The database is known to be down (its thread ended): marked at once, not after a probe,
   * then probed until it answers.
   */
  down(err: unknown): void;
  /** Times the database was found down since the process started. */
  outages(): number;
  /** Stops probing (the database is being closed). */
  close(): void;
}

export interface HealthOptions {
  /** Answers when the database can serve; throws otherwise. */
  probe(): Promise<void>;
  log: Logger;
  /** The first pause between probes while down; it doubles up to `retryMaxMs`. */
  retryMinMs?: number;
  retryMaxMs: number;
}

export function createDatabaseHealth(options: HealthOptions): DatabaseHealth {
  const { log } = options;
  const retryMaxMs = Math.max(1, options.retryMaxMs);
  const retryMinMs = Math.min(options.retryMinMs ?? 100, retryMaxMs);
  const listeners = new Set<(up: boolean) => void>();
  /** `whenUp` promises waiting. */
  const waiters = new Set<() => void>();
  let up = true;
  let outages = 0;
  let downSince = 0;
  let pause = retryMinMs;
  let probing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const tell = (value: boolean) => {
    for (const listener of [...listeners]) {
      try {
        listener(value);
      } catch (err) {
        log.error('database: health listener failed', { err });
      }
    }
  };

  const markDown = (err: unknown) => {
    if (!up) return;
    up = false;
    outages += 1;
    downSince = Date.now();
    log.error('database: unreachable, refusing writes until it answers', {
      err: err instanceof Error ? err.message : String(err),
    });
    tell(false);
  };

  const check = async () => {
    if (probing || closed) return;
    probing = true;
    let failure: unknown;
    try {
      await options.probe();
    } catch (err) {
      failure = err;
    } finally {
      probing = false;
    }
    if (closed) return;
    if (failure === undefined) {
      if (up) return;
      up = true;
      pause = retryMinMs;
      log.warn('database: reachable again', { downMs: Date.now() - downSince });
      for (const done of [...waiters]) done();
      tell(true);
      return;
    }
    markDown(failure);
    timer = setTimeout(() => {
      timer = undefined;
      void check();
    }, pause);
    timer.unref();
    pause = Math.min(pause * 2, retryMaxMs);
  };

  return {
    up: () => up,
    connectable: () => up || probing,
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    whenUp(signal) {
      if (up || closed || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        waiters.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    report(err) {
      if (!isConnectionError(err)) return false;
      // Down already: the probes under way will tell when it is back.
      if (up) void check();
      return true;
    },
    down(err) {
      markDown(err);
      if (!timer) void check();
    },
    outages: () => outages,
    close() {
      closed = true;
      clearTimeout(timer);
      listeners.clear();
      // Nobody waits for ever on a database that is being closed.
      for (const done of [...waiters]) done();
    },
  };
}
