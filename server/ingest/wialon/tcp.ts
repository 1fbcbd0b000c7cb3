/**
 * Wialon IPS over TCP: one connection per device, its bytes split into lines and answered in
 * order (session.ts).
 *
 * Each connection is bounded: lines wait in a short queue and answers in the socket's
 * buffer; past either bound the socket stops being read (TCP pushes back on the device) until
 * they drain. A connection must log in within the login deadline; queued lines of a connection
 * that closed are dropped, not processed.
 *
 * One address may hold only so many connections that have not logged in yet (a carrier's NAT
 * puts thousands of devices behind one address): a logged-in device never counts, and a new
 * connection past the limit pushes out the oldest one that has waited more than
 * LOGIN_GRACE_MS without logging in, so idle sockets cannot lock devices out.
 *
 * When a line cannot be stored (the database away), it is not answered and the connection
 * stays open: the same line is tried again, after a growing pause, until it is stored or the
 * connection ends. Reading stops meanwhile, so no later line is answered before it.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { LoginGuard, MAX_LOGIN_FAILURES } from './login-guard';
import { BadMessages, type WialonOptions, WialonSession } from './session';

const MAX_LINE = 64 * 1024;
const IDLE_MS = 10 * 60_000;
/** A connection waiting for its login this long may be pushed out by a new one. */
export const LOGIN_GRACE_MS = 3_000;
/** Pauses before storing a line again after a failure, growing to the last. */
const RETRY_MS = [250, 1_000, 2_000, 5_000];
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
  /** Connections of one address that have not logged in yet. */
  maxConnectionsPerAddress: number;
  /** How long a connection waits for its login before a newer one may push it out. */
  loginGraceMs: number;
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
  /** The server is stopping: finish the line in hand, then end (see `finish`). */
  private finishing = false;
  readonly openedAt = Date.now();

  constructor(
    private readonly socket: Socket,
    private readonly options: WialonOptions,
    limits: Limits,
    guard: LoginGuard,
    bad: BadMessages,
    private readonly onSettled: () => void,
    onLogin: () => void,
  ) {
    this.session = new WialonSession(options, guard, socket.remoteAddress ?? '?', bad);
    socket.setEncoding('latin1');
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    const deadline = setTimeout(() => {
      if (!this.session.identifier) {
        options.log.debug('wialon: no login in time, closing');
        socket.destroy();
      }
    }, limits.loginTimeoutMs);
    deadline.unref();
    this.session.onLogin = (trackerId, authenticated) => {
      clearTimeout(deadline);
      onLogin();
      this.session.link?.handle.detach();
      const link = {
        send: (payload: string) => this.sendLine(`${payload}\r\n`),
        address: socket.remoteAddress ?? '?',
        authenticated,
        close: () => this.shut('wialon: replaced by a newer session of the device', false),
      };
      const handle = options.downlink?.connected(trackerId, link);
      this.session.link = handle ? { handle, link } : undefined;
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
      this.session.link?.handle.detach();
      this.onSettled();
    });
  }

  /** Not logged in yet. */
  get waiting() {
    return !this.session.identifier && !this.closed;
  }

  /** Ends a connection that never logged in, to make room (see the file's comment). */
  pushOut() {
    this.shut('wialon: no login yet, pushed out by a newer connection', false);
  }

  /**
   * A graceful stop: nothing more is read, the line in hand is finished and answered (or, if
   * it cannot be stored, left unanswered: the device sends it again), then the connection
   * ends.
   */
  finish() {
    this.finishing = true;
    if (!this.working) this.shut('wialon: server stopping', true);
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
    if (this.closed || this.finishing) return;
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
        const answer = await this.handle(line);
        if (this.closed) break;
        if (this.finishing) {
          if (answer !== undefined) this.sendLine(`${answer}\r\n`);
          break;
        }
        if (this.session.dropped) {
          this.shut('wialon: refused login not answered, closing', false);
          break;
        }
        if (answer !== undefined) this.sendLine(`${answer}\r\n`);
        if (this.session.refusedLogins >= MAX_LOGIN_FAILURES) {
          this.shut('wialon: too many refused logins, closing', true);
          break;
        }
        this.resumeIfRoom();
      }
    } finally {
      this.working = false;
      if (this.finishing && !this.closed) this.shut('wialon: server stopping', true);
      this.onSettled();
    }
  }

  /**
   * The answer to a line, trying again while it cannot be stored (see the file's comment):
   * nothing is acknowledged that was not stored, and the device keeps its session.
   */
  private async handle(line: string): Promise<string | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.session.handle(line);
      } catch (err) {
        // Stopping, or gone: not answered (the device sends it again, here or elsewhere).
        if (this.closed || this.finishing) return undefined;
        if (attempt === 0)
          this.options.log.error('wialon: failed to store, trying again', {
            err,
            device: this.session.identifier,
          });
        this.socket.pause();
        const pause = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] ?? 5_000;
        await new Promise((resolve) => setTimeout(resolve, pause).unref());
        if (this.closed) return undefined;
      }
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
    loginGraceMs: options.loginGraceMs ?? LOGIN_GRACE_MS,
  };
  const guard = new LoginGuard(limits.loginSlowdownMs, options.log);
  const bad = new BadMessages();
  const connections = new Map<Socket, Connection>();
  /** Each address's connections that have not logged in, oldest first. */
  const waiting = new Map<string, Set<Connection>>();
  const leave = (address: string, connection: Connection) => {
    const set = waiting.get(address);
    if (!set?.delete(connection)) return;
    if (set.size === 0) waiting.delete(address);
  };
  const server = createServer((socket) => {
    const address = socket.remoteAddress ?? '?';
    const set = waiting.get(address) ?? new Set<Connection>();
    if (set.size >= limits.maxConnectionsPerAddress) {
      const oldest = set.values().next().value;
      if (!oldest || Date.now() - oldest.openedAt < limits.loginGraceMs) {
        options.log.warn('wialon: too many connections from one address', { address });
        socket.destroy();
        return;
      }
      set.delete(oldest);
      oldest.pushOut();
    }
    // A connection stays listed until its last line in hand is done, even after it closed.
    const connection: Connection = new Connection(
      socket,
      options,
      limits,
      guard,
      bad,
      () => {
        if (connection.done) connections.delete(socket);
      },
      () => leave(address, connection),
    );
    connections.set(socket, connection);
    set.add(connection);
    waiting.set(address, set);
    socket.once('close', () => leave(address, connection));
  });
  // Devices keep their connections open for days: closing the listener ends them too, each
  // after the line it has in hand (the callback runs when every one is gone).
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const connection of connections.values()) connection.finish();
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
