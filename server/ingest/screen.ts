/**
 * The ingest filters of one fix (server/ingest/pipeline.ts): coordinates, 0,0, the future, and the
 * impossible jump from the fix before it. A report without GPS (`valid === false`) is checked only
 * for its time: its coordinates are not the device's. A late fix (not newer than the one before it)
 * is checked against its stored neighbours when it is stored (server/ingest/queries/odometer.ts),
 * not against the newest fix.
 */
import type { Config } from '../platform/config';
import type { Fix } from './queries/positions';

export type Rejection =
  | 'unknown_device'
  /** A known tracker whose sender gave a wrong password, or none when one is required. */
  | 'wrong_password'
  | 'no_password'
  /** A known tracker on a listener other than its protocol's. */
  | 'wrong_protocol'
  /** A report without GPS from a tracker that has no known place yet. */
  | 'no_fix'
  | 'invalid_coordinates'
  | 'zero_coordinates'
  | 'future_fix'
  | 'impossible_jump'
  /** The same fix again (a retransmission): already stored, answered as a success. */
  | 'duplicate'
  /** Another fix already holds this time: not stored, not a success. */
  | 'conflict'
  | 'invalid_value';

const EARTH_KM = 6371;

export function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
) {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.sqrt(h));
}

/** Why a fix must be dropped, or undefined when it is kept. */
export function screen(
  fix: Fix,
  previous: { latitude: number; longitude: number; fixTime: Date } | undefined,
  rules: Config['ingest'],
  now = Date.now(),
): Rejection | undefined {
  const { latitude, longitude } = fix;
  if (fix.valid === false)
    return fix.fixTime.getTime() - now > rules.maxFutureSeconds * 1000 ? 'future_fix' : undefined;
  if (
    !Number.isFinite(latitude) ||
    !Number.isFinite(longitude) ||
    Math.abs(latitude) > 90 ||
    Math.abs(longitude) > 180
  ) {
    return 'invalid_coordinates';
  }
  if (rules.dropZero && latitude === 0 && longitude === 0) return 'zero_coordinates';
  if (fix.fixTime.getTime() - now > rules.maxFutureSeconds * 1000) return 'future_fix';
  // At the same time as the fix before it, it is that fix again or a conflict with it: the
  // store tells which (server/ingest/queries/positions.ts), not the jump filter.
  if (previous && fix.fixTime > previous.fixTime) {
    const hours = Math.abs(fix.fixTime.getTime() - previous.fixTime.getTime()) / 3_600_000;
    const km = distanceKm(previous, fix);
    if (km > 1 && (hours === 0 || km / hours > rules.maxJumpKmh)) return 'impossible_jump';
  }
  return undefined;
}
