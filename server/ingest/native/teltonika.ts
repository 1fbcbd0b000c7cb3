/**
 * Teltonika FMB/FMC/FMM trackers (Teltonika "Data Sending Protocols"): binary, big-endian.
 *
 * TCP: the device opens with its IMEI (2-byte length, ASCII digits) and waits for one byte,
 * 0x01 to go on or 0x00 to hang up. Then it sends AVL packets: four zero bytes, the 4-byte
 * length of what follows up to the CRC, the codec id, the record count, the records, the count
 * again and a CRC-16/IBM (ARC) over codec id … second count, in 4 bytes. The server answers
 * with the number of records it took (4 bytes); anything else and the device sends them again,
 * so a packet whose CRC does not match is not answered at all. Commands go the other way in
 * Codec 12 (an SMS command's text), and the device answers in Codec 12 too. A lone 0xFF byte
 * is the device's keep-alive ping on an idle link.
 *
 * UDP: each datagram carries its own header (length, packet id, a byte of no use, the AVL
 * packet id, the IMEI) before the codec id, and no CRC; the answer echoes the ids with the
 * number of records taken.
 *
 * Records come in Codec 8 (1-byte IO ids), Codec 8 Extended (2-byte ids and counts, and a group
 * of variable length) and Codec 16 (2-byte ids, 1-byte counts, a generation type). The IO ids
 * that matter to a fleet are named (FMB common list); the others are kept as `io<ID>`.
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

export const CODEC_8 = 0x08;
export const CODEC_8E = 0x8e;
export const CODEC_12 = 0x0c;
export const CODEC_13 = 0x0d;
export const CODEC_16 = 0x10;

/** The listener's bound on unread bytes: a declared length above it is not worth waiting for. */
const MAX_FRAME = 64 * 1024;
/** Preamble, length, and the CRC around an AVL packet's data. */
const ENVELOPE = 12;
/** The keep-alive ping FMB devices send on an open link with nothing to say. */
const PING = 0xff;
/** An IMEI is 15 digits; a little room for the odd longer identifier, none for noise. */
const MAX_IMEI = 20;
/** Codec 12 command types: to the device, and the device's response. */
const TYPE_COMMAND = 0x05;
const TYPE_RESPONSE = 0x06;

/** CRC-16/IBM, also known as CRC-16/ARC: reflected polynomial 0xA001, initial value 0. */
export function crc16Ibm(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;

/** Where the next message may start: every Teltonika message begins with a zero byte or a ping. */
function nextStart(buffer: Buffer): number {
  for (let i = 1; i < buffer.length; i += 1) {
    const byte = buffer[i];
    if (byte === 0 || byte === PING) return i;
  }
  return buffer.length;
}

/** Splits the stream: the IMEI packet, AVL/command packets, and pings. */
function frame(buffer: Buffer): Framed {
  if (buffer.length === 0) return undefined;
  if (buffer[0] === PING) return { frame: buffer.subarray(0, 1), length: 1 };
  if (buffer[0] !== 0) return { skip: nextStart(buffer) };
  if (buffer.length < 2) return undefined;
  const imeiLength = buffer.readUInt16BE(0);
  if (imeiLength > 0) {
    // An IMEI packet (a device that logs in again on the same link sends it once more).
    if (imeiLength > MAX_IMEI) return { skip: nextStart(buffer) };
    const have = Math.min(buffer.length, 2 + imeiLength);
    for (let i = 2; i < have; i += 1)
      if (!isDigit(buffer[i] ?? 0)) return { skip: nextStart(buffer) };
    if (buffer.length < 2 + imeiLength) return undefined;
    return { frame: buffer.subarray(0, 2 + imeiLength), length: 2 + imeiLength };
  }
  // Four zero bytes, then the data length.
  const preamble = Math.min(buffer.length, 4);
  for (let i = 2; i < preamble; i += 1) if (buffer[i] !== 0) return { skip: nextStart(buffer) };
  if (buffer.length < 8) return undefined;
  const dataLength = buffer.readUInt32BE(4);
  // Codec id and the two counts at the least; no more than the listener would ever hold.
  if (dataLength < 3 || dataLength + ENVELOPE > MAX_FRAME) return { skip: nextStart(buffer) };
  const total = dataLength + ENVELOPE;
  if (buffer.length < total) return undefined;
  return { frame: buffer.subarray(0, total), length: total };
}

/** Reads a message's bytes in order; running past the end is a malformed message. */
class Reader {
  offset = 0;
  constructor(private readonly bytes: Buffer) {}

  get left() {
    return this.bytes.length - this.offset;
  }

  private need(n: number) {
    if (n < 0 || this.offset + n > this.bytes.length)
      throw new CodecError('message shorter than its contents');
    const at = this.offset;
    this.offset += n;
    return at;
  }

  u8() {
    return this.bytes.readUInt8(this.need(1));
  }
  u16() {
    return this.bytes.readUInt16BE(this.need(2));
  }
  u32() {
    return this.bytes.readUInt32BE(this.need(4));
  }
  i16() {
    return this.bytes.readInt16BE(this.need(2));
  }
  i32() {
    return this.bytes.readInt32BE(this.need(4));
  }
  u64() {
    return this.bytes.readBigUInt64BE(this.need(8));
  }
  slice(n: number) {
    const at = this.need(n);
    return this.bytes.subarray(at, at + n);
  }
}

/** One IO element's value as read: unsigned, with its size kept for the signed readings. */
interface IoValue {
  id: number;
  size: number;
  /** The unsigned value; 8-byte ones beyond 2^53 stay a bigint. */
  raw: number | bigint;
  /** Variable-length elements (Codec 8 Extended). */
  bytes?: Buffer;
}

function signed(value: IoValue): number {
  const n = typeof value.raw === 'bigint' ? Number(BigInt.asIntN(64, value.raw)) : value.raw;
  if (value.size === 1) return n > 0x7f ? n - 0x100 : n;
  if (value.size === 2) return n > 0x7fff ? n - 0x10000 : n;
  if (value.size === 4) return n > 0x7fffffff ? n - 0x100000000 : n;
  return n;
}

function unsigned(value: IoValue): number {
  return typeof value.raw === 'bigint' ? Number(value.raw) : value.raw;
}

/** What one value of an IO element is kept as when nothing names it. */
function rawOf(value: IoValue): number | string {
  if (value.bytes) return value.bytes.toString('hex');
  if (typeof value.raw === 'bigint') return value.raw.toString(16).toUpperCase();
  return value.raw;
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** A driver key (iButton, RFID card): its 8 bytes in hex, none when the reader is empty. */
function driverKey(value: IoValue): string | undefined {
  const n = typeof value.raw === 'bigint' ? value.raw : BigInt(value.raw);
  return n === 0n ? undefined : n.toString(16).toUpperCase().padStart(16, '0');
}

/**
 * A Dallas 1-Wire temperature in tenths of °C, or undefined for the sensor's error codes
 * (not ready, not connected, read error: all above the sensor's +125 °C range).
 */
function dallas(value: IoValue): number | undefined {
  const tenths = signed(value);
  return tenths > 1250 || tenths < -550 ? undefined : round(tenths * 0.1, 1);
}

/** Green driving type (253): which harsh manoeuvre the accelerometer saw. */
const GREEN_DRIVING: Partial<Record<number, Alarm>> = {
  1: 'hardAcceleration',
  2: 'hardBraking',
  3: 'hardCornering',
};

/** The alarm an IO element's value means, when it means one. */
function alarmOf(value: IoValue): Alarm | undefined {
  const n = unsigned(value);
  switch (value.id) {
    case 249:
      return n === 1 ? 'jamming' : undefined;
    case 246:
      return n === 1 ? 'tow' : undefined;
    case 252:
      return n === 1 ? 'powerCut' : undefined;
    case 253:
      return GREEN_DRIVING[n];
    // Crash detection: 1 a real crash, 2 a crash of limited data; 0 nothing.
    case 247:
      return n > 0 ? 'accident' : undefined;
    // Overspeeding: the value is the speed at the event.
    case 255:
      return n > 0 ? 'overspeed' : undefined;
    default:
      return undefined;
  }
}

/**
 * A record's IO elements under Rastro's names (canonical.ts): the fix's own fields set on
 * `fix`, the rest as attributes. Where two ids report the same reading (a CAN one and an OBD
 * one), the first named in the list wins.
 */
function applyIo(fix: Fix, values: IoValue[]) {
  const a = fix.attributes;
  const byId = new Map<number, IoValue>();
  for (const value of values) byId.set(value.id, value);
  const first = (...ids: number[]) => {
    for (const id of ids) {
      const value = byId.get(id);
      if (value && !value.bytes) return value;
    }
    return undefined;
  };
  const named = new Set<number>();
  const take = (...ids: number[]) => {
    for (const id of ids) named.add(id);
    return first(...ids);
  };
  const flag = (id: number, key: string) => {
    const value = take(id);
    if (value) a[key] = unsigned(value) !== 0;
  };

  const ignition = take(239);
  if (ignition) fix.ignition = unsigned(ignition) !== 0;
  flag(240, 'motion');
  flag(1, 'din1');
  flag(2, 'in2');
  flag(3, 'in3');
  flag(4, 'in4');
  flag(179, 'out1');
  flag(180, 'out2');
  flag(380, 'out3');
  flag(381, 'out4');

  const power = take(66);
  if (power) a.power = round(unsigned(power) * 0.001, 3);
  const batteryVoltage = take(67);
  if (batteryVoltage) a.batteryVoltage = round(unsigned(batteryVoltage) * 0.001, 3);
  const batteryCurrent = take(68);
  if (batteryCurrent) a.batteryCurrent = round(unsigned(batteryCurrent) * 0.001, 3);
  const batteryLevel = take(113);
  if (batteryLevel) fix.battery = unsigned(batteryLevel);
  const adc1 = take(9);
  if (adc1) a.adc1 = round(unsigned(adc1) * 0.001, 3);
  const adc2 = take(6);
  if (adc2) a.adc2 = round(unsigned(adc2) * 0.001, 3);

  // The GPS odometer first; a CAN one only when the device has no other.
  const odometer = take(16, 87);
  if (odometer) a.odometer = unsigned(odometer);
  const trip = take(199);
  if (trip) a.tripOdometer = unsigned(trip);
  // Engine hours, in seconds: the ignition-on counter (s), else the CAN engine worktime (min).
  const counter = take(449);
  const worktime = take(102);
  if (counter) a.hours = unsigned(counter);
  else if (worktime) a.hours = unsigned(worktime) * 60;

  const rssi = take(21);
  if (rssi) a.rssi = unsigned(rssi);
  const gnss = take(69);
  if (gnss) a.gnssStatus = unsigned(gnss);
  const pdop = take(181);
  if (pdop) a.pdop = round(unsigned(pdop) * 0.1, 1);
  const hdop = take(182);
  if (hdop) a.hdop = round(unsigned(hdop) * 0.1, 1);

  // CAN fuel level (%), else the OBD one.
  const fuel = take(89, 48);
  if (fuel) a.fuelLevel = unsigned(fuel);
  const litres = take(84);
  if (litres) a.fuelLiters = round(unsigned(litres) * 0.1, 1);
  const rpm = take(85, 36);
  if (rpm) a.rpm = unsigned(rpm);
  // CAN engine temperature in tenths of °C, else the OBD coolant temperature in °C.
  const engineTemp = take(115);
  const coolant = take(32);
  if (engineTemp) a.engineTemp = round(signed(engineTemp) * 0.1, 1);
  else if (coolant) a.engineTemp = signed(coolant);

  for (const [id, n] of [
    [72, 1],
    [73, 2],
    [74, 3],
    [75, 4],
  ] as const) {
    const value = first(id);
    const temp = value ? dallas(value) : undefined;
    // A sensor's error code stays raw (io72…), so the installer sees it.
    if (temp !== undefined) {
      named.add(id);
      a[`temp${n}`] = temp;
    }
  }

  const key = take(78, 207);
  const driver = key ? driverKey(key) : undefined;
  if (driver) fix.driverRfid = driver;

  const unplug = first(252);
  if (unplug) a.powerCut = unsigned(unplug) === 1;

  for (const value of values) if (!named.has(value.id)) a[`io${value.id}`] = rawOf(value);
}

/** One AVL record of Codec 8, 8 Extended or 16. */
function readRecord(r: Reader, codec: number): Fix {
  const wide = codec === CODEC_8E;
  const wideIds = codec === CODEC_8E || codec === CODEC_16;
  const time = r.u64();
  const priority = r.u8();
  const longitude = r.i32() / 1e7;
  const latitude = r.i32() / 1e7;
  const altitude = r.i16();
  const course = r.u16();
  const satellites = r.u8();
  const speed = r.u16();
  const event = wideIds ? r.u16() : r.u8();
  const generation = codec === CODEC_16 ? r.u8() : undefined;
  // The total count of IO elements: the groups' own counts are what is read.
  if (wide) r.u16();
  else r.u8();
  const values: IoValue[] = [];
  for (const size of [1, 2, 4, 8]) {
    const count = wide ? r.u16() : r.u8();
    for (let i = 0; i < count; i += 1) {
      const id = wideIds ? r.u16() : r.u8();
      let raw: number | bigint;
      if (size === 1) raw = r.u8();
      else if (size === 2) raw = r.u16();
      else if (size === 4) raw = r.u32();
      else {
        const big = r.u64();
        raw = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
      }
      values.push({ id, size, raw });
    }
  }
  if (wide) {
    const count = r.u16();
    for (let i = 0; i < count; i += 1) {
      const id = r.u16();
      const length = r.u16();
      values.push({ id, size: length, raw: 0, bytes: r.slice(length) });
    }
  }
  if (time > BigInt(Number.MAX_SAFE_INTEGER)) throw new CodecError('timestamp out of range');
  // No satellites (or the null island): no GPS fix; the coordinates are the last ones known.
  const valid = satellites > 0 && !(latitude === 0 && longitude === 0);
  const fix: Fix = {
    fixTime: new Date(Number(time)),
    latitude,
    longitude,
    speed,
    course,
    altitude,
    valid,
    attributes: { sat: satellites, priority, event },
  };
  if (generation !== undefined) fix.attributes.generation = generation;
  applyIo(fix, values);
  const alarms = values.map((v) => ({ id: v.id, alarm: alarmOf(v) }));
  // The IO that made the record says what it is about; a panic record without one is an SOS.
  const own = alarms.find((x) => x.id === event && x.alarm)?.alarm;
  const alarm = own ?? (priority === 2 ? 'sos' : undefined) ?? alarms.find((x) => x.alarm)?.alarm;
  if (alarm) fix.attributes.alarm = alarm;
  if (alarm === 'powerCut') fix.attributes.powerCut = true;
  return fix;
}

/** The records of an AVL data array (codec id … second count), and their count. */
function readAvl(data: Buffer): { codec: number; fixes: Fix[]; count: number } {
  const r = new Reader(data);
  const codec = r.u8();
  if (codec !== CODEC_8 && codec !== CODEC_8E && codec !== CODEC_16)
    throw new CodecError(`codec 0x${codec.toString(16)} carries no records`);
  const count = r.u8();
  const fixes: Fix[] = [];
  for (let i = 0; i < count; i += 1) fixes.push(readRecord(r, codec));
  const again = r.u8();
  if (again !== count) throw new CodecError('record counts differ');
  if (r.left !== 0) throw new CodecError('bytes after the records');
  return { codec, fixes, count };
}

/**
 * Whether a device's answer to a command says it failed: an error, an unknown command, or an
 * output the configuration turned off ("DOUT1 Is disabled from CFG").
 */
const REFUSED = /error|fail|unknown|disabled/i;

/** A Codec 12 message from the device: the text of its responses (type 0x06). */
function readResponses(data: Buffer): string {
  const r = new Reader(data);
  r.u8();
  const count = r.u8();
  const texts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const type = r.u8();
    const size = r.u32();
    const text = r.slice(size);
    if (type !== TYPE_RESPONSE) throw new CodecError(`Codec 12 type 0x${type.toString(16)}`);
    texts.push(text.toString('latin1').trim());
  }
  if (r.u8() !== count) throw new CodecError('response counts differ');
  if (r.left !== 0) throw new CodecError('bytes after the responses');
  return texts.join(' ');
}

/** A TCP packet after the preamble check: its data part, with the length and CRC verified. */
function dataOf(frame: Buffer): Buffer {
  if (frame.length < ENVELOPE + 3) throw new CodecError('packet too short');
  if (frame.readUInt32BE(0) !== 0) throw new CodecError('no preamble');
  const length = frame.readUInt32BE(4);
  if (length + ENVELOPE !== frame.length) throw new CodecError('length does not match');
  const data = frame.subarray(8, 8 + length);
  const crc = frame.readUInt32BE(8 + length);
  // A damaged packet is not answered: the device sends it again.
  if (crc !== crc16Ibm(data)) throw new CodecError('CRC mismatch');
  return data;
}

/** The IMEI of a login packet. */
function readImei(frame: Buffer): string {
  const length = frame.readUInt16BE(0);
  if (length === 0 || length > MAX_IMEI || frame.length !== 2 + length)
    throw new CodecError('bad IMEI packet');
  const imei = frame.subarray(2).toString('latin1');
  if (!/^\d+$/.test(imei)) throw new CodecError('IMEI is not digits');
  return imei;
}

const ACCEPT = Buffer.from([0x01]);
const REFUSE = Buffer.from([0x00]);

/** The answer to an AVL packet over TCP: the number of records taken, 4 bytes. */
function accepted(count: number): Buffer {
  const reply = Buffer.alloc(4);
  reply.writeUInt32BE(count);
  return reply;
}

function decode(frame: Buffer, _ctx: DecodeContext): Decoded {
  if (frame.length === 1 && frame[0] === PING) return { fixes: [], heartbeat: true };
  if (frame.length < 2) throw new CodecError('message too short');
  if (frame.readUInt16BE(0) !== 0)
    return { identifier: readImei(frame), login: true, fixes: [], reply: ACCEPT };
  const data = dataOf(frame);
  const codec = data[0];
  if (codec === CODEC_12) {
    const text = readResponses(data);
    return { fixes: [], answer: { ok: !REFUSED.test(text), text } };
  }
  if (codec === CODEC_13) {
    // Codec 13 carries the serial port's data with a timestamp (COM TCP link), one way: no
    // answer is expected, and it is no command's answer. It shows the device is alive.
    return { fixes: [], heartbeat: true };
  }
  const { fixes, count } = readAvl(data);
  return { fixes, reply: accepted(count) };
}

/**
 * A UDP datagram: length (of what follows it), packet id, a byte of no use, AVL packet id,
 * IMEI, then the AVL data array (no CRC). Answered with the ids and the records taken.
 */
function datagram(bytes: Buffer, _ctx: DecodeContext): Decoded[] {
  const r = new Reader(bytes);
  const length = r.u16();
  if (length + 2 !== bytes.length) throw new CodecError('datagram length does not match');
  const packetId = r.u16();
  r.u8();
  const avlPacketId = r.u8();
  const imeiLength = r.u16();
  if (imeiLength === 0 || imeiLength > MAX_IMEI) throw new CodecError('bad IMEI length');
  const identifier = r.slice(imeiLength).toString('latin1');
  if (!/^\d+$/.test(identifier)) throw new CodecError('IMEI is not digits');
  const { fixes, count } = readAvl(bytes.subarray(r.offset));
  const reply = Buffer.alloc(7);
  reply.writeUInt16BE(5, 0);
  reply.writeUInt16BE(packetId, 2);
  reply.writeUInt8(0x01, 4);
  reply.writeUInt8(avlPacketId, 5);
  reply.writeUInt8(count, 6);
  return [{ identifier, fixes, reply }];
}

/** An SMS command as Teltonika devices take them over GPRS: a lower-case word, its arguments. */
const COMMAND_TEXT = /^[a-z][a-z0-9_]*( [\x20-\x7e]*)?$/;
const MAX_COMMAND = 512;

/** A Codec 12 command (type 0x05) carrying an SMS command's text. */
export function encodeCodec12(text: string): Buffer {
  const command = Buffer.from(text, 'latin1');
  // Codec id, quantity, type, size, the command, quantity again.
  const data = Buffer.alloc(8 + command.length);
  data.writeUInt8(CODEC_12, 0);
  data.writeUInt8(1, 1);
  data.writeUInt8(TYPE_COMMAND, 2);
  data.writeUInt32BE(command.length, 3);
  command.copy(data, 7);
  data.writeUInt8(1, 7 + command.length);
  const packet = Buffer.alloc(data.length + ENVELOPE);
  packet.writeUInt32BE(data.length, 4);
  data.copy(packet, 8);
  packet.writeUInt32BE(crc16Ibm(data), 8 + data.length);
  return packet;
}

export const teltonika: Codec = {
  protocol: 'teltonika',
  name: 'teltonika',
  frame: (buffer) => frame(buffer),
  decode,
  datagram,
  encodeCommand(payload) {
    // Any SMS command the device knows goes as text; what is no Teltonika command does not.
    if (payload.length > MAX_COMMAND || !COMMAND_TEXT.test(payload)) return undefined;
    return encodeCodec12(payload);
  },
  refuse: () => REFUSE,
};
