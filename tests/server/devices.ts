/**
 * Devices as tests drive them: trackers created with their password, a Wialon IPS device on a
 * real TCP connection (send a packet, read its answer), Wialon IPS over UDP, and the
 * protocol's formats (2.0 packets with their CRC, times and places as the protocol writes
 * them).
 */
import { createSocket } from 'node:dgram';
import { connect, type Socket } from 'node:net';
import { crcHex } from '../../server/ingest/wialon/parse';
import type { DeviceProtocol, Tracker } from '../../src/contract';
import type { as } from './harness';

/** The device password the tests' trackers are given (a real one: letters, digits, a dash). */
export const DEVICE_PASSWORD = 'senha-do-aparelho-1';

/** A signed-in user's API caller (harness `as`). */
export type Caller = Awaited<ReturnType<typeof as>>;

/** A tracker of ours with its device password (pass `devicePassword: undefined` for none). */
export async function createTracker(
  caller: Caller,
  fields: {
    clientId: string;
    identifier: string;
    protocol?: DeviceProtocol;
    vehicleId?: string;
    devicePassword?: string | undefined;
    allowUnauthenticated?: boolean;
  },
): Promise<Tracker> {
  const body = { provider: 'rastro', devicePassword: DEVICE_PASSWORD, ...fields };
  const res = await caller.call<Tracker>('POST', '/registros/tracker', body);
  if (res.status !== 201) throw new Error(`tracker ${fields.identifier}: ${res.status}`);
  return res.body;
}

/** A 2.0 packet: the body followed by its CRC. */
export const v2 = (type: string, body: string) => `#${type}#${body}${crcHex(body)}`;

/** A 2.0 login with a password. */
export const login2 = (identifier: string, password = DEVICE_PASSWORD) =>
  v2('L', `2.0;${identifier};${password};`);

/** DDMMYY and HHMMSS of a moment, as the protocol writes them (UTC). */
export function stamp(date: Date) {
  const p = (n: number) => String(n).padStart(2, '0');
  return {
    date: `${p(date.getUTCDate())}${p(date.getUTCMonth() + 1)}${p(date.getUTCFullYear() % 100)}`,
    time: `${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`,
  };
}

/** Recife, in the protocol's DDMM.MMMM: 8°03.2340'S 34°52.8660'W. */
export const RECIFE = '0803.2340;S;03452.8660;W';

/** An extended data body (2.0, ready for `v2('D', …)`) at a moment and place. */
export function dataBody(
  at: Date,
  place = RECIFE,
  rest = { speed: '30', inputs: 'NA', outputs: 'NA', params: 'NA' },
) {
  const { date, time } = stamp(at);
  return `${date};${time};${place};${rest.speed};90;10;8;1.0;${rest.inputs};${rest.outputs};;NA;${rest.params};`;
}

/** A device on one TCP connection: send a packet, read its answer line. */
export class WialonDevice {
  private buffered = '';
  private waiting: ((line: string) => void)[] = [];
  private lines: string[] = [];
  closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf('\r\n'); end >= 0; end = this.buffered.indexOf('\r\n')) {
        const line = this.buffered.slice(0, end);
        this.buffered = this.buffered.slice(end + 2);
        const next = this.waiting.shift();
        if (next) next(line);
        else this.lines.push(line);
      }
    });
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  /** Connects from `localAddress` (another loopback address stands for another device). */
  static open(port: number, localAddress?: string) {
    return new Promise<WialonDevice>((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress }, () =>
        resolve(new WialonDevice(socket)),
      );
      socket.once('error', reject);
    });
  }

  /** The next line from the server (an answer, or a command), within `ms`. */
  answer(ms = 5000): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer')), ms);
      this.waiting.push((l) => {
        clearTimeout(timer);
        resolve(l);
      });
    });
  }

  /** Lines the server wrote that nobody read yet (commands sent unasked). */
  unread(): string[] {
    return this.lines.splice(0);
  }

  async send(packet: string): Promise<string> {
    this.socket.write(`${packet}\r\n`);
    return this.answer();
  }

  close() {
    this.socket.end();
  }
}

/** One UDP datagram to a Wialon IPS listener and its answer (undefined: none within `ms`). */
export function udpExchange(port: number, datagram: string, ms = 3000) {
  return new Promise<string | undefined>((resolve, reject) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      resolve(undefined);
    }, ms);
    socket.on('message', (message) => {
      clearTimeout(timer);
      socket.close();
      resolve(message.toString('utf8').replace(/\r\n$/, ''));
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      socket.close();
      reject(err);
    });
    socket.send(`${datagram}\r\n`, port, '127.0.0.1');
  });
}
