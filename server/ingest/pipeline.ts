/**
 * The one ingest path of every source (OsmAnd now; Wialon IPS, flespi and the simulator
 * next): match the tracker by identifier, validate and filter each fix, store the fixes and
 * the last location in one transaction, then tell whoever listens (live stream, alerts).
 * A source acknowledges the device only after `accept` resolves, i.e. after the commit.
 */
import type { Config } from '../config';
import type { Db } from '../db/client';
import {
  type Fix,
  lastFixOf,
  storeFixes,
  type TrackerRef,
  trackerByIdentifier,
} from '../db/positions';
import type { Logger } from '../log';

export type Rejection =
  | 'unknown_device'
  | 'invalid_coordinates'
  | 'zero_coordinates'
  | 'future_fix'
  | 'impossible_jump';

export interface AcceptResult {
  status: 'ok' | 'unknown_device';
  stored: number;
  rejected: Rejection[];
}

export interface Pipeline {
  accept(identifier: string, fixes: Fix[]): Promise<AcceptResult>;
  /** Counters since start, for logs and health. */
  stats(): Record<Rejection | 'stored', number>;
  onStored(listener: (tracker: TrackerRef, newest: Fix) => void): () => void;
}

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

export function createPipeline(db: Db, config: Pick<Config, 'ingest'>, log: Logger): Pipeline {
  const counters: Record<Rejection | 'stored', number> = {
    stored: 0,
    unknown_device: 0,
    invalid_coordinates: 0,
    zero_coordinates: 0,
    future_fix: 0,
    impossible_jump: 0,
  };
  const listeners = new Set<(tracker: TrackerRef, newest: Fix) => void>();

  return {
    async accept(identifier, fixes) {
      const tracker = await trackerByIdentifier(db, identifier);
      if (!tracker) {
        counters.unknown_device += 1;
        log.debug('ingest: unknown device', { identifier });
        return { status: 'unknown_device', stored: 0, rejected: ['unknown_device'] };
      }
      const last = await lastFixOf(db, tracker.id);
      let previous = last
        ? { latitude: last.latitude, longitude: last.longitude, fixTime: last.fixTime }
        : undefined;
      const kept: Fix[] = [];
      const rejected: Rejection[] = [];
      for (const fix of [...fixes].sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime())) {
        const reason = screen(fix, previous, config.ingest);
        if (reason) {
          rejected.push(reason);
          counters[reason] += 1;
          continue;
        }
        kept.push(fix);
        previous = fix;
      }
      const stored = await storeFixes(db, tracker, kept);
      counters.stored += stored;
      const newest = kept.at(-1);
      if (newest) for (const listener of listeners) listener(tracker, newest);
      return { status: 'ok', stored, rejected };
    },
    stats: () => ({ ...counters }),
    onStored(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
