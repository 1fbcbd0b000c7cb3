/**
 * Wialon IPS over TCP: one connection per device, its bytes split into lines and answered in
 * order (session.ts).
 *
 * Each connection is bounded: lines wait in a short queue and answers in the socket's
 * buffer; past either bound the socket stops being read (TCP pushes back on the device) until
 * they drain. A connection must log in within the login deadline; one address may hold only
 * so many connections; queued lines of a connection that closed are dropped, not processed.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { LoginGuard, MAX_LOGIN_FAILURES } from './login-guard';
import { type WialonOptions, WialonSession } from './session';

const MAX_LINE = 64 * 1024;
const IDLE_MS = 10 * 60_000;
/** Per connection: lines waiting to be handled, and bytes of answers not yet taken. */
export const QUEUE_LINES = 64;
export const QUEUE_BYTES = 256 * 1024;
export const UNSENT_BYTES = 64 * 1024;

export interface WialonListener extends Server {
  port: number;
  /** Open connections and the lines waiting in them, for health checks and tests. */
  stats(): { connections: number; queued: number; busy: number };
}

interface Limits {
  loginTimeoutMs: number;
  maxConnectionsPerAddress: number;
  /** The wait before the second refused login of an identifier, doubling after (LoginGuard). */
  loginSlowdownMs: number;
}

/**
 * One connection: splits its bytes into lines and answers each in order, after its commit.
 * The bounds (lines queued, answers unsent) pause reading; closing drops what is queued.
 */
class Connection {
  private readonly session: WialonSession;
  private readonly queue: string[] = [];
  private queuedBytes = 0;
  private buffered = '';
  private working = false;
  private closed = false;
  private detach: (() => void) | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly options: WialonOptions,
    limits: Limits,
    guard: LoginGuard,
    private readonly onSettled: () => void,
  ) {
    this.session = new WialonSession(options, guard);
    socket.setEncoding('latin1');
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    const deadline = setTimeout(() => {
      if (!this.session.identifier) {
        options.log.debug('wialon: no login in time, closing');
        socket.destroy();
      }
    }, limits.loginTimeoutMs);
    deadline.unref();
    this.session.onLogin = (trackerId) => {
      clearTimeout(deadline);
      this.detach?.();
      this.detach = options.downlink?.connected(trackerId, (line) => this.sendLine(line));
    };
    socket.on('error', (err) =>
      options.log.debug('wialon: connection error', { err: err.message }),
    );
    socket.on('data', (chunk: string) => this.read(chunk));
    socket.on('drain', () => this.resumeIfRoom());
    socket.on('close', () => {
      clearTimeout(deadline);
      this.closed = true;
      this.queue.length = 0;
      this.queuedBytes = 0;
      this.detach?.();
      this.onSettled();
    });
  }

  get queued() {
    return this.queue.length;
  }

  /** Closed, with nothing left in hand. */
  get done() {
    return this.closed && !this.working;
  }

  get busy() {
    return this.working;
  }

  /**
   * Closes the connection for good: nothing more is read or handled (lines already queued or
   * still arriving are dropped), the answers written go out first when `flush`.
   */
  private shut(why: string, flush: boolean) {
    this.options.log.debug(why, { device: this.session.identifier });
    this.closed = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.socket.pause();
    if (flush) this.socket.end(() => this.socket.destroy());
    else this.socket.destroy();
  }

  private sendLine(line: string): boolean {
    if (this.closed || this.socket.destroyed) return false;
    this.socket.write(line);
    return true;
  }

  private full() {
    return (
      this.queue.length >= QUEUE_LINES ||
      this.queuedBytes >= QUEUE_BYTES ||
      this.socket.writableLength >= UNSENT_BYTES
    );
  }

  private resumeIfRoom() {
    if (!this.closed && this.socket.isPaused() && !this.full()) this.socket.resume();
  }

  private read(chunk: string) {
    if (this.closed) return;
    this.buffered += chunk;
    let end = this.buffered.indexOf('\n');
    while (end >= 0) {
      const line = this.buffered.slice(0, end).replace(/\r$/, '');
      this.buffered = this.buffered.slice(end + 1);
      if (line !== '') {
        this.queue.push(line);
        this.queuedBytes += line.length;
      }
      end = this.buffered.indexOf('\n');
    }
    if (this.buffered.length > MAX_LINE) {
      this.options.log.warn('wialon: line too long, closing', { device: this.session.identifier });
      this.socket.destroy();
      return;
    }
    if (this.full()) this.socket.pause();
    void this.work();
  }

  private async work() {
    if (this.working) return;
    this.working = true;
    try {
      for (
        let line = this.queue.shift();
        line !== undefined && !this.closed;
        line = this.queue.shift()
      ) {
        this.queuedBytes -= line.length;
        try {
          const answer = await this.session.handle(line);
          if (this.session.dropped) {
            this.shut('wialon: refused login not answered, closing', false);
            break;
          }
          if (answer !== undefined) this.sendLine(`${answer}\r\n`);
          if (this.session.refusedLogins >= MAX_LOGIN_FAILURES) {
            this.shut('wialon: too many refused logins, closing', true);
            break;
          }
        } catch (err) {
          // Not acknowledged: the device keeps the message and sends it again. The connection
          // closes, and with it the lines behind this one: a device that sends before each
          // answer would take the next answer for this message's and delete it.
          this.options.log.error('wialon: failed to store, closing', {
            err,
            device: this.session.identifier,
          });
          this.socket.destroy();
          break;
        }
        this.resumeIfRoom();
      }
    } finally {
      this.working = false;
      this.onSettled();
    }
  }
}

export function startWialon(
  options: WialonOptions & { port: number; host: string } & Partial<Limits>,
): Promise<WialonListener> {
  const limits: Limits = {
    loginTimeoutMs: options.loginTimeoutMs ?? 30_000,
    maxConnectionsPerAddress: options.maxConnectionsPerAddress ?? 100,
    loginSlowdownMs: options.loginSlowdownMs ?? 500,
  };
  const guard = new LoginGuard(limits.loginSlowdownMs, options.log);
  const connections = new Map<Socket, Connection>();
  const perAddress = new Map<string, number>();
  const server = createServer((socket) => {
    const address = socket.remoteAddress ?? '?';
    const count = perAddress.get(address) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) {
      options.log.warn('wialon: too many connections from one address', { address });
      socket.destroy();
      return;
    }
    perAddress.set(address, count + 1);
    // A connection stays listed until its last line in hand is done, even after it closed.
    const connection: Connection = new Connection(socket, options, limits, guard, () => {
      if (connection.done) connections.delete(socket);
    });
    connections.set(socket, connection);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  // Devices keep their connections open for days: closing the listener ends them too.
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const socket of connections.keys()) socket.destroy();
    return close(callback);
  };
  const listener = Object.assign(server, {
    port: 0,
    stats() {
      let queued = 0;
      let busy = 0;
      for (const connection of connections.values()) {
        queued += connection.queued;
        if (connection.busy) busy += 1;
      }
      return { connections: connections.size, queued, busy };
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const address = server.address();
      listener.port = typeof address === 'object' && address ? address.port : options.port;
      options.log.info('Wialon IPS listening', { port: listener.port });
      resolve(listener);
    });
  });
}
