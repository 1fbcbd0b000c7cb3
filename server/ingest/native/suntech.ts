/**
 * Suntech's text protocol (ST300, ST310U, ST340, ST600 and the "universal" format of the
 * ST4300/ST4310): ASCII lines ended by CR, fields split by ';'. Every line names its device
 * (DEV_ID: the last 9 digits of the IMEI on the ST300 family, 10 digits on the universal
 * format), so there is no login message: the first line names the device.
 *
 * Two layouts:
 * - The model-prefixed one: `ST300STT;DEV_ID;MODEL;SW_VER;DATE;TIME;CELL;LAT;LON;SPD;CRS;SATT;
 *   FIX;DIST;PWR_VOLT;IO;…` and then per report type: STT `MODE;MSG_NUM`, EMG `EMG_ID`, EVT
 *   `EVT_ID`, ALT `ALERT_ID`; then, when the device is set to send them (HBM_STT),
 *   `H_METER;BCK_VOLT;MSG_TYPE` and model-dependent extras. SA200 has no MODEL field, ST600
 *   carries MCC/MNC/LAC/RX level after CELL, ST500 has no CELL.
 * - The universal one: `STT;DEV_ID;MASK;…`, where the hex MASK says which fields follow.
 *
 * Over TCP the device expects no answer to any report. Over UDP it may wait for
 * `<PREFIX>ACK;<DEV_ID>` (its UDP_ACK setting: for every report but the keep-alive, or only
 * for alerts and emergencies); it resends after two minutes without one. The server cannot
 * know that setting, so every report but a keep-alive or an answer is acknowledged: an ACK
 * only tells the device that a report arrived, and a report that did arrive is never lost
 * by it. An emergency is repeated until the server sends `AckEmerg` or the set count runs
 * out; Rastro does not send it, so that the repeats keep the vehicle's track during a panic.
 */
import type { Fix } from '../queries/positions';
import {
  type Alarm,
  type Codec,
  CodecError,
  type CommandContext,
  type DecodeContext,
  type Decoded,
} from './codec';

/** No Suntech line comes near this; more bytes without a CR are noise. */
export const MAX_LINE = 4096;

const CR = 0x0d;

/** A report header: the model prefix (empty for the universal format) and the type. */
interface Header {
  prefix: string;
  type: string;
}

/** `ST300STT` → ST300 + STT; `STT` → universal; anything else is not a Suntech header. */
export function splitHeader(header: string): Header | undefined {
  if (/^[A-Z]{3}$/.test(header)) return { prefix: '', type: header };
  const match = /^((?:ST|SA)\d{3,4}[A-Z]?)([A-Z]{3})$/.exec(header);
  if (!match) return undefined;
  return { prefix: match[1] as string, type: match[2] as string };
}

/** The ALERT_ID table of the ST300 manual, which the universal format shares. */
const ALERTS: Partial<Record<number, Alarm>> = {
  1: 'overspeed',
  5: 'geofence',
  6: 'geofence',
  14: 'lowBattery',
  15: 'vibration',
  16: 'accident',
  27: 'hardBraking',
  41: 'powerCut',
  46: 'hardAcceleration',
  47: 'hardBraking',
  48: 'hardCornering',
  49: 'overspeed',
  50: 'jamming',
};

/**
 * EMG_ID: 1 panic button, 3 main power removed, 5/6 anti-theft input (a door switch as a
 * rule), 7 moving while parked, 8 anti-theft shock. 2 (parking lock) has no alarm of ours:
 * it is kept as `emergency` only.
 */
const EMERGENCIES: Partial<Record<number, Alarm>> = {
  1: 'sos',
  3: 'powerCut',
  5: 'door',
  6: 'door',
  7: 'tow',
  8: 'vibration',
};

function fail(why: string): never {
  throw new CodecError(why);
}

function integer(text: string | undefined, what: string, radix = 10): number {
  const pattern = radix === 16 ? /^[0-9A-Fa-f]{1,12}$/ : /^[+-]?\d{1,12}$/;
  if (text === undefined || !pattern.test(text)) fail(`${what}: not a number`);
  return Number.parseInt(text, radix);
}

function decimal(text: string | undefined, what: string): number {
  if (text === undefined || !/^[+-]?\d{1,12}(\.\d{1,12})?$/.test(text))
    fail(`${what}: not a number`);
  return Number(text);
}

/** A number that may be left out (optional trailing fields): undefined when not one. */
function maybeDecimal(text: string | undefined): number | undefined {
  return text !== undefined && /^[+-]?\d{1,12}(\.\d{1,12})?$/.test(text) ? Number(text) : undefined;
}

/** DATE (YYYYMMDD) and TIME (HH:MM:SS), in UTC. */
function timeOf(date: string | undefined, time: string | undefined): Date {
  const d = date === undefined ? null : /^(\d{4})(\d{2})(\d{2})$/.exec(date);
  const t = time === undefined ? null : /^(\d{2}):(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) fail('date or time malformed');
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const [hour, minute, second] = [Number(t[1]), Number(t[2]), Number(t[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
    fail('date or time out of range');
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // 31 February rolls into March: not a date the device meant.
  if (at.getUTCDate() !== day) fail('date out of range');
  return at;
}

function place(lat: string | undefined, lon: string | undefined) {
  const latitude = decimal(lat, 'latitude');
  const longitude = decimal(lon, 'longitude');
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) fail('coordinates out of range');
  return { latitude, longitude };
}

/** DEV_ID: digits only (6 on the SA200, 9 on the ST300, 10 on the universal format). */
function deviceId(text: string | undefined): string {
  if (text === undefined || !/^\d{4,20}$/.test(text)) fail('device id malformed');
  return text;
}

/**
 * The IO field, one character a line: ignition, the inputs, then the outputs. Six
 * characters on the ST300 (3 inputs, 2 outputs), eight on the ST300V/P and ST600 (4 and 3).
 */
function readIo(io: string, attributes: Record<string, unknown>): boolean | undefined {
  if (!/^[01]{1,16}$/.test(io)) return undefined;
  const ins = io.length >= 8 ? 4 : io.length >= 6 ? 3 : 0;
  const outs = io.length >= 8 ? 3 : io.length >= 6 ? 2 : 0;
  if (ins === 0) {
    attributes.io = io;
    return io[0] === '1';
  }
  for (let i = 1; i <= ins; i++) {
    const on = io[i] === '1';
    if (i === 1) attributes.din1 = on;
    else attributes[`in${i}`] = on;
  }
  for (let o = 1; o <= outs; o++) attributes[`out${o}`] = io[ins + o] === '1';
  return io[0] === '1';
}

/** An iButton/RFID code as the ST300H/K/A write it (DID), when DID_REG says it is read. */
function driverIn(tail: string[]): string | undefined {
  for (let i = 0; i + 1 < tail.length; i++) {
    const id = tail[i] as string;
    if (/^[0-9A-Fa-f]{14,16}$/.test(id) && !/^0+$/.test(id) && tail[i + 1] === '1') return id;
  }
  return undefined;
}

function setAlarm(attributes: Record<string, unknown>, alarm: Alarm | undefined) {
  if (!alarm) return;
  attributes.alarm = alarm;
  if (alarm === 'powerCut') attributes.powerCut = true;
}

const POSITION_TYPES = new Set(['STT', 'EMG', 'EVT', 'ALT']);

/** The model-prefixed layout (ST300 family, SA200, ST500, ST600). */
function decodePrefixed(header: Header, fields: string[]): Fix {
  const { prefix, type } = header;
  let i = 2;
  const attributes: Record<string, unknown> = { type };
  // SA200 lines carry no MODEL; ST300/ST340/ST310U, ST500 and ST600 do.
  if (!prefix.startsWith('SA')) attributes.model = fields[i++];
  attributes.version = fields[i++];
  const fixTime = timeOf(fields[i++], fields[i++]);
  if (prefix !== 'ST500') {
    const cell = fields[i++];
    if (cell !== undefined && /^[0-9A-Fa-f]{1,16}$/.test(cell)) attributes.cell = cell;
    // ST600: MCC, MNC, LAC and the signal level after the cell id.
    if (prefix === 'ST600') i += 4;
  }
  const { latitude, longitude } = place(fields[i++], fields[i++]);
  const speed = decimal(fields[i++], 'speed');
  const course = decimal(fields[i++], 'course');
  attributes.sat = integer(fields[i++], 'satellites');
  const fixField = fields[i++];
  if (fixField !== '0' && fixField !== '1') fail('fix flag malformed');
  attributes.odometer = decimal(fields[i++], 'distance');
  attributes.power = decimal(fields[i++], 'power');
  const io = fields[i++];
  if (io === undefined) fail('no IO field');
  const ignition = readIo(io, attributes);
  let driverRfid: string | undefined;
  if (type === 'STT') {
    attributes.mode = integer(fields[i++], 'mode');
    const number = fields[i++];
    if (number !== undefined && /^\d{1,6}$/.test(number)) attributes.index = Number(number);
  } else {
    const id = integer(fields[i++], `${type} id`);
    if (type === 'EMG') {
      attributes.emergency = id;
      setAlarm(attributes, EMERGENCIES[id]);
    } else if (type === 'EVT') attributes.event = id;
    else {
      attributes.alert = id;
      setAlarm(attributes, ALERTS[id]);
      // Main power back: the cut is over (no alarm of its own).
      if (id === 40) attributes.powerCut = false;
    }
  }
  // H_METER;BCK_VOLT;MSG_TYPE only when HBM_STT is on; tolerated absent or partial.
  // The ST500's tail is its own (no hour-meter fields): not read.
  const tail = prefix === 'ST500' ? [] : fields.slice(i);
  const hours = tail[0] !== undefined && /^\d{1,10}$/.test(tail[0]) ? Number(tail[0]) : undefined;
  if (hours !== undefined) {
    // The driving hour-meter, in minutes.
    attributes.hours = hours * 60;
    const backup = maybeDecimal(tail[1]);
    if (backup !== undefined) attributes.batteryVoltage = backup;
    // MSG_TYPE 0: a report the device stored while it could not send (its black box).
    if (tail[2] === '0') attributes.archive = true;
    driverRfid = driverIn(tail.slice(3));
  }
  const fix: Fix = {
    fixTime,
    latitude,
    longitude,
    speed,
    course,
    valid: fixField === '1',
    attributes,
  };
  if (ignition !== undefined) fix.ignition = ignition;
  if (driverRfid) fix.driverRfid = driverRfid;
  return fix;
}

const bit = (mask: number, n: number) => Math.floor(mask / 2 ** n) % 2 === 1;

/**
 * The universal format: which fields follow is the hex MASK (bit 1 model, 2 firmware,
 * 3 MSG_TYPE, 4–5 date and time, 6–10 cell, 11–12 place, 13 speed, 14 course, 15 satellites,
 * 16 fix, 17–18 inputs and outputs, 19–21 mode/alert, 22 reserved, 23 the assigned fields).
 */
function decodeUniversal(type: string, fields: string[]): Fix {
  const mask = integer(fields[2], 'report mask', 16);
  let i = 3;
  const next = () => fields[i++];
  const attributes: Record<string, unknown> = { type };
  if (bit(mask, 1)) attributes.model = next();
  if (bit(mask, 2)) attributes.version = next();
  if (bit(mask, 3) && next() === '0') attributes.archive = true;
  if (!bit(mask, 4) || !bit(mask, 5)) fail('report without date and time');
  const fixTime = timeOf(next(), next());
  if (bit(mask, 6)) attributes.cell = next();
  for (const n of [7, 8, 9, 10]) if (bit(mask, n)) next();
  if (!bit(mask, 11) || !bit(mask, 12)) fail('report without a place');
  const { latitude, longitude } = place(next(), next());
  const speed = bit(mask, 13) ? decimal(next(), 'speed') : undefined;
  const course = bit(mask, 14) ? decimal(next(), 'course') : undefined;
  if (bit(mask, 15)) attributes.sat = integer(next(), 'satellites');
  const valid = bit(mask, 16) ? next() === '1' : true;
  let ignition: boolean | undefined;
  if (bit(mask, 17)) {
    // The input lines as bits, the last character bit 0 (ignition), then input 1, 2…
    const inputs = next() ?? '';
    if (/^[01]{1,32}$/.test(inputs)) {
      const at = (n: number) => inputs[inputs.length - 1 - n] === '1';
      ignition = at(0);
      if (inputs.length > 1) attributes.din1 = at(1);
      for (let n = 2; n < Math.min(inputs.length, 5); n++) attributes[`in${n}`] = at(n);
    }
  }
  if (bit(mask, 18)) {
    const outputs = next() ?? '';
    if (/^[01]{1,32}$/.test(outputs))
      for (let n = 0; n < Math.min(outputs.length, 4); n++)
        attributes[`out${n + 1}`] = outputs[outputs.length - 1 - n] === '1';
  }
  if (type === 'ALT') {
    if (bit(mask, 19)) {
      const id = integer(next(), 'alert id');
      attributes.alert = id;
      setAlarm(attributes, ALERTS[id]);
      if (id === 40) attributes.powerCut = false;
    }
    if (bit(mask, 20)) attributes.alertModifier = next();
    if (bit(mask, 21)) attributes.alertData = next();
  } else {
    if (bit(mask, 19)) attributes.mode = maybeDecimal(next());
    if (bit(mask, 20)) attributes.reason = maybeDecimal(next());
    if (bit(mask, 21)) attributes.index = maybeDecimal(next());
  }
  if (bit(mask, 22)) next();
  if (bit(mask, 23)) {
    const assigned = integer(next(), 'assign map', 16);
    for (let n = 0; n < 32; n++) {
      if (!bit(assigned, n)) continue;
      const value = next();
      if (value === undefined) break;
      // The first two assignable fields are the backup battery and the main supply voltages.
      if (n === 0 && maybeDecimal(value) !== undefined) attributes.batteryVoltage = Number(value);
      else if (n === 1 && maybeDecimal(value) !== undefined) attributes.power = Number(value);
      else attributes[`assign${n + 1}`] = value;
    }
  }
  const fix: Fix = { fixTime, latitude, longitude, valid, attributes };
  if (speed !== undefined) fix.speed = speed;
  if (course !== undefined) fix.course = course;
  if (ignition !== undefined) fix.ignition = ignition;
  return fix;
}

/**
 * A line of the device answering the server: `ST300CMD;Res;DEV_ID;SW_VER;CMD_ID…`, or any
 * other header's `Res` (a setting applied: NTW, RPT, ADP…). Only the output commands Rastro
 * sends are command answers: the device also sends `Preset` once after power-on and answers
 * settings sent by SMS or the configurator, which confirm no command of ours.
 */
function decodeResponse(type: string, fields: string[]): Decoded {
  const identifier = deviceId(fields[2]);
  const command = fields[4] ?? '';
  if (type !== 'CMD' || !/^(Enable|Disable)\d/.test(command))
    return { identifier, fixes: [], heartbeat: true };
  // "Enable1NoUse": the line is not set up as an output, so nothing was switched.
  const ok = !/NoUse$/i.test(command);
  return { identifier, fixes: [], answer: { ok, text: fields.slice(4).join(';').slice(0, 200) } };
}

/** The UDP acknowledgement of a report (the device may wait for it: see the file's comment). */
export function ackOf(prefix: string, identifier: string): Buffer {
  return Buffer.from(`${prefix}ACK;${identifier}`, 'latin1');
}

function decodeLine(line: string, ctx: DecodeContext): Decoded {
  if (line.length === 0) return { fixes: [] };
  if (/[^\x20-\x7e]/.test(line)) fail('not a text line');
  const fields = line.split(';');
  const header = splitHeader(fields[0] ?? '');
  if (!header) fail('unknown header');
  const { prefix, type } = header;
  const universal = prefix === '';
  if (!universal && fields[1] === 'Res') return decodeResponse(type, fields);
  const identifier = deviceId(fields[1]);
  // A command line echoed, or the universal format's answers (RES), to commands Rastro does
  // not write in that format: they name the device, nothing more.
  if (type === 'CMD' || type === 'RES' || type === 'ALV')
    return { identifier, fixes: [], heartbeat: true };
  const reply = ctx.transport === 'udp' ? ackOf(prefix, identifier) : undefined;
  if (
    !POSITION_TYPES.has(type) ||
    (universal && type !== 'STT' && type !== 'ALT') ||
    prefix.startsWith('ST4')
  )
    // Reports Rastro does not read (travel summaries, RS232 data, the old ST4xx layout): the
    // device is alive, and over UDP it is told the report arrived, or it would resend it.
    return { identifier, fixes: [], heartbeat: true, reply };
  const fix = universal ? decodeUniversal(type, fields) : decodePrefixed(header, fields);
  return { identifier, fixes: [fix], reply };
}

export const suntech: Codec = {
  protocol: 'suntech',
  name: 'suntech',

  frame(buffer) {
    if (buffer.length === 0) return undefined;
    const first = buffer[0] as number;
    // A line starts with a letter (or the LF of a CRLF); anything else is noise up to the next.
    if (first !== 0x0a && !(first >= 0x41 && first <= 0x5a)) {
      let next = 1;
      while (next < buffer.length) {
        const b = buffer[next] as number;
        if (b === 0x0a || (b >= 0x41 && b <= 0x5a)) break;
        next++;
      }
      return { skip: next };
    }
    const end = buffer.indexOf(CR);
    if (end < 0) return buffer.length > MAX_LINE ? { skip: buffer.length } : undefined;
    if (end > MAX_LINE) return { skip: end + 1 };
    return { frame: buffer.subarray(0, end), length: end + 1 };
  },

  decode(frame, ctx) {
    // The LF of a CRLF ends up at the head of the next line; stray spaces are no field.
    return decodeLine(frame.toString('latin1').trim(), ctx);
  },

  datagram(datagram, ctx) {
    if (datagram.length > 64 * 1024) throw new CodecError('datagram too long');
    const out: Decoded[] = [];
    let firstError: CodecError | undefined;
    for (const raw of datagram.toString('latin1').split(/[\r\n]+/)) {
      const line = raw.trim();
      if (!line) continue;
      try {
        const decoded = decodeLine(line, ctx);
        if (decoded.identifier) out.push(decoded);
      } catch (err) {
        if (!(err instanceof CodecError)) throw err;
        // One broken line costs only itself; the datagram's others are still read.
        firstError ??= err;
      }
    }
    if (!out.length && firstError) throw firstError;
    return out;
  },

  encodeCommand(payload: string, ctx: CommandContext) {
    // Output commands only (COMMAND_PAYLOADS.suntech), in the ST300 family's form: the
    // universal and ST600 devices take other headers and are not written here.
    if (!/^(Enable|Disable)[1-4]$/.test(payload)) return undefined;
    if (!/^\d{4,20}$/.test(ctx.identifier)) return undefined;
    return Buffer.from(`ST300CMD;${ctx.identifier};02;${payload}\r`, 'latin1');
  },
};
