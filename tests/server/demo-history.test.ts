/**
 * The demo's past week (server/demo/history.ts): workdays out of the depot and back, lunch,
 * Sundays parked, machines idling through working hours, fixes in time order that end before
 * the live simulator takes over.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_FLEET } from '../../server/demo/fleet';
import { HISTORY_GAP_MS, historyOf } from '../../server/demo/history';
import { DEFAULT_RULES, detectTrips } from '../../server/reports/motion';
import { reportDay } from '../../src/lib/report-period';
import { samplesOf } from './tracks';

// Sunday 22 November 2026, 15:00 in São Paulo.
const END = new Date('2026-11-22T18:00:00Z');
const byName = (name: string) => {
  const vehicle = DEMO_FLEET.find((v) => v.name === name);
  if (!vehicle) throw new Error(name);
  return vehicle;
};

describe('demo history', () => {
  it('drives on workdays from the depot and back, and stays parked on Sunday', () => {
    const fixes = historyOf(byName('Caminhão Baú 01'), 7, END);
    const times = fixes.map((f) => f.fixTime.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeLessThan(END.getTime());
    const trips = detectTrips(samplesOf(fixes), DEFAULT_RULES);
    const tripDays = new Set(trips.map((t) => reportDay(times[t.start] ?? 0)));
    for (const day of ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'])
      expect(tripDays).toContain(day);
    expect(tripDays).not.toContain('2026-11-22');
    // The first and last fix of a workday at the depot (the same place).
    const monday = fixes.filter((f) => reportDay(f.fixTime) === '2026-11-16');
    const [first, last] = [monday[0], monday.at(-1)];
    expect(Math.abs((first?.latitude ?? 0) - (last?.latitude ?? 1))).toBeLessThan(1e-9);
    // Departure between 06:30 and 08:00 São Paulo time (09:30–11:00 UTC).
    const leaving = trips
      .map((t) => times[t.start] ?? 0)
      .find((t) => reportDay(t) === '2026-11-16');
    const hour = new Date(leaving ?? 0).getUTCHours();
    expect(hour).toBeGreaterThanOrEqual(9);
    expect(hour).toBeLessThanOrEqual(11);
  });

  it('idles machines with the engine on through working hours', () => {
    const fixes = historyOf(byName('Betoneira 02'), 7, END);
    expect(fixes.some((f) => f.ignition === true)).toBe(true);
    expect(detectTrips(samplesOf(fixes), DEFAULT_RULES)).toHaveLength(0);
  });

  it('keeps the vehicle without signal silent for its last two hours', () => {
    const fixes = historyOf(byName('Strada Vistoria'), 7, END);
    expect(fixes.at(-1)?.fixTime.getTime()).toBeLessThan(END.getTime() - 2 * 3600_000);
    expect(HISTORY_GAP_MS).toBeGreaterThan(3600_000);
  });
});
