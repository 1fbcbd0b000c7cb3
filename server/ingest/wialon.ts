/**
 * Wialon IPS 1.1 and 2.0 over TCP, as Gurtam documents it: text packets `#TYPE#body\r\n`.
 *
 * - `#L#imei;password` (1.1) or `#L#2.0;imei;password;crc` (2.0) → `#AL#1` accepted,
 *   `#AL#0` refused (unknown device or malformed), `#AL#01` wrong password, `#AL#10` bad CRC.
 * - `#SD#date;time;lat;N;lon;E;speed;course;alt;sats` → `#ASD#` -1 structure, 0 time,
 *   1 stored, 10 coordinates, 11 speed/course/altitude, 12 satellites, 13 CRC (2.0).
 * - `#D#…;sats;hdop;inputs;outputs;adc;ibutton;params` → `#AD#` -1, 0, 1, 10, 11,
 *   12 satellites/HDOP, 13 inputs/outputs, 14 ADC, 15 parameters, 16 CRC (2.0).
 * - `#B#msg|msg|…` (2.0: `…|crc`) black box → `#AB#n`, the number of messages stored.
 * - `#P#` → `#AP#`; `#M#text` → `#AM#1`.
 *
 * `NA` stands for a missing value in any field. In 2.0 every packet ends with the CRC-16/ARC
 * of its body up to and including the last separator, as four hex digits. The answer to a
 * data packet is written only after its fixes are committed; a malformed line gets its error
 * code and never closes the connection or touches another device's data.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Fix } from '../db/positions';
import type { Logger } from '../log';
import type { Pipeline } from './pipeline';

const MAX_LINE = 64 * 1024;
const IDLE_MS = 10 * 60_000;

/** CRC-16/ARC (poly 0x8005 reflected, init 0), as Wialon IPS 2.0 uses. */
export function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

export const crcHex = (text: string) => crc16(text).toString(16).toUpperCase().padStart(4, '0');

/** Splits a 2.0 body into what the CRC covers and the CRC it carries; undefined when bad. */
function checkCrc(body: string, separator: ';' | '|'): string | undefined {
  const at = body.lastIndexOf(separator);
  if (at < 0) return undefined;
  const covered = body.slice(0, at + 1);
  const given = body.slice(at + 1);
  if (!/^[0-9a-fA-F]{1,4}$/.test(given) || Number.parseInt(given, 16) !== crc16(covered))
    return undefined;
  return body.slice(0, at);
}

const NA = (value: string | undefined) => value === undefined || value === '' || value === 'NA';

/** A field that is NA (undefined) or a finite number; null when it is neither. */
function numeric(value: string | undefined): number | undefined | null {
  if (NA(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

class Refused extends Error {
  constructor(readonly code: number) {
    super(`code ${code}`);
  }
}

function must<T>(value: T | null, code: number): T {
  if (value === null) throw new Refused(code);
  return value;
}

/** DDMMYY + HHMMSS (UTC); NA in both means the time the server received it. */
function parseTime(date: string | undefined, time: string | undefined, now: Date): Date {
  if (NA(date) && NA(time)) return now;
  const d = /^(\d{2})(\d{2})(\d{2})$/.exec(date ?? '');
  const t = /^(\d{2})(\d{2})(\d{2})(\.\d+)?$/.exec(time ?? '');
  if (!d || !t) throw new Refused(0);
  const [day, month, year] = [Number(d[1]), Number(d[2]), 2000 + Number(d[3])];
  const [hour, minute, second] = [Number(t[1]), Number(t[2]), Number(t[3])];
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    at.getUTCDate() !== day ||
    at.getUTCMonth() !== month - 1 ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    throw new Refused(0);
  return at;
}

/** DDMM.MMMM / DDDMM.MMMM with its hemisphere letter, to signed decimal degrees. */
function parseCoordinate(value: string | undefined, side: string | undefined, max: number) {
  const n = Number(value);
  if (NA(value) || !Number.isFinite(n) || n < 0) throw new Refused(10);
  const degrees = Math.floor(n / 100);
  const minutes = n - degrees * 100;
  const decimal = degrees + minutes / 60;
  if (minutes >= 60 || decimal > max) throw new Refused(10);
  const negative = side === 'S' || side === 'W';
  if (!negative && side !== 'N' && side !== 'E') throw new Refused(10);
  if ((max === 90) !== (side === 'N' || side === 'S')) throw new Refused(10);
  return negative ? -decimal : decimal;
}

/** `name:type:value,…` with type 1 integer, 2 real, 3 text. */
function parseParams(text: string | undefined): Record<string, number | string> {
  const params: Record<string, number | string> = {};
  if (NA(text)) return params;
  for (const item of (text as string).split(',')) {
    const first = item.indexOf(':');
    const second = item.indexOf(':', first + 1);
    if (first <= 0 || second < 0) throw new Refused(15);
    const name = item.slice(0, first);
    const type = item.slice(first + 1, second);
    const raw = item.slice(second + 1);
    if (type === '3') params[name] = raw;
    else if (type === '1' || type === '2') {
      const n = Number(raw);
      if (raw === '' || !Number.isFinite(n) || (type === '1' && !Number.isInteger(n)))
        throw new Refused(15);
      params[name] = n;
    } else throw new Refused(15);
  }
  return params;
}

const IGNITION = ['ign', 'ignition', 'engine_on'];
const BATTERY = ['batt', 'battery', 'bat_level', 'battery_level'];

/**
 * One fix from the fields of a short (10 fields) or extended (16 fields) message. Throws
 * `Refused` with the protocol's code for the first field in error.
 */
export function parseFix(fields: string[], extended: boolean, now = new Date()): Fix {
  if (fields.length !== (extended ? 16 : 10)) throw new Refused(-1);
  const [date, time, lat, latSide, lon, lonSide, speed, course, altitude, sats] = fields;
  const fixTime = parseTime(date, time, now);
  const latitude = parseCoordinate(lat, latSide, 90);
  const longitude = parseCoordinate(lon, lonSide, 180);
  const kmh = must(numeric(speed), 11);
  const heading = must(numeric(course), 11);
  const meters = must(numeric(altitude), 11);
  if ((kmh ?? 0) < 0 || (heading ?? 0) < 0 || (heading ?? 0) > 360) throw new Refused(11);
  const satellites = must(numeric(sats), 12);
  if (satellites !== undefined && (!Number.isInteger(satellites) || satellites < 0))
    throw new Refused(12);
  const attributes: Record<string, unknown> = {};
  if (satellites !== undefined) attributes.sat = satellites;
  const fix: Fix = {
    fixTime,
    latitude,
    longitude,
    speed: kmh,
    course: heading,
    altitude: meters,
    attributes,
  };
  if (!extended) return fix;

  const [hdop, inputs, outputs, adc, ibutton, params] = fields.slice(10);
  const dilution = must(numeric(hdop), 12);
  if (dilution !== undefined) attributes.hdop = dilution;
  for (const [name, value] of [
    ['inputs', inputs],
    ['outputs', outputs],
  ] as const) {
    const bits = must(numeric(value), 13);
    if (bits === undefined) continue;
    if (!Number.isInteger(bits) || bits < 0) throw new Refused(13);
    attributes[name] = bits;
    if (name === 'inputs') attributes.din1 = (bits & 1) === 1;
  }
  if (!NA(adc)) {
    (adc as string).split(',').forEach((value, i) => {
      const n = must(numeric(value), 14);
      if (n !== undefined) attributes[`adc${i + 1}`] = n;
    });
  }
  if (!NA(ibutton)) fix.driverRfid = (ibutton as string).toUpperCase();
  for (const [name, value] of Object.entries(parseParams(params))) {
    const key = name.toLowerCase();
    if (IGNITION.includes(key)) fix.ignition = value === 1 || value === '1' || value === 'true';
    else if (BATTERY.includes(key) && typeof value === 'number') fix.battery = value;
    attributes[name] = value;
  }
  return fix;
}

export interface WialonOptions {
  pipeline: Pipeline;
  log: Logger;
  /** When set, a login with another password is answered `#AL#01`. */
  password?: string | undefined;
}

/** One connection's state: which device logged in, and with which protocol version. */
export class WialonSession {
  identifier: string | undefined;
  version: '1.1' | '2.0' = '1.1';

  constructor(private readonly options: WialonOptions) {}

  /** The answer to one packet (without CRLF), or undefined when none is due. */
  async handle(line: string, now = new Date()): Promise<string | undefined> {
    const match = /^#([A-Z]+)#(.*)$/s.exec(line);
    if (!match) {
      this.options.log.debug('wialon: not a packet', { line: line.slice(0, 80) });
      return undefined;
    }
    const [, type, body = ''] = match;
    switch (type) {
      case 'L':
        return `#AL#${await this.login(body)}`;
      case 'P':
        return '#AP#';
      case 'SD':
      case 'D':
        return `#A${type}#${await this.data(type, body, now)}`;
      case 'B':
        return `#AB#${await this.blackBox(body, now)}`;
      case 'M':
        return this.identifier ? '#AM#1' : '#AM#0';
      default:
        this.options.log.debug('wialon: unknown packet', { type });
        return undefined;
    }
  }

  private async login(body: string): Promise<string> {
    const fields = body.split(';');
    let identifier: string | undefined;
    let password: string | undefined;
    if (fields[0] === '2.0') {
      if (fields.length !== 4) return '0';
      if (!checkCrc(body, ';')) return '10';
      [, identifier, password] = fields;
      this.version = '2.0';
    } else {
      if (fields.length !== 2) return '0';
      [identifier, password] = fields;
      this.version = '1.1';
    }
    if (!identifier || NA(identifier)) return '0';
    if (this.options.password !== undefined && password !== this.options.password) return '01';
    if (!(await this.options.pipeline.knows(identifier))) {
      this.options.log.debug('wialon: unknown device', { identifier });
      return '0';
    }
    this.identifier = identifier;
    return '1';
  }

  /** The fields of a body; undefined when a 2.0 body's CRC does not match. */
  private fieldsOf(body: string, separator: ';' | '|'): string[] | undefined {
    const covered = this.version === '2.0' ? checkCrc(body, separator) : body;
    return covered?.split(separator);
  }

  private async data(type: 'SD' | 'D', body: string, now: Date): Promise<number> {
    if (!this.identifier) return -1;
    const fields = this.fieldsOf(body, ';');
    if (!fields) return type === 'SD' ? 13 : 16;
    let fix: Fix;
    try {
      fix = parseFix(fields, type === 'D', now);
    } catch (err) {
      if (err instanceof Refused) return err.code;
      throw err;
    }
    const result = await this.options.pipeline.accept(this.identifier, [fix]);
    return result.status === 'ok' ? 1 : -1;
  }

  private async blackBox(body: string, now: Date): Promise<number> {
    if (!this.identifier) return 0;
    const messages = this.fieldsOf(body, '|');
    if (!messages) return 0;
    const fixes: Fix[] = [];
    for (const message of messages) {
      const fields = message.split(';');
      try {
        fixes.push(parseFix(fields, fields.length === 16, now));
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        this.options.log.debug('wialon: black box message refused', { code: err.code });
      }
    }
    if (fixes.length === 0) return 0;
    const result = await this.options.pipeline.accept(this.identifier, fixes);
    // Every valid message is registered: stored, or filtered/repeated by policy.
    return result.status === 'ok' ? fixes.length : 0;
  }
}

/** Splits a socket's bytes into lines and answers each in order, after its commit. */
function serve(socket: Socket, options: WialonOptions) {
  const session = new WialonSession(options);
  let buffered = '';
  let chain: Promise<void> = Promise.resolve();
  socket.setEncoding('utf8');
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  socket.on('error', (err) => options.log.debug('wialon: connection error', { err: err.message }));
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end = buffered.indexOf('\n');
    while (end >= 0) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      if (line !== '')
        chain = chain
          .then(() => session.handle(line))
          .then((answer) => {
            if (answer !== undefined && !socket.destroyed) socket.write(`${answer}\r\n`);
          })
          .catch((err: unknown) => {
            // Not acknowledged: the device keeps the message and sends it again.
            options.log.error('wialon: failed to store', { err, device: session.identifier });
          });
      end = buffered.indexOf('\n');
    }
    if (buffered.length > MAX_LINE) {
      options.log.warn('wialon: line too long, closing', { device: session.identifier });
      socket.destroy();
    }
  });
}

export function startWialon(
  options: WialonOptions & { port: number; host: string },
): Promise<Server & { port: number }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serve(socket, options);
  });
  // Devices keep their connections open for days: closing the listener ends them too.
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const socket of sockets) socket.destroy();
    return close(callback);
  };
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      options.log.info('Wialon IPS listening', { port });
      resolve(Object.assign(server, { port }));
    });
  });
}
