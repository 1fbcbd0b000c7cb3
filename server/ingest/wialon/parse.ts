/**
 * Wialon IPS 1.1 and 2.0 packets as Gurtam documents them: text packets `#TYPE#body\r\n`.
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
 * `NA` stands for a missing value in any field; `NA` coordinates are a report without a GPS
 * fix (cold start, garage, tunnel), whose sensors, inputs and alarms are kept. In 2.0 every
 * packet ends with the CRC-16/ARC of its body up to and including the last separator, written
 * as four hex digits by the document and otherwise by real devices (`0x9b0`, lower case, not
 * padded; some write it in decimal). A value out of the physical bounds
 * (server/ingest/bounds.ts) gets the code of its field, like a malformed one.
 * This file reads packets; session.ts answers them, tcp.ts carries them.
 */
import { type BoundedField, checkFix, type Violation } from '../bounds';
import { canonicalize, WIALON_ALIASES } from '../canonical';
import type { Fix } from '../queries/positions';

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

/**
 * Whether a CRC as a device wrote it is `crc`: hex (`9B0`, `09b0`, `0x9b0`) or decimal
 * (`2480`). A text that reads both ways is right when either reading is.
 */
export function crcMatches(given: string, crc: number): boolean {
  const hex = /^(?:0[xX])?([0-9a-fA-F]{1,4})$/.exec(given);
  if (hex?.[1] && Number.parseInt(hex[1], 16) === crc) return true;
  return /^\d{1,5}$/.test(given) && Number(given) === crc;
}

/** Splits a 2.0 body into what the CRC covers and the CRC it carries; undefined when bad. */
export function checkCrc(body: string, separator: ';' | '|'): string | undefined {
  const at = body.lastIndexOf(separator);
  if (at < 0) return undefined;
  const covered = body.slice(0, at + 1);
  if (!crcMatches(body.slice(at + 1), crc16(covered, 'latin1'))) return undefined;
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

export const NA = (value: string | undefined) =>
  value === undefined || value === '' || value === 'NA';

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
/** The internal battery's charge in % (`bat:3:99`, `Батарея:3:100 %`, `d_battr:1:94`). */
const BATTERY = ['bat', 'batt', 'battery', 'bat_level', 'battery_level', 'd_battr', 'батарея'];

/** A reading sent as text with its unit ('100 %', '12.8V'): its number. */
function leadingNumber(value: number | string): number | undefined {
  if (typeof value === 'number') return value;
  const match = /^\s*(-?\d+(?:[.,]\d+)?)/.exec(value);
  return match?.[1] ? Number(match[1].replace(',', '.')) : undefined;
}

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
    fuelLiters: 15,
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
  // No GPS fix: every coordinate field NA. A message with only some of them is malformed.
  const noGps = [lat, latSide, lon, lonSide].every(NA);
  const latitude = noGps ? Number.NaN : parseCoordinate(lat, latSide, 90);
  const longitude = noGps ? Number.NaN : parseCoordinate(lon, lonSide, 180);
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
  if (noGps) fix.valid = false;
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
    else if (BATTERY.includes(key)) fix.battery = leadingNumber(value);
    // The document's panic button: `SOS:1:1`.
    else if (key === 'sos' && (value === 1 || value === '1')) attributes.alarm = 'sos';
    attributes[name] = value;
  }
  canonicalize(attributes, WIALON_ALIASES);
  return fix;
}
