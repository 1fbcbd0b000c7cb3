/**
 * The device side of Queclink @Track (queclink.ts), for the simulator, the benchmark and the
 * tests: the text a GV300 sends. Its protocol version is 060100 (a GV300), its device name
 * empty, its count number the caller's (the server acknowledges each report by it).
 */
import type { Alarm, DeviceReport } from './codec';

/** What a position report carries. */
export interface QueclinkPosition extends DeviceReport {
  /** Backup battery, %. */
  battery?: number | undefined;
  /** iButton / RFID of the driver: a GTIDA instead of a GTFRI. */
  driverRfid?: string | undefined;
  /** The report that stands for this alarm instead of a GTFRI (ALARM_REPORTS). */
  alarm?: Alarm | undefined;
  /** Altitude, m. */
  altitude?: number | undefined;
  /** External power, volts. */
  power?: number | undefined;
  /** Mileage, metres. */
  odometer?: number | undefined;
  /** Hour meter, seconds. */
  hours?: number | undefined;
  /** No GPS fix: accuracy 0. */
  noFix?: boolean | undefined;
}

export interface QueclinkSend {
  imei: string;
  /** The count number, 0–FFFF. */
  count: number;
  /** When it is sent (default: the fix's time). */
  sentAt?: Date | undefined;
  /** +BUFF: stored while offline. */
  buffered?: boolean | undefined;
  /** Protocol version (default 060100, a GV300). */
  version?: string | undefined;
}

export const GV300_VERSION = '060100';

/** The report type and the report's own field for each alarm a device raises. */
const ALARM_REPORTS: Partial<Record<Alarm, { type: string; reportType: string }>> = {
  sos: { type: 'SOS', reportType: '00' },
  overspeed: { type: 'SPD', reportType: '00' },
  tow: { type: 'TOW', reportType: '00' },
  geofence: { type: 'GEO', reportType: '00' },
  hardBraking: { type: 'HBM', reportType: '10' },
  hardAcceleration: { type: 'HBM', reportType: '11' },
  hardCornering: { type: 'HBM', reportType: '12' },
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** YYYYMMDDHHMMSS, UTC. */
export function queclinkTime(at: Date) {
  return `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}${pad(
    at.getUTCHours(),
  )}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`;
}

export const hex4 = (n: number) => (n & 0xffff).toString(16).toUpperCase().padStart(4, '0');

/** HHHHH:MM:SS of the hour meter. */
function hourMeter(seconds: number) {
  const s = Math.floor(seconds);
  return `${pad(Math.floor(s / 3600), 5)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

/** One position group (12 fields). */
export function positionGroup(p: QueclinkPosition) {
  return [
    p.noFix ? '0' : '1',
    p.speed.toFixed(1),
    String(Math.round(p.course) % 360),
    (p.altitude ?? 10).toFixed(1),
    p.longitude.toFixed(6),
    p.latitude.toFixed(6),
    queclinkTime(p.fixTime),
    '0724',
    '0005',
    '1A2B',
    '3C4D',
    '00',
  ].join(',');
}

function head(kind: 'RESP' | 'BUFF' | 'ACK', type: string, send: QueclinkSend) {
  return `+${kind}:GT${type},${send.version ?? GV300_VERSION},${send.imei},`;
}

function tail(at: Date, send: QueclinkSend) {
  return `${queclinkTime(send.sentAt ?? at)},${hex4(send.count)}$`;
}

/** The device status field: motion state, inputs (bit 1: input 1), outputs. */
function status(ignition: boolean, moving: boolean, din1 = false, out1 = false) {
  const state = (ignition ? 0x20 : 0x10) | (moving ? 2 : 1);
  const inputs = (ignition ? 1 : 0) | (din1 ? 2 : 0);
  return `${state.toString(16)}${pad(inputs)}${out1 ? '01' : '00'}`.toUpperCase();
}

/**
 * A GTFRI with the given positions (the last one's readings), as a GV300 sends it:
 * power, report type, number, the groups, mileage, hour meter, two analog inputs, battery,
 * device status, three reserved.
 */
export function fixedReport(positions: QueclinkPosition[], send: QueclinkSend) {
  const last = positions.at(-1);
  if (!last) throw new Error('no position');
  const power = last.power === undefined ? '' : String(Math.round(last.power * 1000));
  const km = last.odometer === undefined ? '' : (last.odometer / 1000).toFixed(1);
  const hours = last.hours === undefined ? '' : hourMeter(last.hours);
  const battery = last.battery === undefined ? '' : String(Math.round(last.battery));
  return `${head(send.buffered ? 'BUFF' : 'RESP', 'FRI', send)},${power},10,${positions.length},${positions
    .map(positionGroup)
    .join(
      ',',
    )},${km},${hours},,,${battery},${status(last.ignition, last.speed > 0)},,,,${tail(last.fixTime, send)}`;
}

/** What a device sends for a position: a GTIDA with a driver, an alarm's report, or a GTFRI. */
export function position(p: QueclinkPosition, send: QueclinkSend) {
  const km = p.odometer === undefined ? '0.0' : (p.odometer / 1000).toFixed(1);
  const kind = send.buffered ? 'BUFF' : 'RESP';
  if (p.driverRfid)
    return `${head(kind, 'IDA', send)},,${p.driverRfid},1,1,${positionGroup(p)},${km},,,,,${tail(p.fixTime, send)}`;
  const alarm = p.alarm ? ALARM_REPORTS[p.alarm] : undefined;
  if (alarm)
    return `${head(kind, alarm.type, send)},,${alarm.reportType},1,${positionGroup(p)},${km},${tail(p.fixTime, send)}`;
  if (p.alarm === 'jamming')
    return `${head(kind, 'JDR', send)},${positionGroup(p)},${tail(p.fixTime, send)}`;
  if (p.alarm === 'powerCut')
    return `${head(kind, 'MPF', send)},${positionGroup(p)},${tail(p.fixTime, send)}`;
  if (p.alarm === 'lowBattery')
    return `${head(kind, 'BPL', send)},3.55,${positionGroup(p)},${tail(p.fixTime, send)}`;
  return fixedReport([p], send);
}

/** Ignition on (GTIGN) or off (GTIGF), with the hour meter and the mileage. */
export function ignitionReport(p: QueclinkPosition, send: QueclinkSend) {
  const km = p.odometer === undefined ? '' : (p.odometer / 1000).toFixed(1);
  const hours = p.hours === undefined ? '' : hourMeter(p.hours);
  return `${head(send.buffered ? 'BUFF' : 'RESP', p.ignition ? 'IGN' : 'IGF', send)},60,${positionGroup(
    p,
  )},${hours},${km},${tail(p.fixTime, send)}`;
}

/** The heartbeat, +ACK:GTHBD. */
export function heartbeat(send: QueclinkSend & { sentAt: Date }) {
  return `${head('ACK', 'HBD', send)},${tail(send.sentAt, send)}`;
}

/** Power on (GTPNA): the first thing a device says, no place. */
export function powerOn(send: QueclinkSend & { sentAt: Date }) {
  return `${head('RESP', 'PNA', send)},${tail(send.sentAt, send)}`;
}

/** The black box: what was stored while offline, oldest first, one +BUFF:GTFRI each. */
export function blackBox(positions: QueclinkPosition[], send: QueclinkSend) {
  return positions.map((p, i) =>
    fixedReport([p], { ...send, buffered: true, count: send.count + i, sentAt: p.fixTime }),
  );
}

/** The answer to AT+GTOUT: +ACK:GTOUT with the command's serial number. */
export function outputAnswer(serial: number, send: QueclinkSend & { sentAt: Date }) {
  return `${head('ACK', 'OUT', send)},${hex4(serial)},${tail(send.sentAt, send)}`;
}

/** The serial number of an AT+GTOUT command (its last field), or undefined. */
export function commandSerial(command: string): number | undefined {
  const m = /^AT\+GTOUT=[0-9A-Za-z]{4,6},[01],.*,([0-9A-F]{4})\$$/.exec(command);
  return m ? Number.parseInt(m[1] ?? '', 16) : undefined;
}
