/**
 * The physical bounds every parser checks before a fix reaches the pipeline (OsmAnd, Wialon
 * IPS, flespi): one table, so that the three protocols refuse the same values. A value out
 * of bounds is a broken tracker or a forged message, never a position to store: each parser
 * maps the violation to its protocol's refusal (OsmAnd 400, Wialon IPS the field's error
 * code, flespi a skipped message), so the device hears it and one bad value never fails the
 * database write of other, good fixes.
 *
 * Bounds are wide on purpose (aircraft, sensors that report in odd units): they stop values
 * that no vehicle produces and that the database cannot hold (`real` ends near 3.4e38).
 *
 * Sensor readings whose unit is only assumed are the exception (`READINGS`: the battery, the
 * supply voltage, fuel, engine temperature and speed). Trackers name them alike and send them
 * in other units: a Wialon `fuel` in litres, `pwr_ext` in millivolts. Out of range, such a
 * reading is no reading and the position is kept (a truck with a fuel sensor in litres lost
 * every position to '#AD#15'): the value moves to the attribute `implausible`, by its name, so
 * nothing the tracker sent is lost and nothing reads it as a reading.
 */
import type { Fix } from './queries/positions';

export type BoundedField =
  | 'fixTime'
  | 'latitude'
  | 'longitude'
  | 'speed'
  | 'course'
  | 'altitude'
  | 'accuracy'
  | 'battery'
  | 'voltage'
  | 'satellites'
  | 'hdop'
  | 'engineTemp'
  | 'rpm'
  | 'fuelLevel'
  | 'fuelLiters'
  | 'identifier'
  | 'attributes';

interface Range {
  min: number;
  max: number;
  label: string;
  unit: string;
  integer?: boolean;
}

export const RANGES = {
  latitude: { min: -90, max: 90, label: 'latitude', unit: '°' },
  longitude: { min: -180, max: 180, label: 'longitude', unit: '°' },
  speed: { min: 0, max: 2000, label: 'velocidade', unit: 'km/h' },
  course: { min: 0, max: 360, label: 'rumo', unit: '°' },
  altitude: { min: -1000, max: 60_000, label: 'altitude', unit: 'm' },
  accuracy: { min: 0, max: 1_000_000, label: 'precisão', unit: 'm' },
  battery: { min: 0, max: 100, label: 'bateria', unit: '%' },
  voltage: { min: 0, max: 1000, label: 'tensão', unit: 'V' },
  satellites: { min: 0, max: 255, label: 'satélites', unit: '', integer: true },
  hdop: { min: 0, max: 100, label: 'HDOP', unit: '' },
  engineTemp: { min: -60, max: 400, label: 'temperatura do motor', unit: '°C' },
  rpm: { min: 0, max: 30_000, label: 'rotação do motor', unit: 'RPM' },
  fuelLevel: { min: 0, max: 100, label: 'nível de combustível', unit: '%' },
  fuelLiters: { min: 0, max: 5000, label: 'combustível no tanque', unit: 'L' },
} satisfies Record<string, Range>;

/** No fix predates this: GPS receivers that lost their clock report 1980 or 2000-01-01. */
export const EARLIEST_FIX = Date.UTC(2000, 0, 1);

/** Attribute keys (any protocol's spelling) bounded like a fix field. */
const BOUNDED_ATTRIBUTES: Record<string, keyof typeof RANGES> = {
  sat: 'satellites',
  sats: 'satellites',
  satellites: 'satellites',
  'position.satellites': 'satellites',
  hdop: 'hdop',
  'position.hdop': 'hdop',
};

/**
 * Readings in an assumed unit (the canonical ones of server/ingest/canonical.ts): out of range,
 * dropped from the fix instead of refusing it (see above).
 */
const READINGS: Record<string, keyof typeof RANGES> = {
  power: 'voltage',
  // flespi's names of the supply and of the battery's voltage.
  'external.powersource.voltage': 'voltage',
  'battery.voltage': 'voltage',
  engineTemp: 'engineTemp',
  rpm: 'rpm',
  fuelLevel: 'fuelLevel',
  fuelLiters: 'fuelLiters',
};

export interface Violation {
  field: BoundedField;
  /** pt-BR, for the device's answer and the logs. */
  message: string;
}

/** Control characters (C0 and DEL): no identifier or attribute carries them. */
const CONTROL = {
  test(text: string): boolean {
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      if (code < 0x20 || code === 0x7f) return true;
    }
    return false;
  },
};

export function checkRange(field: keyof typeof RANGES, value: number | undefined) {
  if (value === undefined) return undefined;
  const range: Range = RANGES[field];
  if (
    !Number.isFinite(value) ||
    value < range.min ||
    value > range.max ||
    (range.integer && !Number.isInteger(value))
  ) {
    const unit = range.unit ? ` ${range.unit}` : '';
    return {
      field,
      message: `${range.label} fora do intervalo (${range.min} a ${range.max}${unit})`,
    } satisfies Violation;
  }
  return undefined;
}

export function checkIdentifier(identifier: string): Violation | undefined {
  if (identifier.length === 0 || identifier.length > 64 || CONTROL.test(identifier))
    return { field: 'identifier', message: 'identificador inválido' };
  return undefined;
}

/** Fix times from 2000-01-01 to now plus the accepted clock skew. */
export function checkTime(fixTime: Date, now: number, maxFutureSeconds: number) {
  const at = fixTime.getTime();
  if (!Number.isFinite(at) || at < EARLIEST_FIX)
    return { field: 'fixTime', message: 'horário inválido (antes de 2000)' } satisfies Violation;
  if (at - now > maxFutureSeconds * 1000)
    return { field: 'fixTime', message: 'horário no futuro' } satisfies Violation;
  return undefined;
}

const BOUNDED_ENTRIES = Object.entries(BOUNDED_ATTRIBUTES);

/** Attribute keys and texts free of control characters, bounded ones within range. */
export function checkAttributes(attributes: Record<string, unknown>): Violation | undefined {
  const stack: unknown[] = [attributes];
  let seen = 0;
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    seen += 1;
    if (seen > 10_000) return { field: 'attributes', message: 'atributos demais' };
    if (typeof value === 'string') {
      if (CONTROL.test(value))
        return { field: 'attributes', message: 'atributo com caractere de controle' };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { field: 'attributes', message: 'atributo não numérico' };
    } else if (Array.isArray(value)) {
      // One at a time: spreading a list of ~125,000 items overflows the call stack.
      if (stack.length + value.length > 10_000)
        return { field: 'attributes', message: 'atributos demais' };
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      // Keys, not entries: this runs on every fix, and the pairs were most of its garbage.
      const object = value as Record<string, unknown>;
      for (const key of Object.keys(object)) {
        if (CONTROL.test(key))
          return { field: 'attributes', message: 'atributo com caractere de controle' };
        stack.push(object[key]);
      }
    }
  }
  for (const [key, field] of BOUNDED_ENTRIES) {
    const value = attributes[key];
    if (value === undefined || value === null) continue;
    const violation = checkRange(field, numberOf(value));
    if (violation) return violation;
  }
  return undefined;
}

/** OsmAnd sends every extra parameter as text: '8' satellites is a number too. */
function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  return typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
}

const READING_ENTRIES = Object.entries(READINGS);

/**
 * Moves the readings of `fix` out of their range (READINGS and the battery) to its attribute
 * `implausible`, by name, in place: a sensor in another unit costs its reading, not the
 * position. Runs on every fix: the object is made only when something moves.
 */
export function dropImplausibleReadings(fix: Fix): void {
  let moved: Record<string, unknown> | undefined;
  if (fix.battery !== undefined && checkRange('battery', fix.battery)) {
    // Not finite (a NaN) is nothing to keep; JSON could not hold it anyway.
    if (Number.isFinite(fix.battery)) moved = { battery: fix.battery };
    fix.battery = undefined;
  }
  for (const [key, field] of READING_ENTRIES) {
    const value = fix.attributes[key];
    if (value === undefined || value === null || !checkRange(field, numberOf(value))) continue;
    moved = { ...moved, [key]: value };
    delete fix.attributes[key];
  }
  if (moved) fix.attributes.implausible = moved;
}

/**
 * The first value of a fix out of bounds, or undefined when the whole fix is sound; readings
 * out of range are dropped first (dropImplausibleReadings), not counted as out of bounds.
 * A report without GPS (`valid === false`) is not held to its coordinates.
 */
export function checkFix(fix: Fix, rules: { now: number; maxFutureSeconds: number }) {
  dropImplausibleReadings(fix);
  // A report without GPS has no coordinates of its own (they may be missing or stale).
  const placed = fix.valid !== false;
  return (
    checkTime(fix.fixTime, rules.now, rules.maxFutureSeconds) ??
    (placed ? checkRange('latitude', fix.latitude) : undefined) ??
    (placed ? checkRange('longitude', fix.longitude) : undefined) ??
    checkRange('speed', fix.speed) ??
    checkRange('course', fix.course) ??
    checkRange('altitude', fix.altitude) ??
    checkRange('accuracy', fix.accuracy) ??
    (fix.driverRfid !== undefined && CONTROL.test(fix.driverRfid)
      ? ({ field: 'attributes', message: 'código do motorista inválido' } satisfies Violation)
      : undefined) ??
    checkAttributes(fix.attributes)
  );
}
