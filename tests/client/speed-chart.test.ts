/**
 * The speed chart breaks its line where positions are missing for long (no signal, a tracker
 * off): a straight line there would draw a speed nobody drove.
 */
import { describe, expect, it } from 'vitest';
import { SPEED_GAP_S, spansWithoutPositions } from '../../src/features/reports/SpeedChart';

describe('spansWithoutPositions', () => {
  it('finds the spans longer than the gap, and only those', () => {
    // Every 15 min while parked, then 75 min without signal, then every 10 s.
    const xs = [0, 900, 1800, 1800 + 75 * 60, 1800 + 75 * 60 + 10, 1800 + 75 * 60 + 20];
    expect(spansWithoutPositions(xs)).toEqual([[1800, 1800 + 75 * 60]]);
    expect(spansWithoutPositions([0, SPEED_GAP_S, 2 * SPEED_GAP_S + 1])).toEqual([
      [SPEED_GAP_S, 2 * SPEED_GAP_S + 1],
    ]);
  });

  it('looks only between the indexes drawn', () => {
    const xs = [0, 10_000, 10_010, 20_000];
    expect(spansWithoutPositions(xs, 1, 2)).toEqual([]);
    expect(spansWithoutPositions(xs, 1, 3)).toEqual([[10_010, 20_000]]);
    expect(spansWithoutPositions([])).toEqual([]);
  });
});
