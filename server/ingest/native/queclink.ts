/**
 * Queclink @Track, the ASCII protocol of the GV300, GV55, GV350 and GL300 (and their kin).
 *
 * Every message is one line of text between `+` and `$`, fields split by commas:
 *
 *   +RESP:GTxxx,<protocol version>,<IMEI>,<device name>,…,<send time>,<count number>$
 *
 * `+RESP` is a live report, `+BUFF` the same report stored while the device had no network
 * (sent later, oldest first), `+ACK` the answer to a command or the heartbeat (`+ACK:GTHBD`).
 * The IMEI is in every message, so there is no login: the first message names the device.
 *
 * The server answers every report with `+SACK:<count number>$` (a device with SACK on keeps
 * the report and resends it until it hears that; a device with SACK off ignores it), and the
 * heartbeat with `+SACK:GTHBD,<protocol version>,<count number>$`.
 *
 * Positions come in groups of twelve fields, one or more per message:
 *
 *   <GPS accuracy>,<speed km/h>,<azimuth>,<altitude m>,<longitude>,<latitude>,<GPS UTC time>,
 *   <MCC>,<MNC>,<LAC hex>,<cell id hex>,<reserved>
 *
 * GPS accuracy 0 means no fix (the place, if any, is the last one known). The reserved field
 * is empty or `00` on the GV300/GV55, the mileage in km on some GL300 firmwares, and on newer
 * firmwares a hex mask of fields appended to the group (bit 0: satellites in use, bit 1: the
 * trigger type, bit 4: the jamming state).
 *
 * What stands before and after the groups depends on the report (LAYOUTS below) and, for the
 * fixed report's tail, on the model: the first two hex digits of the protocol version name it
 * (06/25/27 GV300, 0F/2F/10/50 GV55, 74/F1 GV350, 1A/30/2C/28 GL300). The layouts read:
 *
 * - GTFRI and the event reports (GEO, SPD, SOS, RTL, PNL, NMR, DIS, IOB, TOW, EPS, AIS, HBM,
 *   IGL, DOG): `<external power mV | reserved>,<report id/type>,<number>,<groups>…`, then on
 *   the vehicle models (GV) `<mileage km>` and, for GTFRI, `<hour meter HHHHH:MM:SS>,<analog
 *   inputs>…,<backup battery %>,<device status 6 hex>,<reserved>…`; on the personal models
 *   (GL300) `<battery %>`.
 * - GTERI: as GTFRI with an `<ERI mask>` first; after the status, the accessories the mask
 *   names (a digital fuel sensor, 1-wire thermometers are read; CAN and Bluetooth are not).
 * - GTIDA: `<reserved>,<driver id>,<report type>,<number>,<groups>,<mileage>…`.
 * - GTIGN/GTIGF: `<duration>,<group>,<hour meter>,<mileage>`.
 * - GTSTT `<state>`, GTBPL `<backup battery V>`, GTJDS `<jamming state>`, GTLBC `<number
 *   called>`: that one field, then one group.
 * - GTMPN, GTMPF, GTJDR: one group right after the device name.
 * - GTPNA, GTPFA (power on and off), GTINF, GTVER and the reports not read: no place; they
 *   are acknowledged as signs of life, so that a device never resends them.
 */
import type { Fix } from '../queries/positions';
import {
  type Alarm,
  type Codec,
  CodecError,
  type DecodeContext,
  type Decoded,
  type Framed,
} from './codec';

/**
 * The longest message taken: a GTERI with every accessory is near 1.5 KB. Without a `$` in
 * this many bytes, what the framer holds is no message.
 */
export const MAX_MESSAGE = 4096;
/** Positions in one fixed report: the device sends at most 15. */
const MAX_POSITIONS = 15;
/** Fields of one message: 15 groups of 13 plus the frame is far below. */
const MAX_FIELDS = 400;

const HEADERS = ['+RESP:', '+BUFF:', '+ACK:'];
/** The password of a new GV300 (`AT+GT…=gv300,…`); set the tracker's own when changed. */
export const DEFAULT_PASSWORD = 'gv300';

/** The personal trackers (GL200/GL300 family): battery at the tail, no external power. */
const PERSONAL = new Set(['02', '21', '1A', '30', '2C', '28']);

/** Where the groups start and what follows them, per report. */
interface Layout {
  /** Fields between the device name and the first group (or the number of groups). */
  prefix: number;
  /** A `<number>` of groups precedes them; else exactly one group. */
  counted: boolean;
  tail: 'none' | 'event' | 'report' | 'ignition';
}

const EVENT: Layout = { prefix: 2, counted: true, tail: 'event' };
const ONE: Layout = { prefix: 1, counted: false, tail: 'none' };
const BARE: Layout = { prefix: 0, counted: false, tail: 'none' };
const LAYOUTS: Record<string, Layout> = {
  FRI: { prefix: 2, counted: true, tail: 'report' },
  ERI: { prefix: 3, counted: true, tail: 'report' },
  IDA: { prefix: 3, counted: true, tail: 'event' },
  GEO: EVENT,
  SPD: EVENT,
  SOS: EVENT,
  RTL: EVENT,
  PNL: EVENT,
  NMR: EVENT,
  DIS: EVENT,
  IOB: EVENT,
  TOW: EVENT,
  EPS: EVENT,
  AIS: EVENT,
  HBM: EVENT,
  IGL: EVENT,
  DOG: EVENT,
  IGN: { prefix: 1, counted: false, tail: 'ignition' },
  IGF: { prefix: 1, counted: false, tail: 'ignition' },
  STT: ONE,
  BPL: ONE,
  JDS: ONE,
  LBC: ONE,
  MPN: BARE,
  MPF: BARE,
  JDR: BARE,
};

/** The alarm each report stands for, when it is one whatever its fields say. */
const ALARM_OF: Partial<Record<string, Alarm>> = {
  SOS: 'sos',
  SPD: 'overspeed',
  TOW: 'tow',
  GEO: 'geofence',
  JDR: 'jamming',
  JDS: 'jamming',
  MPF: 'powerCut',
  BPL: 'lowBattery',
};

/** GTHBM's report type, low digit: 0 braking, 1 acceleration, 2 turning; 3 and 4 harder. */
const HARSH: Partial<Record<number, Alarm>> = {
  0: 'hardBraking',
  1: 'hardAcceleration',
  2: 'hardCornering',
  3: 'hardBraking',
  4: 'hardAcceleration',
};

const IMEI = /^(\d{15}|[0-9A-Fa-f]{14})$/;
const VERSION = /^[0-9A-Fa-f]{6}([0-9A-Fa-f]{4})?$/;
const COUNT = /^[0-9A-Fa-f]{4}$/;
const HEADER = /^\+(RESP|BUFF|ACK):GT([A-Z0-9]{3}),/;
const DECIMAL = /^-?\d{1,6}(\.\d{1,6})?$/;
const COORDINATE = /^-?\d{1,3}\.\d{1,7}$/;
const HOURS = /^(\d{1,6}):(\d{2}):(\d{2})$/;
const STATUS = /^[0-9A-Fa-f]{6}$/;

/** YYYYMMDDHHMMSS (UTC) as a date; undefined when empty, a CodecError when not a moment. */
function time(field: string, what: string): Date | undefined {
  if (field === '') return undefined;
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(field);
  if (!m) throw new CodecError(`${what}: not YYYYMMDDHHMMSS`);
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Date.UTC rolls 31 February over to March: such a field is no moment.
  if (at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    throw new CodecError(`${what}: no such moment`);
  return at;
}

/** A decimal field; undefined when empty, a CodecError when it is something else. */
function decimal(field: string | undefined, what: string): number | undefined {
  if (field === undefined || field === '') return undefined;
  if (!DECIMAL.test(field)) throw new CodecError(`${what}: not a number`);
  return Number(field);
}

/** A decimal field read leniently (a telemetry reading): undefined when it is none. */
function reading(field: string | undefined): number | undefined {
  if (field === undefined || !DECIMAL.test(field)) return undefined;
  return Number(field);
}

/** One position group from `at`; the index after it. */
function group(v: string[], at: number, sent: Date, end: number): { fix: Fix; next: number } {
  if (at + 12 > end) throw new CodecError('position group cut short');
  const [accuracy, speed, azimuth, altitude, lon, lat, gpsTime] = v.slice(at, at + 7) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const hdop = decimal(accuracy, 'GPS accuracy');
  const longitude = lon === '' ? undefined : COORDINATE.test(lon) ? Number(lon) : Number.NaN;
  const latitude = lat === '' ? undefined : COORDINATE.test(lat) ? Number(lat) : Number.NaN;
  if (Number.isNaN(longitude) || Math.abs(longitude ?? 0) > 180)
    throw new CodecError('longitude out of range');
  if (Number.isNaN(latitude) || Math.abs(latitude ?? 0) > 90)
    throw new CodecError('latitude out of range');
  const taken = time(gpsTime, 'GPS time');
  // Accuracy 0 is the device's own word for no fix; an empty one with a place is a fix.
  const valid =
    hdop !== 0 && latitude !== undefined && longitude !== undefined && taken !== undefined;
  const attributes: Record<string, unknown> = {};
  if (hdop !== undefined) attributes.hdop = hdop;
  const fix: Fix = {
    // Without a fix the report is of its own moment, not of the last place's.
    fixTime: valid && taken ? taken : sent,
    latitude: latitude ?? Number.NaN,
    longitude: longitude ?? Number.NaN,
    speed: decimal(speed, 'speed'),
    course: decimal(azimuth, 'azimuth'),
    altitude: decimal(altitude, 'altitude'),
    valid,
    attributes,
  };
  let next = at + 11;
  const reserved = v[next++] ?? '';
  if (reserved.includes('.')) {
    const km = reading(reserved);
    if (km !== undefined) attributes.odometer = Math.round(km * 1000);
  } else if (/^[0-9A-Fa-f]{2}$/.test(reserved)) {
    const mask = Number.parseInt(reserved, 16);
    if (mask & 1) {
      const sat = v[next++];
      if (sat !== undefined && /^\d{1,3}$/.test(sat)) attributes.sat = Number(sat);
    }
    if (mask & 2) next += 1;
    if (mask & 16) next += 1;
  }
  if (next > end) throw new CodecError('position group cut short');
  return { fix, next };
}

/** HHHHH:MM:SS of the hour meter, in seconds. */
function hoursOf(field: string | undefined): number | undefined {
  const m = field ? HOURS.exec(field) : null;
  if (!m) return undefined;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/**
 * The device status, 6 hex: the motion state (1x ignition off, 2x ignition on, x2 moving),
 * the digital inputs (bit 0 the ignition wire, bit 1 input 1, …) and the outputs (bit 0
 * output 1, …).
 */
function deviceStatus(fix: Fix, field: string) {
  const state = Number.parseInt(field.slice(0, 2), 16);
  const inputs = Number.parseInt(field.slice(2, 4), 16);
  const outputs = Number.parseInt(field.slice(4, 6), 16);
  motionState(fix, state);
  fix.attributes.din1 = (inputs & 2) !== 0;
  fix.attributes.in2 = (inputs & 4) !== 0;
  fix.attributes.in3 = (inputs & 8) !== 0;
  fix.attributes.out1 = (outputs & 1) !== 0;
  fix.attributes.out2 = (outputs & 2) !== 0;
  fix.attributes.out3 = (outputs & 4) !== 0;
}

/** The motion state byte (GTSTT, GTINF, the device status): ignition and moving. */
function motionState(fix: Fix, state: number) {
  const ignition = state >> 4;
  if (ignition === 1) fix.ignition = false;
  else if (ignition === 2) fix.ignition = true;
  if ((state & 0x0f) === 1 || (state & 0x0f) === 2) fix.attributes.motion = (state & 0x0f) === 2;
}

/** An analog input: millivolts, or `F<n>` when the input reads a fuel sensor (n %). */
function analog(fix: Fix, index: number, field: string | undefined) {
  if (!field) return;
  if (/^F\d{1,3}$/.test(field)) {
    const level = Number(field.slice(1));
    fix.attributes[`fuel${index}`] = level;
    if (fix.attributes.fuelLevel === undefined) fix.attributes.fuelLevel = level;
  } else if (/^\d{1,6}$/.test(field)) fix.attributes[`adc${index}`] = Number(field) / 1000;
}

/** Backup battery %, kept only when it is one. */
function batteryOf(field: string | undefined): number | undefined {
  if (field === undefined || !/^\d{1,3}$/.test(field)) return undefined;
  const level = Number(field);
  return level <= 100 ? level : undefined;
}

/** What follows the groups (`tail`: its fields up to the send time). */
function readTail(fix: Fix, layout: Layout, personal: boolean, tail: string[], eriMask = 0) {
  if (layout.tail === 'none') return;
  if (layout.tail === 'ignition') {
    const hours = hoursOf(tail[0]);
    if (hours !== undefined) fix.attributes.hours = hours;
    const km = reading(tail[1]);
    if (km !== undefined) fix.attributes.odometer = Math.round(km * 1000);
    return;
  }
  if (personal) {
    const battery = batteryOf(tail[0]);
    if (battery !== undefined) fix.battery = battery;
    return;
  }
  const km = reading(tail[0]);
  if (km !== undefined && tail[0]?.includes('.')) fix.attributes.odometer = Math.round(km * 1000);
  if (layout.tail !== 'report') return;
  const hours = hoursOf(tail[1]);
  if (hours !== undefined) fix.attributes.hours = hours;
  // The analog inputs (one on the GV350M, two on the GV300/GV55, three on the GV350CEU) end
  // at the battery, just before the device status: its 6 hex digits find them.
  let status = -1;
  for (let i = 3; i <= 6 && i < tail.length; i++)
    if (STATUS.test(tail[i] ?? '')) {
      status = i;
      break;
    }
  const adcEnd = status >= 0 ? status - 1 : 4;
  for (let i = 2; i < adcEnd; i++) analog(fix, i - 1, tail[i]);
  const battery = batteryOf(tail[adcEnd]);
  if (battery !== undefined) fix.battery = battery;
  if (status >= 0) deviceStatus(fix, tail[status] ?? '');
  if (status >= 0 && eriMask) accessories(fix, tail, status + 2, eriMask);
}

/** 1-wire temperature sensors on one GTERI: at most this many are read. */
const MAX_SENSORS = 8;

/**
 * What a GTERI appends after the device status and the UART device type, by its ERI mask:
 * bit 0 a digital fuel sensor (its raw reading, hex), bit 1 the 1-wire sensors (their count,
 * then id, type and reading each: a temperature in 1/16 °C, two's complement hex). Other
 * accessories (CAN, Bluetooth) follow; they are not read.
 */
function accessories(fix: Fix, tail: string[], from: number, mask: number) {
  let at = from;
  if (mask & 1) {
    const raw = tail[at++] ?? '';
    if (/^[0-9A-Fa-f]{1,8}$/.test(raw)) fix.attributes.fuelSensor = Number.parseInt(raw, 16);
  }
  if (!(mask & 2)) return;
  const count = tail[at++] ?? '';
  if (!/^\d{1,2}$/.test(count)) return;
  for (let i = 1; i <= Math.min(Number(count), MAX_SENSORS); i++) {
    const reading = tail[at + 2] ?? '';
    at += 3;
    if (!/^[0-9A-Fa-f]{4}$/.test(reading)) continue;
    const raw = Number.parseInt(reading, 16);
    fix.attributes[`temp${i}`] = (raw & 0x8000 ? raw - 0x10000 : raw) * 0.0625;
  }
}

/** The report's own fields before the groups, and what its type says. */
function readReport(type: string, fix: Fix, prefix: string[], personal: boolean) {
  const alarm = ALARM_OF[type];
  if (alarm) fix.attributes.alarm = alarm;
  const reportType = /^[0-9A-Fa-f]{1,2}$/.test(prefix[1] ?? '')
    ? Number.parseInt(prefix[1] ?? '', 16)
    : undefined;
  switch (type) {
    case 'FRI':
    case 'GEO':
    case 'SPD':
    case 'SOS':
    case 'RTL':
    case 'PNL':
    case 'NMR':
    case 'DIS':
    case 'IOB':
    case 'TOW':
    case 'EPS':
    case 'AIS':
    case 'HBM':
    case 'IGL':
    case 'DOG': {
      // The vehicle models' external power, in mV; a reserved 0 on the personal ones.
      const mv = personal ? undefined : reading(prefix[0]);
      if (mv !== undefined && mv > 0) fix.attributes.power = mv / 1000;
      break;
    }
    case 'ERI': {
      const mv = personal ? undefined : reading(prefix[1]);
      if (mv !== undefined && mv > 0) fix.attributes.power = mv / 1000;
      break;
    }
    case 'IDA': {
      const id = prefix[1] ?? '';
      if (/^[0-9A-Za-z]{1,32}$/.test(id)) fix.driverRfid = id;
      break;
    }
    case 'IGN':
    case 'IGF':
      fix.ignition = type === 'IGN';
      break;
    case 'STT':
      if (/^[0-9A-Fa-f]{2}$/.test(prefix[0] ?? ''))
        motionState(fix, Number.parseInt(prefix[0] ?? '', 16));
      break;
    case 'BPL': {
      const volts = reading(prefix[0]);
      if (volts !== undefined) fix.attributes.batteryVoltage = volts;
      break;
    }
    case 'MPF':
      fix.attributes.powerCut = true;
      break;
    case 'MPN':
      fix.attributes.powerCut = false;
      break;
  }
  if (reportType === undefined) return;
  if (type === 'HBM') {
    const harsh = HARSH[reportType & 0x0f];
    if (harsh) fix.attributes.alarm = harsh;
  } else if (type === 'DIS') {
    // `<input id><state>`: which input changed, and to what.
    const input = reportType >> 4;
    const on = (reportType & 0x0f) === 1;
    if (input === 1) fix.attributes.din1 = on;
    else if (input > 1) fix.attributes[`in${input}`] = on;
  } else if (type === 'IGL') {
    fix.ignition = (reportType & 0x0f) === 1;
  } else if (type === 'NMR') {
    fix.attributes.motion = (reportType & 0x0f) === 1;
  }
}

/** The positions of a report with groups (LAYOUTS). */
function positions(type: string, layout: Layout, v: string[], sent: Date, personal: boolean) {
  const end = v.length - 2;
  let at = 4 + layout.prefix;
  let count = 1;
  if (layout.counted) {
    const number = v[at++] ?? '';
    if (!/^\d{1,2}$/.test(number)) throw new CodecError('number of positions: not a number');
    count = Number(number);
    if (count > MAX_POSITIONS) throw new CodecError('too many positions');
  }
  if (at > end) throw new CodecError('report cut short');
  const fixes: Fix[] = [];
  for (let i = 0; i < count; i++) {
    const { fix, next } = group(v, at, sent, end);
    fix.attributes.report = type;
    fixes.push(fix);
    at = next;
  }
  const last = fixes.at(-1);
  if (!last) return fixes;
  // The report's own fields belong to its last position (the moment it was sent).
  readReport(type, last, v.slice(4, 4 + layout.prefix), personal);
  const eri = type === 'ERI' && /^[0-9A-Fa-f]{8}$/.test(v[4] ?? '');
  readTail(last, layout, personal, v.slice(at, end), eri ? Number.parseInt(v[4] ?? '', 16) : 0);
  return fixes;
}

function decodeText(text: string): Decoded {
  if (text.length > MAX_MESSAGE) throw new CodecError('message too long');
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) throw new CodecError('not printable text');
  }
  const body = text.endsWith('$') ? text.slice(0, -1) : text;
  const head = HEADER.exec(body);
  if (!head) throw new CodecError('no @Track header');
  const kind = head[1] as 'RESP' | 'BUFF' | 'ACK';
  const type = head[2] as string;
  const v = body.split(',');
  if (v.length > MAX_FIELDS) throw new CodecError('too many fields');
  if (v.length < 5) throw new CodecError('too few fields');
  const version = v[1] ?? '';
  const identifier = v[2] ?? '';
  const count = v[v.length - 1] ?? '';
  if (!VERSION.test(version)) throw new CodecError('protocol version: not 6 hex digits');
  if (!IMEI.test(identifier)) throw new CodecError('IMEI: not 15 digits');
  if (!COUNT.test(count)) throw new CodecError('count number: not 4 hex digits');
  const sent = time(v[v.length - 2] ?? '', 'send time');
  if (!sent) throw new CodecError('no send time');

  if (kind === 'ACK') {
    if (type === 'HBD')
      return {
        identifier,
        fixes: [],
        heartbeat: true,
        reply: Buffer.from(`+SACK:GTHBD,${version},${count}$`, 'latin1'),
      };
    if (type === 'OUT') {
      const serial = v[v.length - 3] ?? '';
      if (!COUNT.test(serial)) throw new CodecError('serial number: not 4 hex digits');
      return { identifier, fixes: [], answer: { ok: true, text: `GTOUT ${serial}` } };
    }
    // The answer to a setting sent some other way (SMS, the configurator): nothing of ours.
    return { identifier, fixes: [] };
  }

  const reply = Buffer.from(`+SACK:${count}$`, 'latin1');
  const model = version.length === 6 ? version.slice(0, 2).toUpperCase() : '';
  const personal = PERSONAL.has(model);
  const layout = LAYOUTS[type];
  if (layout) {
    try {
      return { identifier, fixes: positions(type, layout, v, sent, personal), reply };
    } catch (err) {
      // A report whose header and count are sound but whose body is not (a layout of a model or
      // firmware not read here): with SACK on, the device keeps it until acknowledged and would
      // send it forever. It is acknowledged (on a connection whose device is known), counted and
      // dropped, so that the reports after it come.
      if (err instanceof CodecError) throw new CodecError(err.message, reply);
      throw err;
    }
  }
  // The reports without a place (GTPNA/GTPFA power on and off, GTINF, GTVER…) say the device
  // is alive. Stored as reports without GPS they would mark a tracker whose GPS is fine as
  // having none (its last location's "no GPS since"): they are acknowledged, and that is all.
  return { identifier, fixes: [], reply, heartbeat: true };
}

/** Where the next message header starts in `buffer` from `from`, or -1. */
function nextHeader(buffer: Buffer, from: number, until: number): number {
  let first = -1;
  for (const h of HEADERS) {
    // Only up to `until`: a stream of many short messages must not be scanned whole each time.
    const at = buffer.subarray(0, until).indexOf(h, from, 'latin1');
    if (at >= 0 && at < until && (first < 0 || at < first)) first = at;
  }
  return first;
}

function frame(buffer: Buffer): Framed {
  if (buffer.length === 0) return undefined;
  const plus = buffer.indexOf(0x2b);
  if (plus < 0) return { skip: buffer.length };
  if (plus > 0) return { skip: plus };
  const head = buffer.subarray(0, 6).toString('latin1');
  const known = HEADERS.some((h) =>
    head.length >= h.length ? head.startsWith(h) : h.startsWith(head),
  );
  if (!known) return { skip: 1 };
  const complete = HEADERS.some((h) => head.startsWith(h));
  if (!complete) return undefined;
  const limit = Math.min(buffer.length, MAX_MESSAGE);
  const dollar = buffer.indexOf(0x24);
  const end = dollar >= 0 && dollar < limit ? dollar : -1;
  // A new header before this one's end: this one was cut off (a device reset mid-message).
  const next = nextHeader(buffer, 1, end >= 0 ? end : limit);
  if (next > 0) return { skip: next };
  if (end >= 0) return { frame: buffer.subarray(0, end + 1), length: end + 1 };
  return buffer.length >= MAX_MESSAGE ? { skip: 1 } : undefined;
}

/** Splits a datagram into its messages (normally one); trailing line ends are tolerated. */
function datagram(data: Buffer, _ctx: DecodeContext): Decoded[] {
  const messages: Decoded[] = [];
  let rest = data;
  while (rest.length) {
    const framed = frame(rest);
    if (!framed) {
      // The last message of a datagram may lack its `$`.
      if (rest.length && rest[0] === 0x2b) messages.push(decodeText(rest.toString('latin1')));
      break;
    }
    if ('skip' in framed) {
      rest = rest.subarray(Math.max(1, framed.skip));
      continue;
    }
    messages.push(decodeText(framed.frame.toString('latin1')));
    rest = rest.subarray(framed.length);
  }
  if (!messages.length) throw new CodecError('no @Track message in the datagram');
  return messages;
}

/**
 * AT+GTOUT: output 1 on (the relay cuts the fuel) or off. Its fields on the GV300/GV55:
 * password, then status, duration and toggle times of outputs 1 to 3, long operation, DOS
 * report, five reserved, the serial number (4 hex) the device repeats in its `+ACK:GTOUT`.
 * Outputs 2 and 3 are set off, as the maker's own example does.
 */
function encodeCommand(payload: string, ctx: { serial: number; password: string | undefined }) {
  const m = /^GTOUT ([01])$/.exec(payload);
  if (!m) return undefined;
  const password = ctx.password ?? DEFAULT_PASSWORD;
  // A password of other characters would break the command's fields: not sent.
  if (!/^[0-9A-Za-z]{4,6}$/.test(password)) return undefined;
  const serial = (ctx.serial & 0xffff).toString(16).toUpperCase().padStart(4, '0');
  return Buffer.from(`AT+GTOUT=${password},${m[1]},,,0,0,0,0,0,0,0,,,,,,,${serial}$`, 'latin1');
}

export const queclink: Codec = {
  protocol: 'queclink',
  name: 'queclink',
  frame: (buffer) => frame(buffer),
  decode: (data) => decodeText(data.toString('latin1')),
  datagram,
  encodeCommand,
};
