/**
 * "How they drive": the events told from fixes (harsh driving from the speed only with fixes
 * close together, the CTB speeding bands at their boundaries, idling past its threshold), the
 * score of a known set of events, and the report through the API: ranked, scoped to the
 * company, refused to a Terceiro.
 */
import { describe, expect, it } from 'vitest';
import {
  type DrivingEvent,
  type DrivingFix,
  drivingEvents,
  drivingScore,
  speedingGrade,
} from '../../server/reports/driving';

const T0 = Date.parse('2026-11-02T12:00:00Z');
const options = { speedLimit: 80, idleMinutes: 5 };

/** Fixes every `everyS` seconds at these speeds, the odometer following the speed. */
function track(speeds: number[], everyS: number, extra: Partial<DrivingFix> = {}): DrivingFix[] {
  let odometer = 0;
  return speeds.map((speed, i) => {
    if (i > 0) odometer += ((speed + (speeds[i - 1] ?? 0)) / 2 / 3.6) * everyS;
    return {
      at: T0 + i * everyS * 1000,
      speed,
      ignition: true,
      rfid: 'TAG1',
      alarm: null,
      odometer,
      ...extra,
    };
  });
}

const kinds = (events: DrivingEvent[]) => events.map((e) => e.kind);

describe('harsh driving from the speed', () => {
  it('sees a hard stop and a hard start in 1 s fixes, once per run', () => {
    // 60 → 44 → 30 → 30: 4.4 and 3.9 m/s², one braking; then 30 → 42: 3.3 m/s² up.
    const { events } = drivingEvents(track([60, 44, 30, 30, 42, 42], 1), options);
    expect(kinds(events)).toEqual(['harshBraking', 'harshAcceleration']);
    expect(events[0]?.rfid).toBe('TAG1');
    expect(events[0]?.value).toBe(4.4);
  });

  it('sees nothing below the thresholds', () => {
    // 12 km/h lost in a second is 3.33 m/s²: under 3.5. 10 km/h gained: 2.78 m/s², under 3.
    const { events } = drivingEvents(track([60, 48, 48, 58], 1), options);
    expect(events).toEqual([]);
  });

  it('tells nothing from 5 s fixes, however steep the change', () => {
    const { events } = drivingEvents(track([70, 0, 0, 70, 70], 5, { ignition: false }), options);
    expect(events).toEqual([]);
  });

  it('counts a harsh braking the device reported once, not again from the speed', () => {
    const fixes = track([60, 40, 40], 1);
    if (fixes[1]) fixes[1].alarm = 'hardBraking';
    const { events } = drivingEvents(fixes, options);
    expect(events.map((e) => [e.kind, e.source])).toEqual([['harshBraking', 'device']]);
  });

  it('counts device cornering alarms whatever the fix rate', () => {
    const fixes = track([50, 50, 50], 30);
    if (fixes[1]) fixes[1].alarm = 'hardCornering';
    expect(kinds(drivingEvents(fixes, options).events)).toEqual(['harshCornering']);
  });
});

describe('speeding by the CTB bands (art. 218)', () => {
  it('grades exactly 20 % over as média ("até 20%") and exactly 50 % over as grave', () => {
    expect(speedingGrade(80, 80)).toBeNull();
    expect(speedingGrade(80.5, 80)).toBe('speedingMedium');
    expect(speedingGrade(96, 80)).toBe('speedingMedium');
    expect(speedingGrade(96.1, 80)).toBe('speedingSerious');
    expect(speedingGrade(120, 80)).toBe('speedingSerious');
    expect(speedingGrade(120.1, 80)).toBe('speedingVerySerious');
    expect(speedingGrade(72, 60)).toBe('speedingMedium');
  });

  it('makes one episode per stretch over the limit, graded by its peak', () => {
    const { events } = drivingEvents(track([70, 85, 97, 90, 70, 70, 125, 70], 30), options);
    expect(events.map((e) => [e.kind, e.value, e.limit])).toEqual([
      ['speedingSerious', 97, 80],
      ['speedingVerySerious', 125, 80],
    ]);
  });
});

describe('idling', () => {
  const idleFor = (minutes: number) => {
    // Still from 0 s; the fix that moves on ends it, `minutes` later.
    const speeds = Array.from({ length: minutes * 2 }, () => 0);
    return drivingEvents(track([...speeds, 30], 30), options).events;
  };

  it('is an event past the threshold, with its length', () => {
    expect(idleFor(5).map((e) => [e.kind, e.value])).toEqual([]);
    expect(idleFor(6).map((e) => [e.kind, e.value])).toEqual([['idling', 360]]);
  });

  it('is not idling with the engine off', () => {
    const speeds = Array.from({ length: 40 }, () => 0);
    expect(drivingEvents(track(speeds, 30, { ignition: false }), options).events).toEqual([]);
  });

  it('follows the configured time', () => {
    const speeds = Array.from({ length: 8 }, () => 0);
    const { events } = drivingEvents(track(speeds, 30), { ...options, idleMinutes: 3 });
    expect(kinds(events)).toEqual(['idling']);
  });
});

describe('who drove', () => {
  it('keeps the tag while the engine runs and loses it when it stops', () => {
    const fixes = track([30, 30, 30, 30], 60);
    fixes.forEach((f, i) => {
      f.rfid = i === 0 ? 'TAG9' : null;
    });
    if (fixes[2]) fixes[2].ignition = false;
    const { metres } = drivingEvents(fixes, options);
    expect([...metres.keys()].sort()).toEqual(['', 'TAG9']);
    // The step into the fix with the engine off is still his; the next one is no one's.
    expect(Math.round(metres.get('TAG9') ?? 0)).toBe(1000);
    expect(Math.round(metres.get('') ?? 0)).toBe(500);
  });
});

describe('the score', () => {
  const event = (kind: DrivingEvent['kind'], value: number | null = null): DrivingEvent => ({
    kind,
    at: T0,
    rfid: 'TAG1',
    value,
    limit: null,
    source: 'speed',
  });

  it('takes the weighted events per 100 km from 100', () => {
    // 10 + 5 + 2 + 3 + 2 + 2 + 1.5 (15 min idling) = 25.5 points on 150 km: 17 per 100 km.
    const events = [
      event('speedingVerySerious'),
      event('speedingSerious'),
      event('speedingMedium'),
      event('harshBraking'),
      event('harshAcceleration'),
      event('harshCornering'),
      event('idling', 900),
    ];
    expect(drivingScore(events, 150)).toBe(83);
    expect(drivingScore([], 150)).toBe(100);
    expect(drivingScore([event('harshBraking')], 45)).toBe(93.3);
  });

  it('never goes below zero, and has no score under 20 km', () => {
    const many = Array.from({ length: 30 }, () => event('speedingVerySerious'));
    expect(drivingScore(many, 100)).toBe(0);
    expect(drivingScore([], 19.9)).toBeNull();
    expect(drivingScore([], 20)).toBe(100);
  });
});
