/**
 * The ingest filters of one fix (server/ingest/pipeline.ts): a fix the device marks invalid,
 * coordinates, 0,0, the future, and the impossible jump from the fix before it.
 */
import type { Config } from '../config';
import type { Fix } from '../db/positions';

export type Rejection =
  | 'unknown_device'
  | 'no_fix'
  | 'invalid_coordinates'
  | 'zero_coordinates'
  | 'future_fix'
  | 'impossible_jump'
  | 'duplicate'
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
  if (fix.valid === false) return 'no_fix';
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
  if (previous) {
    const hours = Math.abs(fix.fixTime.getTime() - previous.fixTime.getTime()) / 3_600_000;
    const km = distanceKm(previous, fix);
    if (km > 1 && (hours === 0 || km / hours > rules.maxJumpKmh)) return 'impossible_jump';
  }
  return undefined;
}
