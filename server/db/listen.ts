/**
 * LISTEN on PostgreSQL channels over a connection of its own (a pooled one would be handed to
 * other queries and miss notices). The connection is kept: when it drops (server restart,
 * failover) it is opened again, with a growing pause, and `connected` runs after every
 * (re)connection so the caller can read what it missed meanwhile — notices are not queued for
 * a listener that is gone.
 */
import pg from 'pg';

export interface NoticeHandlers {
  notice(channel: string, payload: string): void;
  /** Listening (again): read what changed since the last notice handled. */
  connected(): void;
  error?(err: Error): void;
}

export interface Listening {
  close(): Promise<void>;
}

const MAX_PAUSE_MS = 10_000;

/** Resolves once the first attempt to listen is over (listening, or retrying in the background). */
export async function listenTo(
  connectionString: string,
  channels: string[],
  handlers: NoticeHandlers,
): Promise<Listening> {
  let client: pg.Client | undefined;
  let closed = false;
  let pause = 250;
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
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
  };

  async function open() {
    if (closed) return;
    const next = new pg.Client({ connectionString });
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
    pause = 250;
    handlers.connected();
  }

  await open();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
