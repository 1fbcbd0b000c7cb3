/**
 * The device side of Suntech's text protocol, for the simulator, the benchmark and tests: the
 * lines an ST300 sends (status, emergency, alert, keep-alive, stored reports, the answer to a
 * command), each ended by CR, in the layout of the ST300 manual with the hour-meter fields on
 * (HBM_STT=1). Suntech has no login: every line names the device.
 */
import type { Alarm, DeviceReport } from './codec';

export interface SuntechPosition extends DeviceReport {
  /** Backup battery, volts. */
  battery?: number | undefined;
  /** An iButton code, 14 hex digits. */
  driverRfid?: string | undefined;
  /** Main power, volts (12.5 when left out). */
  power?: number | undefined;
  /** Odometer, metres. */
  odometer?: number | undefined;
  satellites?: number | undefined;
  /** False: no GPS fix. */
  valid?: boolean | undefined;
  /** Output 1 on (the relay of a block). */
  out1?: boolean | undefined;
}

const MODEL = '40';
const VERSION = '313';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** DATE;TIME as the device writes them, UTC. */
export function suntechTime(at: Date): string {
  return `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())};${pad(
    at.getUTCHours(),
  )}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
}

/** +DD.DDDDDD / +DDD.DDDDDD with an explicit sign. */
function coordinate(value: number, width: number): string {
  const sign = value < 0 ? '-' : '+';
  return `${sign}${Math.abs(value)
    .toFixed(6)
    .padStart(width + 7, '0')}`;
}

/** Which report carries an alarm, and its id: EMG_ID or ALERT_ID of the manual. */
const EMG: Partial<Record<Alarm, number>> = { sos: 1, powerCut: 3, tow: 7 };
const ALT: Partial<Record<Alarm, number>> = {
  overspeed: 1,
  geofence: 5,
  lowBattery: 14,
  vibration: 15,
  accident: 16,
  hardAcceleration: 46,
  hardBraking: 47,
  hardCornering: 48,
  jamming: 50,
};

/** A position line: STT, or EMG/ALT when it carries an alarm; `stored`: MSG_TYPE 0. */
export function suntechPosition(id: string, p: SuntechPosition, stored = false): string {
  const emergency = p.alarm ? EMG[p.alarm] : undefined;
  const alert = p.alarm && emergency === undefined ? ALT[p.alarm] : undefined;
  const type = emergency !== undefined ? 'EMG' : alert !== undefined ? 'ALT' : 'STT';
  const io = `${p.ignition ? 1 : 0}000${p.out1 ? 1 : 0}0`;
  const common = [
    `ST300${type}`,
    id,
    MODEL,
    VERSION,
    suntechTime(p.fixTime),
    '0c99e4',
    coordinate(p.latitude, 2),
    coordinate(p.longitude, 3),
    p.speed.toFixed(3).padStart(7, '0'),
    p.course.toFixed(2).padStart(6, '0'),
    String(p.satellites ?? 9),
    p.valid === false ? '0' : '1',
    String(Math.round(p.odometer ?? 0)),
    (p.power ?? 12.5).toFixed(2),
    io,
  ];
  const specific = type === 'STT' ? ['2', '0001'] : [String(type === 'EMG' ? emergency : alert)];
  const hbm = ['000120', (p.battery ?? 4.1).toFixed(1), stored ? '0' : '1'];
  const driver = p.driverRfid ? ['0.00', '0', '0.00', '0.00', p.driverRfid, '1'] : [];
  return `${[...common, ...specific, ...hbm, ...driver].join(';')}\r`;
}

/** The keep-alive. */
export const suntechAlive = (id: string) => `ST300ALV;${id}\r`;

/** Reports stored while offline, oldest first, sent in one burst (MSG_TYPE 0). */
export const suntechBatch = (id: string, positions: SuntechPosition[]) =>
  positions.map((p) => suntechPosition(id, p, true)).join('');

/** The answer to a command (`Enable1`, `Disable1`…), as the device writes it. */
export const suntechAnswer = (id: string, command: string) =>
  `ST300CMD;Res;${id};${VERSION};${command}\r`;
