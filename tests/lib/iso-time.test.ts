import { describe, expect, it } from 'vitest';
import { isoMs } from '../../src/lib/iso-time';

describe('isoMs', () => {
  it('reads toISOString times exactly as Date.parse does', () => {
    // Every month, days past 28 included, across leap years and the epoch.
    let at = Date.UTC(1969, 11, 25, 23, 59, 59, 999);
    const end = Date.UTC(2101, 0, 1);
    const step = 7 * 3600_000 + 13 * 60_000 + 17_123;
    let checked = 0;
    for (; at < end; at += step) {
      const text = new Date(at).toISOString();
      expect(isoMs(text)).toBe(at);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(150_000);
  });

  it('leaves every other form to Date.parse, invalid ones included', () => {
    for (const text of [
      '2026-11-22T12:00:00Z',
      '2026-11-22T12:00:00.000+00:00',
      '2026-11-22T09:00:00.000-03:00',
      '2026-11-22',
      '2026-02-30T12:00:00.000Z',
      '2026-13-01T12:00:00.000Z',
      '2026-11-22T24:00:00.000Z',
      '2026-11-22T12:60:00.000Z',
      '2026-11-22T12:00:60.000Z',
      '2026-11-00T12:00:00.000Z',
      '0050-01-01T00:00:00.000Z',
      '2026-1a-22T12:00:00.000Z',
      '+02026-11-22T12:00:00.000Z',
      'não é data',
      '',
    ]) {
      const expected = Date.parse(text);
      if (Number.isNaN(expected)) expect(isoMs(text)).toBeNaN();
      else expect(isoMs(text)).toBe(expected);
    }
  });
});
