/**
 * A GT06 device's side of the protocol (gt06.ts), for the simulator, the benchmark and the
 * tests: the packets a Concox tracker sends, built as its firmware builds them.
 */
import type { Alarm, DeviceReport } from './codec';
import { GT06, packet } from './gt06';

/**
 * What a device reports in one position. Its speed takes one byte on the wire (0–255 km/h); the
 * driver's card is no part of a position (the reader's read goes apart: gt06Rfid); an alarm is
 * sent as an alarm packet (0x26) instead of a location (0x22).
 */
export interface Gt06Position extends DeviceReport {
  /** Percent; sent as the voltage level 0–6 of an alarm packet. */
  battery?: number | undefined;
  satellites?: number | undefined;
  /** False: no GPS fix (the status bit off). */
  valid?: boolean | undefined;
  /** The relay has cut the fuel (terminal information bit 7 of an alarm packet). */
  relay?: boolean | undefined;
}

/** The alarm code of each alarm a device can raise (the first code, where several map). */
export const GT06_ALARM_CODES: Partial<Record<Alarm, number>> = {
  sos: 0x01,
  powerCut: 0x02,
  vibration: 0x03,
  geofence: 0x05,
  overspeed: 0x06,
  tow: 0x09,
  lowBattery: 0x0e,
  door: 0x14,
  hardAcceleration: 0x29,
  hardCornering: 0x2a,
  accident: 0x2c,
  hardBraking: 0x30,
};

/** Recife's cell (Brazil 724, TIM 04), for the packets' LBS block. */
const CELL = Uint8Array.of(0x02, 0xd4, 0x04, 0x1b, 0x59, 0x00, 0x3a, 0x98);

/** A login: the IMEI (15 digits) in BCD behind a 0 digit. */
export function gt06Login(imei: string, serial = 1) {
  if (!/^\d{15}$/.test(imei)) throw new Error('an IMEI has 15 digits');
  return packet(GT06.login, Buffer.from(`0${imei}`, 'hex'), serial);
}

function timeBytes(at: Date) {
  return [
    at.getUTCFullYear() % 100,
    at.getUTCMonth() + 1,
    at.getUTCDate(),
    at.getUTCHours(),
    at.getUTCMinutes(),
    at.getUTCSeconds(),
  ];
}

/** The GPS block: time, satellites, coordinates in 1/30000 minute, speed, course and flags. */
function gpsBlock(p: Gt06Position) {
  const out = Buffer.alloc(18);
  out.set(timeBytes(p.fixTime), 0);
  out[6] = 0xc0 | Math.min(15, p.satellites ?? 9);
  out.writeUInt32BE(Math.round(Math.abs(p.latitude) * 1_800_000), 7);
  out.writeUInt32BE(Math.round(Math.abs(p.longitude) * 1_800_000), 11);
  out[15] = Math.max(0, Math.min(255, Math.round(p.speed)));
  let flags = Math.round(p.course) % 360;
  if (p.valid !== false) flags |= 0x1000;
  if (p.latitude >= 0) flags |= 0x0400;
  if (p.longitude < 0) flags |= 0x0800;
  out.writeUInt16BE(flags, 16);
  return out;
}

/** The battery as the voltage level 0–6. */
const level = (battery: number | undefined) =>
  battery === undefined ? 6 : Math.max(0, Math.min(6, Math.round((battery / 100) * 6)));

/**
 * A position: a location packet (0x22: GPS, cell, ACC, upload mode, re-upload flag), or an
 * alarm packet (0x26: GPS, cell, terminal information, voltage level, signal, alarm) when it
 * carries an alarm.
 */
export function gt06Position(p: Gt06Position, serial: number, reupload = false) {
  const gps = gpsBlock(p);
  if (p.alarm) {
    const info =
      (p.ignition ? 0x02 : 0) |
      0x04 |
      0x40 |
      (p.relay ? 0x80 : 0) |
      (p.alarm === 'powerCut' ? 2 << 3 : 0);
    const status = Uint8Array.of(info, level(p.battery), 4, GT06_ALARM_CODES[p.alarm] ?? 0, 0x02);
    return packet(GT06.alarmExtended, Buffer.concat([gps, Uint8Array.of(9), CELL, status]), serial);
  }
  const tail = Uint8Array.of(p.ignition ? 1 : 0, 0x00, reupload ? 1 : 0);
  return packet(GT06.locationExtended, Buffer.concat([gps, CELL, tail]), serial);
}

/** A heartbeat (0x13): terminal information, voltage level, GSM signal, alarm and language. */
export function gt06Heartbeat(
  serial: number,
  state: { ignition?: boolean; relay?: boolean; battery?: number; charging?: boolean } = {},
) {
  const info =
    (state.ignition ? 0x02 : 0) |
    (state.charging === false ? 0 : 0x04) |
    0x40 |
    (state.relay ? 0x80 : 0);
  return packet(GT06.status, Uint8Array.of(info, level(state.battery), 4, 0x00, 0x02), serial);
}

/** A black box: the positions the device kept while offline, each re-uploaded, oldest first. */
export function gt06BlackBox(positions: Gt06Position[], firstSerial: number) {
  return Buffer.concat(
    positions.map((p, i) => gt06Position({ ...p, alarm: undefined }, firstSerial + i, true)),
  );
}

/** The device's answer to a command (0x15): the server flag it was sent, and its words. */
export function gt06Answer(text: string, serial: number, serverFlag = 0) {
  const words = Buffer.from(text, 'latin1');
  const content = Buffer.alloc(1 + 4 + words.length + 2);
  content[0] = 4 + words.length;
  content.writeUInt32BE(serverFlag >>> 0, 1);
  content.set(words, 5);
  content.writeUInt16BE(0x0002, 5 + words.length); // language: English
  return packet(GT06.text, content, serial);
}

/** The supply voltage (0x94, type 0x00), in the extended form. */
export function gt06Power(volts: number, serial: number) {
  const content = Buffer.alloc(3);
  content[0] = 0x00;
  content.writeUInt16BE(Math.round(volts * 100), 1);
  return packet(GT06.info, content, serial, true);
}

/**
 * A driver's card read by the reader on the serial port (0x94, type 0x1B): 02, card type, the
 * card's 4 bytes (8 hex digits), a checksum the server does not check, 03.
 */
export function gt06Rfid(card: string, serial: number) {
  if (!/^[0-9A-Fa-f]{8}$/.test(card)) throw new Error('a card id has 8 hex digits');
  const content = Buffer.concat([Uint8Array.of(0x1b, 0x02, 0x08), Buffer.from(card, 'hex')]);
  return packet(GT06.info, Buffer.concat([content, Uint8Array.of(0x00, 0x03)]), serial, true);
}
