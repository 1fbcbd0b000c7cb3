/**
 * The state a vehicle is drawn in, from its last location: moving, stopped with the ignition
 * on, off, or without signal. Pure, so the map, the list, the shared link and tests agree.
 *
 * A fix is a claim about one moment. A vehicle reported moving keeps reporting every interval
 * while it moves, so once a few intervals pass without a word its last speed says nothing
 * about now: it is shown without signal, never 'Em movimento' at a speed it may have lost
 * long ago. A stopped vehicle may report rarely, so it keeps its state until NO_SIGNAL.
 */

import { isoMs } from './iso-time';

export type VehicleState = 'moving' | 'idle' | 'off' | 'offline';

/** Above this speed (km/h) a vehicle is moving; GPS drift stays below it. */
export const MOVING_KMH = 3;
/** Without any fix for this long a vehicle is shown as without signal. */
export const NO_SIGNAL_MINUTES = 30;
/** How often a moving tracker reports, at the slowest setting in common use (seconds). */
export const REPORT_INTERVAL_SECONDS = 60;
/** Missed reports after which a moving vehicle's last fix is stale. */
export const STALE_AFTER_INTERVALS = 3;

export const STATE_LABELS: Record<VehicleState, string> = {
  moving: 'Em movimento',
  idle: 'Parado e ligado',
  off: 'Desligado',
  offline: 'Sem sinal',
};

/** Colours with enough contrast on the map and as text on white. */
export const STATE_COLORS: Record<VehicleState, string> = {
  moving: '#1b7f3b',
  idle: '#b26a00',
  off: '#b3261e',
  offline: '#5f6368',
};

interface Fix {
  speed: number | null;
  ignition: boolean | null;
  fixTime: string;
}

/**
 * The map, its list and the counts ask for the states of 10,000 vehicles at every round of
 * fixes: the fix time is read digit by digit (isoMs), faster than a cache of Date.parse.
 */
const ageMs = (item: Fix, now: number) => now - isoMs(item.fixTime);

/** The last fix says the vehicle moved, but it is older than a few report intervals. */
export function isStaleMotion(item: Fix, now = Date.now()): boolean {
  return (
    (item.speed ?? 0) > MOVING_KMH &&
    ageMs(item, now) > STALE_AFTER_INTERVALS * REPORT_INTERVAL_SECONDS * 1000
  );
}

export function vehicleState(item: Fix, now = Date.now()): VehicleState {
  if (ageMs(item, now) > NO_SIGNAL_MINUTES * 60_000 || isStaleMotion(item, now)) return 'offline';
  if ((item.speed ?? 0) > MOVING_KMH) return 'moving';
  if (item.ignition === false) return 'off';
  // No ignition input: a stopped vehicle is taken as stopped with the engine on.
  return 'idle';
}

export function formatSpeed(kmh: number | null): string {
  return kmh === null ? '—' : `${Math.round(kmh)} km/h`;
}

export function ignitionLabel(ignition: boolean | null): string {
  return ignition === null ? 'Não informada' : ignition ? 'Ligada' : 'Desligada';
}

export { timeSince } from './clock';
