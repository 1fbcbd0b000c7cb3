/**
 * LISTEN on PostgreSQL channels over a connection of its own (a pooled one would be handed to
 * other queries and miss notices). The connection is kept: when it drops (server restart,
 * failover) it is opened again, with a growing pause (at once when the database's health
 * sees it back), and `connected` runs after every (re)connection so the caller can read what
 * it missed meanwhile — notices are not queued for a listener that is gone.
 */
import pg from 'pg';
import type { DatabaseHealth } from './health';

export interface NoticeHandlers {
  notice(channel: string, payload: string): void;
  /** Listening (again): read what changed since the last notice handled. */
  connected(): void;
  error?(err: Error): void;
}

export interface Listening {
  close(): Promise<void>;
}

export interface ListenOptions {
  /** The longest pause between two attempts to listen again. */
  retryMaxMs: number;
  /** How long opening the connection may take. */
  connectTimeoutMs: number;
  /** When it sees the database back, the next attempt is made at once. */
  health?: DatabaseHealth;
}

const FIRST_PAUSE_MS = 100;

/** Resolves once the first attempt to listen is over (listening, or retrying in the background). */
export async function listenTo(
  connectionString: string,
  channels: string[],
  handlers: NoticeHandlers,
  options: ListenOptions = { retryMaxMs: 10_000, connectTimeoutMs: 5000 },
): Promise<Listening> {
  let client: pg.Client | undefined;
  let closed = false;
  const firstPause = Math.min(FIRST_PAUSE_MS, options.retryMaxMs);
  let pause = firstPause;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const again = (err?: Error) => {
    if (err) handlers.error?.(err);
    const gone = client;
    client = undefined;
    void gone?.end().catch(() => {});
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void open();
    }, pause);
    pause = Math.min(pause * 2, options.retryMaxMs);
  };
  const stopWatching = options.health?.onChange((up) => {
    if (!up || !retry) return;
    clearTimeout(retry);
    retry = undefined;
    void open();
  });

  async function open() {
    if (closed) return;
    const next = new pg.Client({
      connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client = next;
    next.on('error', (err) => {
      if (client === next) again(err);
    });
    next.on('end', () => {
      if (client === next) again();
    });
    next.on('notification', (n) => {
      if (client === next) handlers.notice(n.channel, n.payload ?? '');
    });
    try {
      await next.connect();
      for (const channel of channels) await next.query(`listen "${channel}"`);
    } catch (err) {
      if (client === next) again(err as Error);
      return;
    }
    if (closed || client !== next) return;
    pause = firstPause;
    handlers.connected();
  }

  await open();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      stopWatching?.();
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
