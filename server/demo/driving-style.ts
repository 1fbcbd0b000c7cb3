/**
 * How each demo driver drives, so that the report 'Comportamento do motorista' shows a spread
 * and a trend: over the demo's history (server/demo/history.ts) a driver now and then takes a
 * stretch over the 80 km/h limit and his device reports harsh braking, acceleration or
 * cornering, each as often as his style says — and some drivers change from last month to
 * this one (one improves after a talk, one gets worse). Deterministic: the same demo every
 * time it is made.
 */
import { reportDay } from '../../src/lib/report-period';

export interface DrivingStyle {
  /** Speeding stretches per hour at the wheel. */
  speedingPerHour: number;
  /** How far over the limit a stretch goes, on average (0.3: 30 % over). */
  over: number;
  /** Harsh events the device reports per hour at the wheel. */
  harshPerHour: number;
}

/** Last month and this month, per tag. A tag not listed drives carefully. */
const STYLES: Record<string, [DrivingStyle, DrivingStyle]> = {
  // Carlos: steady and careful.
  '01A4C3E2F1': [
    { speedingPerHour: 0.02, over: 0.1, harshPerHour: 0.05 },
    { speedingPerHour: 0.02, over: 0.1, harshPerHour: 0.04 },
  ],
  // José: hard on the brakes, better this month after a talk.
  '02B7D9A4C6': [
    { speedingPerHour: 0.3, over: 0.3, harshPerHour: 0.6 },
    { speedingPerHour: 0.1, over: 0.2, harshPerHour: 0.25 },
  ],
  // Antônio: a speeder, worse this month.
  '03C1E5B8D2': [
    { speedingPerHour: 0.3, over: 0.3, harshPerHour: 0.2 },
    { speedingPerHour: 0.6, over: 0.55, harshPerHour: 0.3 },
  ],
  // Francisco: average.
  '04D3F7C9E1': [
    { speedingPerHour: 0.15, over: 0.15, harshPerHour: 0.2 },
    { speedingPerHour: 0.12, over: 0.15, harshPerHour: 0.2 },
  ],
  '05E2A8C4B7': [
    { speedingPerHour: 0.05, over: 0.1, harshPerHour: 0.1 },
    { speedingPerHour: 0.08, over: 0.15, harshPerHour: 0.15 },
  ],
  '06F4B1D8A3': [
    { speedingPerHour: 0.2, over: 0.25, harshPerHour: 0.4 },
    { speedingPerHour: 0.15, over: 0.2, harshPerHour: 0.3 },
  ],
  '07A9C3E5F2': [
    { speedingPerHour: 0.05, over: 0.1, harshPerHour: 0.1 },
    { speedingPerHour: 0.03, over: 0.1, harshPerHour: 0.05 },
  ],
  '08B6D2F9C1': [
    { speedingPerHour: 0.4, over: 0.4, harshPerHour: 0.5 },
    { speedingPerHour: 0.45, over: 0.45, harshPerHour: 0.5 },
  ],
  '09C8E4A2D6': [
    { speedingPerHour: 0.1, over: 0.2, harshPerHour: 0.3 },
    { speedingPerHour: 0.2, over: 0.3, harshPerHour: 0.4 },
  ],
  // Tiago: careful, a little better still.
  '0AD1F6B3E8': [
    { speedingPerHour: 0.04, over: 0.1, harshPerHour: 0.12 },
    { speedingPerHour: 0.02, over: 0.1, harshPerHour: 0.06 },
  ],
  // Fernanda: hard starts in city traffic, much better this month.
  '0BE7A2C5D9': [
    { speedingPerHour: 0.2, over: 0.25, harshPerHour: 0.7 },
    { speedingPerHour: 0.08, over: 0.15, harshPerHour: 0.2 },
  ],
};
const CAREFUL: DrivingStyle = { speedingPerHour: 0.02, over: 0.1, harshPerHour: 0.05 };
const HARSH_ALARMS = ['hardBraking', 'hardBraking', 'hardAcceleration', 'hardCornering'];
const LIMIT_KMH = 80;
/** A speeding stretch lasts this long. */
const STRETCH_MS = 90_000;
const BUCKET_MS = 3600_000;

/** A number in [0, 1) from a string, always the same. */
function unit(seed: string): number {
  let hash = 2166136261;
  for (const char of seed) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash / 4294967296;
}

function styleOf(rfid: string, at: number, end: number): DrivingStyle {
  const styles = STYLES[rfid];
  if (!styles) return CAREFUL;
  return reportDay(at).slice(0, 7) === reportDay(end).slice(0, 7) ? styles[1] : styles[0];
}

/**
 * The speed and alarm a driver puts on one moving fix: within each hour at most one speeding
 * stretch (at a time of the hour the seed picks), over the limit by about his `over`; and a
 * harsh alarm on a fix with a chance of his rate over the fixes of an hour.
 */
export function styled(
  rfid: string,
  at: number,
  end: number,
  everyS: number,
  speed: number,
): { speed: number; alarm?: string } {
  const style = styleOf(rfid, at, end);
  const bucket = Math.floor(at / BUCKET_MS);
  let out = speed;
  if (unit(`${rfid}s${bucket}`) < style.speedingPerHour) {
    const start = bucket * BUCKET_MS + unit(`${rfid}t${bucket}`) * (BUCKET_MS - STRETCH_MS);
    if (at >= start && at < start + Math.max(STRETCH_MS, everyS * 1000)) {
      const over = style.over * (0.6 + 0.8 * unit(`${rfid}o${bucket}`));
      out = Math.round(LIMIT_KMH * (1 + over) + 2);
    }
  }
  const perFix = (style.harshPerHour * everyS) / 3600;
  const roll = unit(`${rfid}h${at}`);
  if (roll < perFix) {
    const alarm = HARSH_ALARMS[Math.floor(unit(`${rfid}k${at}`) * HARSH_ALARMS.length)];
    return alarm ? { speed: out, alarm } : { speed: out };
  }
  return { speed: out };
}
