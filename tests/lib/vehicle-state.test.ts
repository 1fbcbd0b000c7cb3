import { describe, expect, it } from 'vitest';
import {
  formatSpeed,
  ignitionLabel,
  isStaleMotion,
  NO_SIGNAL_MINUTES,
  REPORT_INTERVAL_SECONDS,
  STALE_AFTER_INTERVALS,
  timeSince,
  vehicleState,
} from '../../src/lib/vehicle-state';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const at = (secondsAgo: number) => new Date(NOW - secondsAgo * 1000).toISOString();

describe('vehicle state', () => {
  it('is moving above walking drift, whatever the ignition says', () => {
    expect(vehicleState({ speed: 40, ignition: null, fixTime: at(5) }, NOW)).toBe('moving');
    expect(vehicleState({ speed: 2, ignition: true, fixTime: at(5) }, NOW)).toBe('idle');
  });
  it('is off with the ignition off, idle when stopped without an ignition input', () => {
    expect(vehicleState({ speed: 0, ignition: false, fixTime: at(5) }, NOW)).toBe('off');
    expect(vehicleState({ speed: null, ignition: null, fixTime: at(5) }, NOW)).toBe('idle');
  });
  it('is without signal once the last fix is too old', () => {
    const old = at(NO_SIGNAL_MINUTES * 60 + 1);
    expect(vehicleState({ speed: 80, ignition: true, fixTime: old }, NOW)).toBe('offline');
  });
});

describe('stale fixes', () => {
  const staleAfter = STALE_AFTER_INTERVALS * REPORT_INTERVAL_SECONDS;

  it('never shows a vehicle moving at a speed a few report intervals old', () => {
    const fresh = { speed: 80, ignition: true, fixTime: at(staleAfter - 1) };
    const old = { speed: 80, ignition: true, fixTime: at(staleAfter + 1) };
    expect(vehicleState(fresh, NOW)).toBe('moving');
    expect(isStaleMotion(fresh, NOW)).toBe(false);
    expect(vehicleState(old, NOW)).toBe('offline');
    expect(isStaleMotion(old, NOW)).toBe(true);
  });
  it('lets a stopped vehicle keep its state until the no-signal limit', () => {
    const parked = { speed: 0, ignition: false, fixTime: at(20 * 60) };
    expect(vehicleState(parked, NOW)).toBe('off');
    expect(isStaleMotion(parked, NOW)).toBe(false);
    const idling = { speed: 1, ignition: true, fixTime: at(20 * 60) };
    expect(vehicleState(idling, NOW)).toBe('idle');
  });
  it('changes by itself as the clock moves on', () => {
    const fix = { speed: 50, ignition: true, fixTime: at(0) };
    expect(vehicleState(fix, NOW)).toBe('moving');
    expect(vehicleState(fix, NOW + (staleAfter + 1) * 1000)).toBe('offline');
  });
});

describe('labels', () => {
  it('say how long ago in pt-BR', () => {
    expect(timeSince(at(3), NOW)).toBe('agora');
    expect(timeSince(at(42), NOW)).toBe('há 42 s');
    expect(timeSince(at(5 * 60), NOW)).toBe('há 5 min');
    expect(timeSince(at(3 * 3600), NOW)).toBe('há 3 h');
    expect(timeSince(at(24 * 3600), NOW)).toBe('há 1 dia');
    expect(timeSince(at(3 * 24 * 3600), NOW)).toBe('há 3 dias');
  });
  it('format speed and ignition', () => {
    expect(formatSpeed(null)).toBe('—');
    expect(formatSpeed(49.6)).toBe('50 km/h');
    expect(ignitionLabel(null)).toBe('Não informada');
    expect(ignitionLabel(true)).toBe('Ligada');
    expect(ignitionLabel(false)).toBe('Desligada');
  });
});
