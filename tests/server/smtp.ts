/** A real SMTP server on a free loopback port that keeps every message it receives. */
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { vi } from 'vitest';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** `onConnect` decides, per connection, whether the server greets, refuses or waits. */
export async function startSmtp(port = 0, onConnect?: SMTPServerOptions['onConnect']) {
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    ...(onConnect ? { onConnect } : {}),
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        raw += chunk;
      });
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `smtp://127.0.0.1:${bound}`,
    inbox,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The set-password token of the last link to `page` in a message (quoted-printable aware). */
export function tokenFromMail(mail: ReceivedMail, page: string): string | undefined {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = new RegExp(`${page}\\?token=([A-Za-z0-9_-]+)`).exec(text);
  return match?.[1];
}

/**
 * The first message in `inbox` from `from` on that `match`es, waited for: the password recovery
 * e-mail goes out after the answer, so it may land a moment later.
 */
export function waitForMail(
  inbox: ReceivedMail[],
  match: (mail: ReceivedMail) => boolean,
  from = 0,
): Promise<ReceivedMail> {
  return vi.waitFor(
    () => {
      const mail = inbox.slice(from).find(match);
      if (!mail) throw new Error('e-mail não chegou');
      return mail;
    },
    { timeout: 10_000, interval: 20 },
  );
}
