/**
 * The listener of a makers' protocol (codec.ts), over TCP and UDP on one port number.
 *
 * TCP: one connection per device. Its bytes are split into messages by the codec, which wait
 * in a short queue and are handled one at a time, in order: decoded, the device's identity
 * checked when it names itself (its IMEI on the protocol its tracker is bound to:
 * server/ingest/identity.ts), the fixes stored, and only then the answer written. A device thus
 * never hears an acknowledgement of what was not committed, and resends it. When the database
 * is away the message in hand is tried again after a growing pause, and reading stops
 * meanwhile (TCP pushes back on the device); a message that can never be stored (a conflict,
 * a value the database refuses) is still answered, counted and shown on the tracker's page,
 * because a binary device has no way to skip it and would resend it forever.
 *
 * Bounds: unread bytes (MAX_BUFFER: more without a whole message is noise, the connection is
 * closed), queued messages and unsent answers (reading pauses), a login deadline, refused
 * logins per connection, and an idle timeout. A malformed message costs only itself.
 *
 * A logged-in connection is the device's link for commands (server/ingest/downlink.ts): the
 * payload is written by the codec, and the device's answer confirms or fails the command. A
 * connection speaks for the first device it names; a message naming another is refused.
 *
 * UDP: every datagram names its device and is answered to the address it came from after its
 * fixes are committed. No command goes over UDP (there is no session to answer on).
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '../../platform/log';
import { checkFix, checkIdentifier } from '../bounds';
import type { DeviceStatus } from '../device-status';
import type { DeviceLink, Downlink, LinkHandle } from '../downlink';
import { checkIdentity, type DeviceAuth, type DeviceSource } from '../identity';
import type { Pipeline } from '../pipeline';
import type { DeviceLogin, Fix } from '../queries/positions';
import { type Codec, CodecError, type DecodeContext, type Decoded } from './codec';

/** Unread bytes of a connection without a whole message in them. */
export const MAX_BUFFER = 64 * 1024;
/** Messages waiting to be handled, and bytes of answers not yet taken, per connection. */
export const QUEUE_MESSAGES = 64;
export const UNSENT_BYTES = 64 * 1024;
/** Logins refused on one connection before it is closed (a scan of identifiers). */
export const MAX_REFUSED_LOGINS = 3;
/** UDP datagrams worked on at once; more are dropped and counted. */
export const MAX_UDP_IN_FLIGHT = 5_000;
const IDLE_MS = 10 * 60_000;
const RETRY_MS = [250, 1_000, 2_000, 5_000];

export interface NativeOptions {
  codec: Codec;
  port: number;
  host: string;
  pipeline: Pipeline;
  log: Logger;
  downlink?: Downlink | undefined;
  status?: DeviceStatus | undefined;
  auth?: DeviceAuth | undefined;
  /** A connection must name its device within this time (default 60 s). */
  loginTimeoutMs?: number | undefined;
  /** Also listen on UDP on the same port number (when the codec speaks it). */
  udp?: boolean | undefined;
}

export interface NativeListener {
  port: number;
  stats(): {
    connections: number;
    queued: number;
    udpReceived: number;
    udpDropped: number;
    malformed: number;
  };
  /** Stops taking connections, lets each finish the message in hand, then closes. */
  close(): Promise<void>;
}

/** One message's fixes, with those out of bounds dropped; the count dropped. */
function sound(fixes: Fix[], now: number) {
  const kept: Fix[] = [];
  let dropped = 0;
  for (const fix of fixes) {
    // Future fixes are the pipeline's to refuse and count (INGEST_MAX_FUTURE_SECONDS).
    if (checkFix(fix, { now, maxFutureSeconds: Number.POSITIVE_INFINITY })) dropped += 1;
    else kept.push(fix);
  }
  return { kept, dropped };
}

interface Counters {
  malformed: number;
}

class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly queue: Buffer[] = [];
  private working = false;
  private closed = false;
  private finishing = false;
  private identifier: string | undefined;
  private device: DeviceLogin | undefined;
  private authenticated = false;
  private refusedLogins = 0;
  private serial = 0;
  private link: { handle: LinkHandle; link: DeviceLink } | undefined;
  private readonly address: string;
  private readonly deadline: NodeJS.Timeout;

  constructor(
    private readonly socket: Socket,
    private readonly options: NativeOptions,
    private readonly counters: Counters,
    private readonly onClosed: () => void,
  ) {
    this.address = socket.remoteAddress ?? '?';
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    socket.setNoDelay(true);
    this.deadline = setTimeout(() => {
      if (!this.identifier) this.shut('no login in time');
    }, options.loginTimeoutMs ?? 60_000);
    this.deadline.unref();
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('drain', () => this.resumeIfRoom());
    socket.on('error', (err) =>
      options.log.debug(`${options.codec.name}: connection error`, { err: err.message }),
    );
    socket.on('close', () => {
      clearTimeout(this.deadline);
      this.closed = true;
      this.queue.length = 0;
      this.link?.handle.detach();
      this.onClosed();
    });
  }

  get queued() {
    return this.queue.length;
  }

  get done() {
    return this.closed && !this.working;
  }

  finish() {
    this.finishing = true;
    if (!this.working) this.shut('server stopping');
  }

  private shut(why: string) {
    if (this.closed) return;
    this.options.log.debug(`${this.options.codec.name}: closing`, { why, device: this.identifier });
    this.socket.end();
    this.socket.destroySoon();
  }

  private read(chunk: Buffer) {
    if (this.finishing) return;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      let framed: ReturnType<Codec['frame']>;
      try {
        framed = this.options.codec.frame(this.buffer, this.identifier !== undefined);
      } catch (err) {
        // A framer that cannot make sense of the stream: nothing more can be read from it.
        this.options.log.debug(`${this.options.codec.name}: unreadable stream`, { err });
        this.socket.destroy();
        return;
      }
      if (!framed) break;
      if ('skip' in framed) {
        this.counters.malformed += 1;
        this.buffer = this.buffer.subarray(Math.max(1, framed.skip));
        continue;
      }
      this.buffer = this.buffer.subarray(framed.length);
      this.queue.push(Buffer.from(framed.frame));
    }
    if (this.buffer.length > MAX_BUFFER) {
      this.options.log.debug(`${this.options.codec.name}: no message in too many bytes`);
      this.socket.destroy();
      return;
    }
    if (this.queue.length >= QUEUE_MESSAGES) this.socket.pause();
    void this.work();
  }

  private resumeIfRoom() {
    if (
      !this.closed &&
      !this.finishing &&
      this.queue.length < QUEUE_MESSAGES &&
      this.socket.writableLength < UNSENT_BYTES
    )
      this.socket.resume();
  }

  private write(bytes: Buffer): boolean {
    if (this.closed || this.socket.destroyed) return false;
    this.socket.write(bytes);
    if (this.socket.writableLength >= UNSENT_BYTES) this.socket.pause();
    return true;
  }

  private async work() {
    if (this.working) return;
    this.working = true;
    try {
      while (!this.closed) {
        const frame = this.queue.shift();
        if (!frame) break;
        for (let attempt = 0; ; attempt++) {
          try {
            await this.handle(frame);
            break;
          } catch (err) {
            if (this.closed || this.finishing) return;
            this.options.log.warn(`${this.options.codec.name}: message not stored, will retry`, {
              device: this.identifier,
              err,
            });
            const pause = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] ?? 5_000;
            await new Promise((resolve) => setTimeout(resolve, pause));
          }
        }
        this.resumeIfRoom();
        if (this.finishing) break;
      }
    } finally {
      this.working = false;
      if (this.finishing) this.shut('server stopping');
    }
  }

  private context(): DecodeContext {
    return { identifier: this.identifier, transport: 'tcp', now: new Date() };
  }

  private async handle(frame: Buffer) {
    const { codec, log } = this.options;
    const ctx = this.context();
    let decoded: Decoded;
    try {
      decoded = codec.decode(frame, ctx);
    } catch (err) {
      if (!(err instanceof CodecError)) throw err;
      this.counters.malformed += 1;
      log.debug(`${codec.name}: malformed message`, { device: this.identifier, why: err.message });
      if (this.device) {
        this.options.status?.refused(this.device.id, codec.protocol, this.address, 'malformed');
        // Only a known device hears the answer to what could not be read (its protocol's way to
        // move on); before it named itself, nobody is answered anything.
        if (err.reply) this.write(err.reply);
      }
      return;
    }
    const named = decoded.identifier;
    if (named !== undefined && named !== this.identifier) {
      if (this.identifier !== undefined) {
        // One connection, one device: another IMEI here is not this device's to speak for.
        log.debug(`${codec.name}: another device on a bound connection`, {
          device: this.identifier,
          named,
        });
        return;
      }
      if (!(await this.login(named, ctx))) return;
    }
    if (!this.identifier || !this.device) {
      // A message before the device named itself (GT06 position before its login): no one's.
      log.debug(`${codec.name}: message before login`);
      return;
    }
    if (decoded.fixes.length && !(await this.store(decoded.fixes, ctx.now))) return;
    if (decoded.reply) this.write(decoded.reply);
    if (decoded.heartbeat)
      this.options.status?.heartbeat(this.device.id, codec.protocol, this.address);
    if (decoded.answer && this.link)
      await this.options.downlink?.answered(this.device.id, this.link.link, decoded.answer);
    this.link?.handle.heard();
  }

  /** A device names itself: its tracker must be known and bound to this protocol. */
  private async login(identifier: string, ctx: DecodeContext): Promise<boolean> {
    const { codec, pipeline, status } = this.options;
    const device = checkIdentifier(identifier) ? undefined : await pipeline.device(identifier);
    const identity = checkIdentity(
      device,
      { protocol: codec.protocol, address: this.address, credential: { kind: 'imei' } },
      this.options.auth ?? 'required',
    );
    if (!identity.ok || !device) {
      status?.login({
        identifier: identifier.slice(0, 64),
        trackerId: device?.id,
        protocol: codec.protocol,
        address: this.address,
        refusal: identity.ok ? 'unknown_device' : identity.reason,
      });
      const reply = codec.refuse?.(ctx);
      if (reply) this.write(reply);
      this.refusedLogins += 1;
      if (this.refusedLogins >= MAX_REFUSED_LOGINS) this.shut('too many refused logins');
      return false;
    }
    clearTimeout(this.deadline);
    this.identifier = identifier;
    this.device = device;
    this.authenticated = identity.authenticated;
    status?.login({
      identifier,
      trackerId: device.id,
      protocol: codec.protocol,
      address: this.address,
      authenticated: identity.authenticated,
    });
    const link: DeviceLink = {
      send: (payload) => {
        const bytes = codec.encodeCommand(payload, {
          identifier,
          serial: ++this.serial,
          password: device.commandPassword ?? undefined,
        });
        return bytes ? this.write(bytes) : false;
      },
      address: this.address,
      authenticated: this.authenticated,
      close: () => this.shut('replaced by a newer session of the device'),
    };
    const handle = this.options.downlink?.connected(device.id, link);
    this.link = handle ? { handle, link } : undefined;
    return true;
  }

  /** Stores a message's fixes; false when its tracker no longer takes this device. */
  private async store(fixes: Fix[], now: Date): Promise<boolean> {
    const { codec, pipeline } = this.options;
    const { kept, dropped } = sound(fixes, now.getTime());
    if (dropped && this.device) {
      this.counters.malformed += dropped;
      this.options.status?.refused(this.device.id, codec.protocol, this.address, 'malformed');
    }
    if (!kept.length || !this.identifier) return true;
    const source: DeviceSource = {
      protocol: codec.protocol,
      address: this.address,
      credential: { kind: 'imei' },
    };
    const result = await pipeline.accept(this.identifier, kept, source);
    if (result.status === 'ok') return true;
    // Deactivated, or bound to another protocol since the login: not answered, and gone.
    this.shut('tracker no longer takes this device');
    return false;
  }
}

/** Starts the TCP listener (and the UDP one on the same port number, when asked). */
export async function startNative(options: NativeOptions): Promise<NativeListener> {
  const { codec, log } = options;
  const connections = new Set<Connection>();
  const counters: Counters = { malformed: 0 };
  const server: Server = createServer((socket) => {
    const connection = new Connection(socket, options, counters, () =>
      connections.delete(connection),
    );
    connections.add(connection);
  });
  server.on('error', (err) => log.warn(`${codec.name}: listener error`, { err }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as { port: number }).port;
  log.info(`${codec.name} listening`, { port });
  const udp = options.udp && codec.datagram ? await startUdp(options, port, counters) : undefined;
  return {
    port,
    stats: () => ({
      connections: connections.size,
      queued: [...connections].reduce((sum, c) => sum + c.queued, 0),
      udpReceived: udp?.received() ?? 0,
      udpDropped: udp?.dropped() ?? 0,
      malformed: counters.malformed,
    }),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const c of connections) c.finish();
      await udp?.close();
      const until = Date.now() + 10_000;
      while ([...connections].some((c) => !c.done) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await closed;
    },
  };
}

async function startUdp(options: NativeOptions, port: number, counters: Counters) {
  const { codec, log, pipeline } = options;
  const socket: UdpSocket = createSocket(options.host.includes(':') ? 'udp6' : 'udp4');
  let received = 0;
  let dropped = 0;
  let inFlight = 0;

  async function answer(datagram: Buffer, address: string, remotePort: number) {
    const ctx: DecodeContext = { identifier: undefined, transport: 'udp', now: new Date() };
    let messages: Decoded[];
    try {
      messages = codec.datagram?.(datagram, ctx) ?? [];
    } catch (err) {
      if (!(err instanceof CodecError)) throw err;
      // Unanswered: a datagram that cannot be read names no device to answer for.
      counters.malformed += 1;
      return;
    }
    for (const message of messages) {
      const identifier = message.identifier;
      if (!identifier || checkIdentifier(identifier)) continue;
      const { kept, dropped: bad } = sound(message.fixes, ctx.now.getTime());
      counters.malformed += bad;
      if (kept.length) {
        const result = await pipeline.accept(identifier, kept, {
          protocol: codec.protocol,
          address,
          credential: { kind: 'imei' },
        });
        // Unknown or refused: no answer, as for an unknown identifier over TCP.
        if (result.status !== 'ok') continue;
      } else {
        const device = await pipeline.device(identifier);
        const identity = checkIdentity(
          device,
          { protocol: codec.protocol, address, credential: { kind: 'imei' } },
          options.auth ?? 'required',
        );
        if (!identity.ok || !device) continue;
        if (message.heartbeat) options.status?.heartbeat(device.id, codec.protocol, address);
      }
      if (message.reply) socket.send(message.reply, remotePort, address);
    }
  }

  socket.on('message', (message, remote) => {
    received += 1;
    if (inFlight >= MAX_UDP_IN_FLIGHT) {
      dropped += 1;
      return;
    }
    inFlight += 1;
    answer(message, remote.address, remote.port)
      .catch((err: unknown) =>
        // Not answered: the device sends the datagram again.
        log.warn(`${codec.name} udp: not stored, not answered`, { err }),
      )
      .finally(() => {
        inFlight -= 1;
      });
  });
  socket.on('error', (err) => log.warn(`${codec.name} udp: socket error`, { err }));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, options.host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  log.info(`${codec.name} (UDP) listening`, { port });
  return {
    received: () => received,
    dropped: () => dropped,
    close: () => new Promise<void>((done) => socket.close(() => done())),
  };
}
