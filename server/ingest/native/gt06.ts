/**
 * Concox GT06 (GT06N, GT06E, JM-VL01/VL02 and the many clones): a binary protocol over TCP.
 *
 * A packet is `78 78 <length 1> <protocol> <content> <serial 2> <crc 2> 0D 0A`, or the
 * extended `79 79 <length 2> …` for the longer ones. The length counts from the protocol
 * number to the CRC; the CRC is CRC-ITU (CRC-16/X-25) from the length to the serial. A device
 * opens with a login (its IMEI in BCD) and waits for the server's echo of the login's serial
 * before it sends anything else; the heartbeat (status) and the alarms are echoed the same
 * way; positions, command answers and information packets are not answered at all.
 *
 * Times are UTC (the maker's firmware sends UTC; a clone set to local time would be off by
 * its zone, and nothing in the packet says so). Coordinates are in 1/30000 of a minute.
 */
import type { Fix } from '../queries/positions';
import { type Alarm, type Codec, CodecError, type DecodeContext, type Decoded } from './codec';

/** The protocol numbers this codec reads or writes. */
export const GT06 = {
  login: 0x01,
  gps: 0x10,
  lbs: 0x11,
  location: 0x12,
  status: 0x13,
  text: 0x15,
  alarm: 0x16,
  phoneAddress: 0x1a,
  textExtended: 0x21,
  locationExtended: 0x22,
  alarmExtended: 0x26,
  alarmFence: 0x27,
  lbsMulti: 0x28,
  addressRequest: 0x2a,
  command: 0x80,
  time: 0x8a,
  info: 0x94,
  /** The 4G models' (JM-VL03…) location, cells and multi-fence alarm: wider cell fields. */
  location4g: 0xa0,
  lbs4g: 0xa1,
  alarm4g: 0xa4,
} as const;

/** The shortest length field: protocol number, serial and CRC, no content. */
const MIN_LENGTH = 5;
/** The listener keeps at most 64 KB of unread bytes: a longer packet can never be whole. */
const MAX_PACKET = 64 * 1024;

/** CRC-ITU as the maker's appendix computes it: CRC-16/X-25 (reflected 0x1021, FFFF in and out). */
export function crcItu(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i += 1) {
    crc ^= bytes[i] ?? 0;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return ~crc & 0xffff;
}

/**
 * A whole packet: start bytes, length, protocol, content, serial, CRC and stop bytes. The
 * extended form (`79 79`, two length bytes) when `extended` or when the content is too long
 * for one length byte.
 */
export function packet(protocol: number, content: Uint8Array, serial: number, extended = false) {
  const length = 1 + content.length + 2 + 2;
  const long = extended || length > 0xff;
  const head = long ? 4 : 3;
  const out = Buffer.alloc(head + length + 2);
  out[0] = long ? 0x79 : 0x78;
  out[1] = out[0];
  if (long) out.writeUInt16BE(length, 2);
  else out[2] = length;
  out[head] = protocol;
  out.set(content, head + 1);
  out.writeUInt16BE(serial & 0xffff, head + 1 + content.length);
  out.writeUInt16BE(crcItu(out, 2, head + 1 + content.length + 2), head + 3 + content.length);
  out[out.length - 2] = 0x0d;
  out[out.length - 1] = 0x0a;
  return out;
}

/** The server's echo of a login, a heartbeat or an alarm: its protocol and serial, no content. */
export const ack = (protocol: number, serial: number) =>
  packet(protocol, new Uint8Array(0), serial);

/** Where a start of packet (`78 78` or `79 79`) may begin, from `from`; the end when none. */
function nextStart(buffer: Buffer, from: number): number {
  for (let i = from; i < buffer.length; i += 1) {
    const b = buffer[i];
    if (b !== 0x78 && b !== 0x79) continue;
    // A lone last byte may be the first half of a start still on its way.
    if (i + 1 === buffer.length || buffer[i + 1] === b) return i;
  }
  return buffer.length;
}

/**
 * The packet that would start at `at`: its whole length, 'short' when more bytes are needed,
 * 'bad' when the bytes there cannot be one (a length out of range, no stop bytes at its end).
 */
function candidate(buffer: Buffer, at: number): number | 'short' | 'bad' {
  if (buffer.length - at < 3) return 'short';
  const long = buffer[at] === 0x79;
  const head = long ? 4 : 3;
  if (buffer.length - at < head) return 'short';
  const length = long ? buffer.readUInt16BE(at + 2) : (buffer[at + 2] ?? 0);
  const total = head + length + 2;
  // Too short to be a packet, or longer than the listener would ever hold: not a start.
  if (length < MIN_LENGTH || total > MAX_PACKET) return 'bad';
  if (buffer.length - at < total) return 'short';
  if (buffer[at + total - 2] !== 0x0d || buffer[at + total - 1] !== 0x0a) return 'bad';
  return total;
}

/** How far the stream is searched for a packet past a start that waits (bounds the work). */
const RESYNC_WINDOW = 512;

/** Where a whole packet with a right CRC starts after the first byte, if one does. */
function soundPacketAfter(buffer: Buffer): number | undefined {
  const limit = Math.min(buffer.length, RESYNC_WINDOW);
  for (let at = nextStart(buffer, 1); at < limit; at = nextStart(buffer, at + 1)) {
    const total = candidate(buffer, at);
    if (typeof total !== 'number') continue;
    const end = at + total - 2;
    if (crcItu(buffer, at + 2, end - 2) === buffer.readUInt16BE(end - 2)) return at;
  }
  return undefined;
}

/** The alarm codes of the status (alarm/language) byte, as the maker's document lists them. */
const ALARM_CODES = new Map<number, Alarm>([
  [0x01, 'sos'],
  [0x02, 'powerCut'],
  [0x03, 'vibration'],
  [0x04, 'geofence'], // entered a fence
  [0x05, 'geofence'], // left a fence
  [0x06, 'overspeed'],
  [0x09, 'tow'], // moved while parked (displacement)
  [0x0e, 'lowBattery'], // external battery low
  [0x0f, 'lowBattery'], // external battery low, protection on
  [0x14, 'door'],
  [0x19, 'lowBattery'], // internal battery low
  [0x29, 'hardAcceleration'],
  [0x2a, 'hardCornering'], // sharp left
  [0x2b, 'hardCornering'], // sharp right
  [0x2c, 'accident'], // collision
  [0x30, 'hardBraking'],
  [0x32, 'powerCut'], // pulled out of its socket (OBD models)
]);

/** The alarm state bits (3 to 5) of the terminal information byte. */
const STATE_ALARMS: Partial<Record<number, Alarm>> = {
  1: 'vibration',
  2: 'powerCut',
  3: 'lowBattery',
  4: 'sos',
};

/** Reads the packet's content in order; running past its end is a malformed packet. */
class Reader {
  offset = 0;
  constructor(readonly bytes: Buffer) {}

  get left() {
    return this.bytes.length - this.offset;
  }

  private need(n: number) {
    if (this.offset + n > this.bytes.length) throw new CodecError('packet shorter than its fields');
  }

  u8() {
    this.need(1);
    const v = this.bytes.readUInt8(this.offset);
    this.offset += 1;
    return v;
  }

  u16() {
    this.need(2);
    const v = this.bytes.readUInt16BE(this.offset);
    this.offset += 2;
    return v;
  }

  u24() {
    this.need(3);
    const v = this.bytes.readUIntBE(this.offset, 3);
    this.offset += 3;
    return v;
  }

  u32() {
    this.need(4);
    const v = this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  take(n: number) {
    this.need(n);
    const v = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }
}

/** YY MM DD hh mm ss, binary, UTC. */
function readTime(r: Reader): Date {
  const [yy, mo, dd, hh, mi, ss] = [r.u8(), r.u8(), r.u8(), r.u8(), r.u8(), r.u8()];
  if (yy > 99 || mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59)
    throw new CodecError('date out of range');
  return new Date(Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss));
}

/**
 * The GPS block: time, satellites, latitude, longitude, speed (km/h), and course with the
 * status bits: 12 the fix is real-time GPS, 10 north, 11 west; a few clones put the ACC in
 * bit 15 and flag it with bit 14.
 */
function readGps(r: Reader): Fix {
  const fixTime = readTime(r);
  const satellites = r.u8() & 0x0f; // the high half is the block's length (12)
  const lat = r.u32() / 1_800_000;
  const lon = r.u32() / 1_800_000;
  const speed = r.u8();
  const flags = r.u16();
  const valid = (flags & 0x1000) !== 0;
  const fix: Fix = {
    fixTime,
    latitude: flags & 0x0400 ? lat : -lat,
    longitude: flags & 0x0800 ? -lon : lon,
    speed,
    course: flags & 0x03ff,
    valid,
    attributes: { sat: satellites },
  };
  if (flags & 0x4000) setIgnition(fix, (flags & 0x8000) !== 0);
  // Without a fix the place is the last the receiver had, or zeros: not a place to store.
  if (!valid) {
    fix.latitude = Number.NaN;
    fix.longitude = Number.NaN;
  }
  return fix;
}

/** The ACC line is the ignition, and the GT06's only digital input (its first). */
function setIgnition(fix: Fix, on: boolean) {
  fix.ignition = on;
  fix.attributes.din1 = on;
}

/**
 * The serving cell: MCC, MNC (two bytes when the MCC's top bit says so), LAC and cell id; the
 * 4G packets carry a 4-byte LAC and an 8-byte cell id, some 2G ones a 4-byte cell id.
 */
function readCell(
  r: Reader,
  attributes: Record<string, unknown>,
  widths: { lac: 2 | 4; cell: 3 | 4 | 8 } = { lac: 2, cell: 3 },
) {
  const mcc = r.u16();
  attributes.mcc = mcc & 0x7fff;
  attributes.mnc = mcc & 0x8000 ? r.u16() : r.u8();
  attributes.lac = widths.lac === 4 ? r.u32() : r.u16();
  if (widths.cell === 8) {
    const cell = r.take(8).readBigUInt64BE();
    attributes.cellId = cell <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cell) : cell.toString();
  } else attributes.cellId = widths.cell === 4 ? r.u32() : r.u24();
}

/**
 * The terminal information byte: 0 armed, 1 ACC on, 2 charging (external power present), 6 GPS
 * on, 7 the relay has cut the fuel and power. Bits 3–5 are an alarm state in the alarm packets
 * (1 vibration, 2 power cut, 3 low battery, 4 SOS) and undefined in the heartbeat of the newer
 * documents: the caller reads them where they mean something.
 */
function applyTerminalInfo(fix: Fix, info: number) {
  fix.attributes.status = info;
  fix.attributes.armed = (info & 0x01) !== 0;
  setIgnition(fix, (info & 0x02) !== 0);
  fix.attributes.charge = (info & 0x04) !== 0;
  fix.attributes.out1 = (info & 0x80) !== 0;
  return (info >> 3) & 0x07;
}

/** Voltage level 0 (none) to 6 (full): the battery as a percentage. */
function applyVoltageLevel(fix: Fix, level: number) {
  fix.attributes.batteryLevel = level;
  if (level <= 6) fix.battery = Math.round((level * 100) / 6);
}

function applyAlarm(fix: Fix, code: number, fallback?: Alarm) {
  if (code !== 0) fix.attributes.alarmCode = code;
  const alarm = ALARM_CODES.get(code) ?? (code === 0 ? fallback : undefined);
  if (!alarm) return;
  fix.attributes.alarm = alarm;
  if (alarm === 'powerCut') fix.attributes.powerCut = true;
  if (code === 0x04) fix.attributes.geofence = 'enter';
  if (code === 0x05) fix.attributes.geofence = 'exit';
}

/** A report without a place of its own (status, cells, information): the server's time. */
function report(at: Date): Fix {
  return { fixTime: at, latitude: Number.NaN, longitude: Number.NaN, valid: false, attributes: {} };
}

/** Text the device wrote, kept printable. */
function printable(bytes: Uint8Array, encoding: 'latin1' | 'utf16be' = 'latin1') {
  let text: string;
  if (encoding === 'utf16be') {
    const swapped = Buffer.from(bytes.subarray(0, bytes.length & ~1));
    swapped.swap16();
    text = swapped.toString('utf16le');
  } else text = Buffer.from(bytes).toString('latin1');
  return [...text]
    .map((c) => (c < ' ' || c === '\u007f' ? ' ' : c))
    .join('')
    .trim();
}

/** A device's answer to a command: it did it unless its words say it failed. */
export function answerOf(text: string) {
  return { ok: !/fail|error|unvalid|invalid|wrong/i.test(text), text };
}

/**
 * Location packets: GPS, then the cell (0x12, 0x22, 0xA0), then on 0x22 and 0xA0 the ACC, why
 * it was sent (a timer, a distance, a turn, an ACC change…) and whether it is a re-upload of a
 * fix kept while offline; the GPS-only (0x10) and address query (0x1A, 0x2A) ones stop at GPS.
 */
function decodeLocation(protocol: number, r: Reader): Fix {
  const fix = readGps(r);
  if (protocol === GT06.gps || protocol === GT06.phoneAddress || protocol === GT06.addressRequest)
    return fix;
  const wide = protocol === GT06.location4g;
  if (r.left >= 8) readCell(r, fix.attributes, wide ? { lac: 4, cell: 8 } : undefined);
  if ((protocol === GT06.locationExtended || wide) && r.left >= 3) {
    setIgnition(fix, r.u8() !== 0);
    fix.attributes.event = r.u8();
    if (r.u8() === 1) fix.attributes.archive = true;
  }
  // The mileage, in metres, on the models that count it.
  if (r.left === 4) fix.attributes.odometer = r.u32();
  return fix;
}

/**
 * Alarm packets (0x16, 0x26, 0x27, 0xA4): GPS, the cell block with its length, terminal
 * information, voltage level, GSM signal, alarm and language; 0x27 and 0xA4 then the fence,
 * and the models that count it the mileage.
 */
function decodeAlarm(protocol: number, r: Reader): Fix {
  const fix = readGps(r);
  const cellLength = r.u8();
  if (cellLength > 0) {
    // The length counts itself; a longer cell block has fields this codec skips.
    const cell = new Reader(r.take(Math.max(0, cellLength - 1)));
    const wide = protocol === GT06.alarm4g;
    if (cell.left >= (wide ? 14 : 8))
      readCell(cell, fix.attributes, wide ? { lac: 4, cell: 8 } : undefined);
  } else if (r.left >= 8 + 4) {
    // A clone that says no cell and still sends its eight zeroed bytes.
    r.take(8);
  }
  const state = applyTerminalInfo(fix, r.u8());
  fix.attributes.powerCut = state === 2;
  applyVoltageLevel(fix, r.u8());
  fix.attributes.rssi = r.u8();
  applyAlarm(fix, r.u8(), STATE_ALARMS[state]);
  if (r.left >= 1) r.u8(); // language
  if ((protocol === GT06.alarmFence || protocol === GT06.alarm4g) && r.left >= 1) {
    const fence = r.u8();
    if (fence !== 0xff) fix.attributes.geofenceNumber = fence + 1;
  }
  if (r.left === 4) fix.attributes.odometer = r.u32();
  return fix;
}

/**
 * The heartbeat (0x13): terminal information, voltage level (one byte, or two in hundredths
 * of a volt on some firmwares), GSM signal, then two bytes the document versions disagree on
 * (alarm and language, or language alone): no alarm is read from them, alarms come in the
 * alarm packets.
 */
function decodeStatus(r: Reader, at: Date): Fix {
  const fix = report(at);
  applyTerminalInfo(fix, r.u8());
  if (r.left === 5) {
    fix.attributes.batteryVoltage = r.u16() / 100;
  } else if (r.left >= 1) applyVoltageLevel(fix, r.u8());
  if (r.left >= 1) fix.attributes.rssi = r.u8();
  return fix;
}

/**
 * Cell reports without GPS (0x28, 0xA1, and 0x11 without GPS): the device's time and its
 * serving cell, a report at the last known place.
 */
function decodeCells(protocol: number, r: Reader, now: Date): Fix {
  const fix = report(now);
  if (r.left >= 6) fix.fixTime = readTime(r);
  const wide = protocol === GT06.lbs4g;
  if (r.left >= (wide ? 15 : 8)) {
    readCell(r, fix.attributes, wide ? { lac: 4, cell: 8 } : undefined);
    if (r.left >= 1) fix.attributes.rssi = r.u8();
  }
  return fix;
}

/**
 * Information transmission (0x94): a type, then its value. 0x00 the external supply in
 * hundredths of a volt; 0x04 the device's settings as text, whose `DYD` says the relay state
 * (bit 1: fuel and power cut, bit 0: restored); 0x05 the door; 0x0A the SIM's identifiers;
 * 0x1B an RFID card (02, card type, 4 bytes of id, checksum, 03). A short one without a type
 * is the supply alone.
 */
function decodeInfo(r: Reader, at: Date): Fix | undefined {
  const fix = report(at);
  if (r.left === 2) {
    fix.attributes.power = r.u16() / 100;
    return fix;
  }
  const type = r.u8();
  if (type === 0x00 && r.left >= 2) fix.attributes.power = r.u16() / 100;
  else if (type === 0x04) {
    const relay = /(?:^|;)DYD=([0-9A-Fa-f]{1,2})/.exec(printable(r.take(r.left)));
    if (!relay) return undefined;
    const bits = Number.parseInt(relay[1] ?? '0', 16);
    if (bits & 0x02) fix.attributes.out1 = true;
    else if (bits & 0x01) fix.attributes.out1 = false;
    else return undefined;
  } else if (type === 0x05 && r.left >= 1) fix.attributes.door = (r.u8() & 0x01) !== 0;
  else if (type === 0x0a && r.left >= 26) {
    r.take(16); // IMEI and IMSI
    fix.attributes.iccid = r.take(10).toString('hex').replace(/f/g, '');
  } else if (type === 0x1b && r.left >= 4) {
    const card = r.take(r.left);
    const id = card.length >= 8 && card[0] === 0x02 ? card.subarray(2, 6) : card;
    fix.driverRfid = id.toString('hex').toUpperCase();
  } else return undefined;
  return fix;
}

/** The server's time, for a device that asks for it (0x8A). */
function timeReply(now: Date, serial: number) {
  const content = Uint8Array.of(
    now.getUTCFullYear() % 100,
    now.getUTCMonth() + 1,
    now.getUTCDate(),
    now.getUTCHours(),
    now.getUTCMinutes(),
    now.getUTCSeconds(),
  );
  return packet(GT06.time, content, serial);
}

/** The IMEI of a login: 8 bytes of BCD, 16 digits whose first is a padding 0. */
function readImei(r: Reader): string {
  const digits = r.take(8).toString('hex');
  if (!/^\d{16}$/.test(digits)) throw new CodecError('IMEI is not BCD');
  return digits.slice(1);
}

function decodePacket(frame: Buffer, ctx: DecodeContext): Decoded {
  if (frame.length < 10) throw new CodecError('packet too short');
  const long = frame[0] === 0x79 && frame[1] === 0x79;
  if (!long && !(frame[0] === 0x78 && frame[1] === 0x78)) throw new CodecError('no start bytes');
  const head = long ? 4 : 3;
  const length = long ? frame.readUInt16BE(2) : (frame[2] ?? 0);
  if (length < MIN_LENGTH || head + length + 2 !== frame.length)
    throw new CodecError('length does not match the packet');
  if (frame[frame.length - 2] !== 0x0d || frame[frame.length - 1] !== 0x0a)
    throw new CodecError('no stop bytes');
  const end = frame.length - 2;
  if (crcItu(frame, 2, end - 2) !== frame.readUInt16BE(end - 2))
    throw new CodecError('CRC does not match');
  const protocol = frame[head] ?? 0;
  const serial = frame.readUInt16BE(end - 4);
  const r = new Reader(frame.subarray(head + 1, end - 4));

  switch (protocol) {
    case GT06.login:
      return { identifier: readImei(r), login: true, fixes: [], reply: ack(protocol, serial) };
    case GT06.status:
      return {
        fixes: [decodeStatus(r, ctx.now)],
        heartbeat: true,
        reply: ack(protocol, serial),
      };
    case GT06.gps:
    case GT06.location:
    case GT06.locationExtended:
    case GT06.location4g:
    case GT06.phoneAddress:
    case GT06.addressRequest:
      return { fixes: [decodeLocation(protocol, r)] };
    case GT06.lbs: {
      // Newer firmwares send GPS and a wide cell here; the older ones cells only.
      if (r.left >= 18 && ((frame[head + 7] ?? 0) & 0xf0) === 0xc0) {
        const fix = readGps(r);
        if (r.left >= 10) readCell(r, fix.attributes, { lac: 2, cell: 4 });
        return { fixes: [fix] };
      }
      return { fixes: [decodeCells(protocol, r, ctx.now)] };
    }
    case GT06.lbsMulti:
    case GT06.lbs4g:
      return { fixes: [decodeCells(protocol, r, ctx.now)] };
    case GT06.alarm:
    case GT06.alarmExtended:
    case GT06.alarmFence:
    case GT06.alarm4g:
      return { fixes: [decodeAlarm(protocol, r)], reply: ack(protocol, serial) };
    case GT06.text: {
      // Command length (server flag and text), the server flag the command carried, the text.
      const size = r.u8();
      if (size < 4 || size > r.left) throw new CodecError('text length out of range');
      r.u32();
      const text = printable(r.take(size - 4));
      if (text.startsWith('<ICCID:')) {
        const fix = report(ctx.now);
        fix.attributes.iccid = text.slice(7).replace(/>.*$/, '');
        return { fixes: [fix] };
      }
      return { fixes: [], answer: answerOf(text) };
    }
    case GT06.textExtended: {
      r.u32(); // server flag
      const encoding = r.u8();
      const text = printable(r.take(r.left), encoding === 2 ? 'utf16be' : 'latin1');
      return { fixes: [], answer: answerOf(text) };
    }
    case GT06.info: {
      const fix = decodeInfo(r, ctx.now);
      return { fixes: fix ? [fix] : [] };
    }
    case GT06.time:
      return { fixes: [], reply: timeReply(ctx.now, serial) };
    default:
      // A packet of a model this codec does not read: well formed, nothing in it for us.
      return { fixes: [] };
  }
}

export const gt06: Codec = {
  protocol: 'gt06',
  name: 'gt06',

  frame(buffer) {
    if (buffer.length === 0) return undefined;
    const start = nextStart(buffer, 0);
    if (start > 0) return { skip: start };
    const here = candidate(buffer, 0);
    if (here === 'bad') return { skip: 1 };
    if (here === 'short') {
      // A stray start byte before a real packet would have us wait for a length that never
      // comes: a whole, sound packet further on says the bytes before it are noise.
      const later = soundPacketAfter(buffer);
      return later === undefined ? undefined : { skip: later };
    }
    return { frame: buffer.subarray(0, here), length: here };
  },

  decode: decodePacket,

  encodeCommand(payload, ctx) {
    // The command is the SMS text itself (`RELAY,1#`), in ASCII, inside a 0x80 packet.
    if (!/^[\x20-\x7e]{1,200}$/.test(payload)) return undefined;
    const text = Buffer.from(payload, 'latin1');
    const content = Buffer.alloc(1 + 4 + text.length);
    content[0] = 4 + text.length;
    // Server flag: the device echoes it in its answer; zero, as the maker's examples have it.
    content.writeUInt32BE(0, 1);
    content.set(text, 5);
    return packet(GT06.command, content, ctx.serial);
  },
};
