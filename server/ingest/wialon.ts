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
 * code and never closes the connection or touches another device's data. A value out of the
 * physical bounds (server/ingest/bounds.ts) gets the code of its field, like a malformed one.
 *
 * Logins: a tracker may have its own password. Then only it logs the device in, and a wrong
 * one is answered exactly as an unknown identifier with that password would be (`#AL#0`, or
 * `#AL#01` when WIALON_IPS_PASSWORD is set and differs), so identifiers cannot be probed.
 * Guessing is slowed (LoginGuard): the refused logins of an identifier, known or not, and
 * the wrong global passwords are answered one at a time, each later than the one before it
 * (up to 8 s apart); one that would wait longer is not answered and its connection is closed,
 * and a connection is closed after MAX_LOGIN_FAILURES refusals. A right password is never
 * delayed, so a guesser cannot keep the device itself out.
 *
 * Each connection is bounded: lines wait in a short queue and answers in the socket's
 * buffer; past either bound the socket stops being read (TCP pushes back on the device) until
 * they drain. A connection must log in within the login deadline; one address may hold only
 * so many connections; queued lines of a connection that closed are dropped, not processed.
 * Commands (server/ingest/downlink.ts) go out on the logged-in connection.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { Fix } from '../db/positions';
import type { Logger } from '../log';
import { type BoundedField, checkFix, checkIdentifier, type Violation } from './bounds';
import { canonicalize, WIALON_ALIASES } from './canonical';
import type { Downlink } from './downlink';
import type { Pipeline } from './pipeline';

const MAX_LINE = 64 * 1024;
const IDLE_MS = 10 * 60_000;
/** Per connection: lines waiting to be handled, and bytes of answers not yet taken. */
export const QUEUE_LINES = 64;
export const QUEUE_BYTES = 256 * 1024;
export const UNSENT_BYTES = 64 * 1024;

/**
 * CRC-16/ARC (poly 0x8005 reflected, init 0), as Wialon IPS 2.0 uses, over the bytes of `text`
 * in `encoding`: 'latin1' for a line as received (one character per byte, see `decodeText`).
 */
export function crc16(text: string, encoding: 'utf8' | 'latin1' = 'utf8'): number {
  let crc = 0;
  for (const byte of Buffer.from(text, encoding)) {
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
  if (!/^[0-9a-fA-F]{1,4}$/.test(given) || Number.parseInt(given, 16) !== crc16(covered, 'latin1'))
    return undefined;
  return body.slice(0, at);
}

/** Refuses bytes that are no UTF-8, instead of turning them into U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Lines are read one character per byte (latin1), so that the CRC covers the bytes the device
 * sent; their text is then UTF-8 when it is valid UTF-8, else the ISO-8859-1 it was read as
 * (a 'versão' from a Latin-1 tracker). Read as UTF-8 at once, its bytes became U+FFFD and the
 * CRC of every such packet failed.
 */
export function decodeText(raw: string): string {
  // Plain ASCII (almost every line) is the same either way.
  if (!/[\u0080-\u00ff]/.test(raw)) return raw;
  try {
    return UTF8.decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}

const NA = (value: string | undefined) => value === undefined || value === '' || value === 'NA';

/** A field that is NA (undefined) or a finite number; null when it is neither. */
function numeric(value: string | undefined): number | undefined | null {
  if (NA(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

export class Refused extends Error {
  constructor(
    readonly code: number,
    readonly reason = `code ${code}`,
  ) {
    super(reason);
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

/** The answer code of a value out of bounds, per field, in short and extended data. */
function violationCode(violation: Violation, extended: boolean): number {
  const codes: Record<BoundedField, number> = {
    fixTime: 0,
    latitude: 10,
    longitude: 10,
    speed: 11,
    course: 11,
    altitude: 11,
    accuracy: 15,
    satellites: 12,
    hdop: 12,
    engineTemp: 15,
    rpm: 15,
    fuelLevel: 15,
    battery: 15,
    voltage: 15,
    identifier: -1,
    attributes: 15,
  };
  const code = codes[violation.field];
  // Short data has no parameters: anything else in it is its structure.
  return !extended && code > 12 ? -1 : code;
}

export interface ParseRules {
  now: Date;
  maxFutureSeconds: number;
}

/**
 * One fix from the fields of a short (10 fields) or extended (16 fields) message, checked
 * against the physical bounds. Throws `Refused` with the protocol's code for the first field
 * in error.
 */
export function parseFix(
  fields: string[],
  extended: boolean,
  rules: ParseRules = { now: new Date(), maxFutureSeconds: 300 },
): Fix {
  const fix = parseFields(fields, extended, rules.now);
  const violation = checkFix(fix, {
    now: rules.now.getTime(),
    maxFutureSeconds: rules.maxFutureSeconds,
  });
  if (violation) throw new Refused(violationCode(violation, extended), violation.message);
  return fix;
}

function parseFields(fields: string[], extended: boolean, now: Date): Fix {
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
  canonicalize(attributes, WIALON_ALIASES);
  return fix;
}

export interface WialonOptions {
  pipeline: Pipeline;
  log: Logger;
  /** When set, a login with another password is answered `#AL#01`. */
  password?: string | undefined;
  /** Commands to connected devices; without it no command goes out on this listener. */
  downlink?: Downlink | undefined;
  /** Fixes further ahead of the server's clock are refused (INGEST_MAX_FUTURE_SECONDS). */
  maxFutureSeconds?: number | undefined;
}

/** Refused logins on one connection before it is closed. */
export const MAX_LOGIN_FAILURES = 3;
/** The longest wait between two answers to refused logins of one identifier. */
export const MAX_LOGIN_DELAY_MS = 8_000;
/** Refused logins older than this are forgotten. */
const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Keys whose refused logins are remembered at most (see `evict`). */
const MAX_GUARDED = 10_000;
/** The key under which wrong global passwords (WIALON_IPS_PASSWORD) are counted, whatever the identifier. */
export const GLOBAL_PASSWORD_KEY = '*';

/**
 * Refused logins, in this process, per key: the identifier sent (known or not, so that the
 * wait tells nothing), and GLOBAL_PASSWORD_KEY for a wrong global password, which would log in
 * any tracker without its own (else a guesser would try it under a new identifier each time).
 * The n-th refusal of a key in a row is answered `slowdownMs × 2^(n−2)` (the first at once,
 * at most MAX_LOGIN_DELAY_MS) after the answer to the one before it, so that guesses on many
 * connections at once are answered one at a time. A refusal that would wait longer than
 * MAX_LOGIN_DELAY_MS is not answered at all: its connection is closed, so that nothing piles
 * up. A key is forgotten LOGIN_FAILURE_WINDOW_MS after its last refusal. A right password is
 * never delayed and clears nothing.
 */
export class LoginGuard {
  private readonly failures = new Map<string, { count: number; answerAt: number }>();

  constructor(
    private readonly slowdownMs: number,
    private readonly log?: Logger,
  ) {}

  /**
   * Counts a refused login under `keys`: how many ms to wait before answering it, or
   * undefined when it is not to be answered (close the connection).
   */
  refusal(keys: string[], now = Date.now()): number | undefined {
    const next = keys.map((key) => {
      const before = this.failures.get(key);
      const current =
        before && now - before.answerAt < LOGIN_FAILURE_WINDOW_MS ? before : undefined;
      const count = (current?.count ?? 0) + 1;
      const delay =
        count < 2 || this.slowdownMs <= 0
          ? 0
          : Math.min(MAX_LOGIN_DELAY_MS, this.slowdownMs * 2 ** (count - 2));
      return { key, count, queued: (current?.answerAt ?? now) - now, delay };
    });
    if (next.some((n) => n.queued > MAX_LOGIN_DELAY_MS)) return undefined;
    let wait = 0;
    for (const { key, count, queued, delay } of next) {
      const answerAt = now + Math.max(0, queued) + delay;
      wait = Math.max(wait, answerAt - now);
      this.failures.delete(key);
      this.failures.set(key, { count, answerAt });
      if (count === 5) this.log?.warn('wialon: repeated refused logins', { key, count });
    }
    if (this.failures.size > MAX_GUARDED) this.evict(now);
    return wait;
  }

  /**
   * Makes room: the oldest key that is forgotten already or was refused only once or twice,
   * so that a flood of new identifiers cannot push out one being guessed (else the oldest).
   */
  private evict(now: number) {
    let scanned = 0;
    let oldest: string | undefined;
    for (const [key, entry] of this.failures) {
      if (key === GLOBAL_PASSWORD_KEY) continue;
      oldest ??= key;
      if (now - entry.answerAt >= LOGIN_FAILURE_WINDOW_MS || entry.count < MAX_LOGIN_FAILURES) {
        this.failures.delete(key);
        return;
      }
      scanned += 1;
      if (scanned >= 1000) break;
    }
    if (oldest !== undefined) this.failures.delete(oldest);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether a password matches a tracker's stored SHA-256 (hex), in constant time. */
export function passwordMatches(stored: string, given: string): boolean {
  const expected = Buffer.from(stored, 'hex');
  const actual = sha256(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** One connection's state: which device logged in, and with which protocol version. */
export class WialonSession {
  identifier: string | undefined;
  trackerId: string | undefined;
  version: '1.1' | '2.0' = '1.1';
  /** Called once the device logged in (the listener attaches its downlink). */
  onLogin: ((trackerId: string) => void) | undefined;
  /** Logins refused for their password or identifier on this connection. */
  refusedLogins = 0;
  /** A refused login was not answered (LoginGuard): the connection is to be closed. */
  dropped = false;

  constructor(
    private readonly options: WialonOptions,
    private readonly guard?: LoginGuard,
  ) {}

  /** The answer to one packet (without CRLF), or undefined when none is due. */
  async handle(line: string, now = new Date()): Promise<string | undefined> {
    const match = /^#([A-Z]+)#(.*)$/s.exec(line);
    if (!match) {
      this.options.log.debug('wialon: not a packet', { line: line.slice(0, 80) });
      return undefined;
    }
    const [, type, body = ''] = match;
    switch (type) {
      case 'L': {
        const code = await this.login(body);
        return code === undefined ? undefined : `#AL#${code}`;
      }
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

  /** The login's answer code; undefined when it is not to be answered (`dropped`). */
  private async login(body: string): Promise<string | undefined> {
    const fields = body.split(';');
    let identifier: string | undefined;
    let password: string | undefined;
    if (fields[0] === '2.0') {
      if (fields.length !== 4) return '0';
      if (!checkCrc(body, ';')) return '10';
      [, identifier, password] = decodeText(body).split(';');
      this.version = '2.0';
    } else {
      if (fields.length !== 2) return '0';
      [identifier, password] = decodeText(body).split(';');
      this.version = '1.1';
    }
    if (!identifier || NA(identifier) || checkIdentifier(identifier)) return '0';
    // The tracker is looked up first, always: the answer and its timing must not tell a
    // known identifier with its own password apart from an unknown one.
    const device = await this.options.pipeline.device(identifier);
    const own = device?.wialonPasswordHash;
    const ownMatches = own ? passwordMatches(own, password ?? '') : false;
    const global = this.options.password;
    const refusal = ownMatches
      ? undefined
      : global !== undefined && password !== global
        ? '01'
        : !device || own
          ? '0'
          : undefined;
    if (refusal !== undefined || !device) {
      this.options.log.debug('wialon: login refused', { identifier });
      this.refusedLogins += 1;
      const keys = refusal === '01' ? [identifier, GLOBAL_PASSWORD_KEY] : [identifier];
      const wait = this.guard ? this.guard.refusal(keys) : 0;
      if (wait === undefined) {
        this.dropped = true;
        return undefined;
      }
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
      return refusal ?? '0';
    }
    this.identifier = identifier;
    this.trackerId = device.id;
    this.onLogin?.(device.id);
    return '1';
  }

  /** The fields of a body; undefined when a 2.0 body's CRC does not match. */
  private fieldsOf(body: string, separator: ';' | '|'): string[] | undefined {
    const covered = this.version === '2.0' ? checkCrc(body, separator) : body;
    return covered === undefined ? undefined : decodeText(covered).split(separator);
  }

  private rules(now: Date): ParseRules {
    return { now, maxFutureSeconds: this.options.maxFutureSeconds ?? 300 };
  }

  /**
   * Confirms sent commands from the newest fix's outputs. A black box (`archived`) holds fixes
   * stored while the device was away, maybe from before the command: its fix time decides.
   * A live packet is the device's state now, whatever time it carries (a device with no GPS
   * lock repeats its last fix's time).
   */
  private async observe(fixes: Fix[], archived: boolean) {
    const { downlink } = this.options;
    if (!downlink || !this.trackerId) return;
    const newest = fixes.reduce<Fix | undefined>(
      (a, b) => (typeof b.attributes.outputs === 'number' && (!a || b.fixTime > a.fixTime) ? b : a),
      undefined,
    );
    if (!newest) return;
    try {
      await downlink.observed(
        this.trackerId,
        newest.attributes.outputs as number,
        archived ? newest.fixTime : undefined,
      );
    } catch (err) {
      // The fixes are committed: a failed confirmation never keeps them from being answered.
      this.options.log.error('wialon: command confirmation failed', {
        err,
        device: this.identifier,
      });
    }
  }

  private async data(type: 'SD' | 'D', body: string, now: Date): Promise<number> {
    if (!this.identifier) return -1;
    const fields = this.fieldsOf(body, ';');
    if (!fields) return type === 'SD' ? 13 : 16;
    let fix: Fix;
    try {
      fix = parseFix(fields, type === 'D', this.rules(now));
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      this.options.log.debug('wialon: message refused', {
        device: this.identifier,
        reason: err.reason,
      });
      return err.code;
    }
    const result = await this.options.pipeline.accept(this.identifier, [fix], 'wialon_ips');
    if (result.status !== 'ok') return -1;
    // A value the database refused (pipeline's safety net) is refused like a field in error.
    if (result.rejected.includes('invalid_value')) return type === 'SD' ? -1 : 15;
    await this.observe([fix], false);
    return 1;
  }

  private async blackBox(body: string, now: Date): Promise<number> {
    if (!this.identifier) return 0;
    const messages = this.fieldsOf(body, '|');
    if (!messages) return 0;
    const fixes: Fix[] = [];
    for (const message of messages) {
      const fields = message.split(';');
      try {
        fixes.push(parseFix(fields, fields.length === 16, this.rules(now)));
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        this.options.log.debug('wialon: black box message refused', {
          code: err.code,
          reason: err.reason,
        });
      }
    }
    if (fixes.length === 0) return 0;
    const result = await this.options.pipeline.accept(this.identifier, fixes, 'wialon_ips');
    if (result.status !== 'ok') return 0;
    await this.observe(fixes, true);
    // Every valid message is registered: stored, or filtered/repeated by policy.
    const dropped = result.rejected.filter((r) => r === 'invalid_value').length;
    return fixes.length - dropped;
  }
}

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
