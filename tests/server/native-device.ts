/**
 * The makers' devices as the native protocol tests drive them (native-gt06, native-suntech,
 * native-teltonika, native-queclink): one TCP connection that writes bytes and reads exactly
 * what the server writes back, a UDP exchange, and what those tests do around the device:
 * a truck and its tracker, the positions stored for an IMEI, the last command of a truck.
 *
 * It holds no protocol: the packets stay written by hand in each test, so that the codec and
 * the device helpers of server/ingest/native/ cannot agree on a mistake.
 */
import { createSocket } from 'node:dgram';
import { connect, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import type { NativeProtocol } from '../../server/ingest/native/codecs';
import { rowsOf } from '../../server/platform/db/client';
import type { Command, DeviceProtocol, Vehicle } from '../../src/contract';
import type { CommandHistory } from './api-types';
import { type Caller, createTracker } from './devices';
import type { TestServer } from './harness';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Bytes from hex as the makers' documents print it, in pieces, spaces and line breaks allowed. */
export const hex = (...pieces: string[]) => Buffer.from(pieces.join('').replace(/\s+/g, ''), 'hex');

/**
 * A device on one TCP connection. Every byte the server writes is kept until a test reads it,
 * so a test can check an answer byte for byte (`read`), a text message up to its end mark
 * (`readUntil`, `readText`), or that nothing came at all (`quiet`).
 */
export class NativeDevice {
  private received = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private ended = false;
  /** Settles when the connection is gone (closed by the server, or by `close`). */
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    // A connection the server resets is something the tests look at (`closed`), not a failure.
    socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      }),
    );
  }

  /** Connects from `localAddress` (another loopback address stands for another device). */
  static open(port: number, localAddress?: string) {
    return new Promise<NativeDevice>((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress }, () =>
        resolve(new NativeDevice(socket)),
      );
      socket.once('error', reject);
    });
  }

  /** Whether the connection is gone already (a test may go on writing only while it is not). */
  get isClosed() {
    return this.ended;
  }

  /** What the server wrote that no read took yet (without taking it). */
  get unread(): Buffer {
    return this.received;
  }

  /** Writes bytes, or text (as UTF-8, as a socket writes a string). */
  write(data: Buffer | string) {
    this.socket.write(data);
  }

  /** The next `n` bytes the server writes, within `ms`. */
  read(n: number, ms = 5000): Promise<Buffer> {
    return this.take(() => (this.received.length >= n ? n : -1), `${n} bytes`, ms);
  }

  /** The bytes the server writes up to and with `terminator` (a text protocol's end mark). */
  readUntil(terminator: string | Buffer, ms = 5000): Promise<Buffer> {
    const mark = typeof terminator === 'string' ? Buffer.from(terminator, 'latin1') : terminator;
    return this.take(
      () => {
        const at = this.received.indexOf(mark);
        return at < 0 ? -1 : at + mark.length;
      },
      `a message ending in ${JSON.stringify(mark.toString('latin1'))}`,
      ms,
    );
  }

  /** `readUntil` as text: the makers' text protocols are ASCII, read byte for byte (latin1). */
  async readText(terminator: string, ms = 5000): Promise<string> {
    return (await this.readUntil(terminator, ms)).toString('latin1');
  }

  /** Writes a packet and reads its `n`-byte answer. */
  send(data: Buffer | string, n: number, ms = 5000): Promise<Buffer> {
    this.write(data);
    return this.read(n, ms);
  }

  /** Writes a message and reads the answer up to `terminator`, as text. */
  sendText(data: Buffer | string, terminator: string, ms = 5000): Promise<string> {
    this.write(data);
    return this.readText(terminator, ms);
  }

  /** Writes a message that must go unanswered; returns what came within `ms` (quiet). */
  unanswered(data: Buffer | string, ms = 400): Promise<Buffer> {
    this.write(data);
    return this.quiet(ms);
  }

  /**
   * Everything the server wrote within `ms`, taken (an empty buffer: nothing). Waiting the whole
   * time is the point: it is how a test sees that something was not answered.
   */
  async quiet(ms = 400): Promise<Buffer> {
    await sleep(ms);
    const out = this.received;
    this.received = Buffer.alloc(0);
    return out;
  }

  close() {
    this.socket.destroy();
  }

  private wake() {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /**
   * Waits until `end()` finds where what the test wants ends in the received bytes (-1: not
   * there yet), then takes those bytes. Fails after `ms`, or at once when the connection is
   * gone, since no more bytes can come; the message shows what did come.
   */
  private async take(end: () => number, what: string, ms: number): Promise<Buffer> {
    const until = Date.now() + ms;
    for (let at = end(); at < 0; at = end()) {
      const left = until - Date.now();
      if (left <= 0 || this.ended)
        throw new Error(`expected ${what}, got ${this.received.toString('hex') || 'nothing'}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const at = end();
    const out = Buffer.from(this.received.subarray(0, at));
    this.received = this.received.subarray(at);
    return out;
  }
}

/**
 * Sends one datagram from a fresh socket and returns every answer: none within `ms` is an
 * empty list. After the first answer it listens 50 ms more, so that a test that expects one
 * answer also sees a second one the server should not have sent.
 */
export async function udpExchange(
  port: number,
  datagram: Buffer | string,
  ms = 2000,
): Promise<Buffer[]> {
  const socket = createSocket('udp4');
  const answers: Buffer[] = [];
  let failure: Error | undefined;
  let heard = () => {};
  socket.on('message', (message) => {
    answers.push(message);
    heard();
  });
  socket.on('error', (err) => {
    failure = err;
    heard();
  });
  try {
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      heard = () => {
        clearTimeout(timer);
        resolve();
      };
      socket.send(datagram, port, '127.0.0.1');
    });
    if (failure) throw failure;
    if (answers.length > 0) await sleep(50);
  } finally {
    socket.close();
  }
  return answers;
}

/** The port of a makers' listener the test server started (`useServer(…, { GT06_PORT: '0' })`). */
export function nativePort(s: TestServer, protocol: NativeProtocol) {
  const port = s.nativePorts[protocol];
  if (port === undefined) throw new Error(`no ${protocol} listener: set its port to '0'`);
  return port;
}

/** The counters of that listener (connections, malformed messages …) as they stand now. */
export function nativeStats(s: TestServer, protocol: NativeProtocol) {
  const listener = s.nativeListeners[protocol];
  if (!listener) throw new Error(`no ${protocol} listener: set its port to '0'`);
  return listener.stats();
}

/** A truck of `clientId`: commands are sent to a vehicle, not to its tracker. */
export async function createVehicle(
  caller: Caller,
  clientId: string,
  plate: string,
  name = `Caminhão ${plate}`,
): Promise<string> {
  const res = await caller.call<Vehicle>('POST', '/registros/vehicle', {
    clientId,
    name,
    plate,
    type: 'truck',
  });
  if (res.status !== 201) throw new Error(`vehicle ${plate}: ${res.status}`);
  return res.body.id;
}

/**
 * A tracker of a makers' protocol. These devices name themselves by IMEI alone and send no
 * password, so the tracker is given none.
 */
export function createNativeTracker(
  caller: Caller,
  fields: { clientId: string; identifier: string; protocol: DeviceProtocol; vehicleId?: string },
) {
  return createTracker(caller, { ...fields, devicePassword: undefined });
}

/** Sends the block or unblock command to a truck, as the operator's button does. */
export function sendCommand(caller: Caller, kind: 'block' | 'unblock', vehicleId: string) {
  return caller.call<Command>('PUT', `/registros/commands/${kind}?vehicleId=${vehicleId}`);
}

/** The newest command of a truck as its history lists it (tests poll its status). */
export async function lastCommand(caller: Caller, vehicleId: string) {
  const res = await caller.call<CommandHistory>(
    'GET',
    `/registros/commands?vehicleId=${vehicleId}`,
  );
  return res.body.commands[0];
}

/** A stored position as the tests read it back: the columns a device's report fills. */
export interface StoredPosition {
  fix_time: Date | string;
  /** `fix_time` in whole seconds, for exact comparison with what a device sent. */
  epoch: number;
  latitude: number;
  longitude: number;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  ignition: boolean | null;
  battery: number | null;
  driver_rfid: string | null;
  valid: boolean | null;
  /** Never null here: the native listener stores every report with its attributes. */
  attributes: Record<string, unknown>;
}

/**
 * The positions stored for the tracker `identifier`, oldest fix first. Read from the database,
 * not the API, so that a test sees exactly what the pipeline wrote.
 */
export async function storedPositions(s: TestServer, identifier: string) {
  return rowsOf<StoredPosition>(
    await s.deps.database.db.execute(sql`
      select p.fix_time, floor(extract(epoch from p.fix_time))::int as epoch, p.latitude,
             p.longitude, p.speed, p.course, p.altitude, p.ignition, p.battery, p.driver_rfid,
             p.valid, p.attributes
        from positions p join trackers t on t.id = p.tracker_id
       where t.identifier = ${identifier} order by p.fix_time`),
  );
}
