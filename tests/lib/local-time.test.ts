/**
 * Every instant on screen is read in Brasília time, whatever the browser's zone (CI and this
 * machine run on UTC, where the browser's own zone read 18:04 for 15:04).
 */
import { describe, expect, it } from 'vitest';
import {
  localClock,
  localClockSeconds,
  localDate,
  localDateAndClock,
  localDateTime,
  localDayAndClock,
} from '../../src/lib/local-time';

describe('local time', () => {
  const at = '2026-11-23T18:04:16Z';

  it('reads an instant in Brasília time', () => {
    expect(localDateTime(at)).toBe('23/11/2026, 15:04:16');
    expect(localDateAndClock(at)).toBe('23/11/2026, 15:04');
    expect(localDayAndClock(at)).toBe('23/11, 15:04');
    expect(localClock(at)).toBe('15:04');
    expect(localClockSeconds(new Date(at))).toBe('15:04:16');
  });

  it('names the Brasília day, not the UTC one, just after midnight UTC', () => {
    expect(localDate('2026-11-24T01:30:00Z')).toBe('23/11/2026');
    expect(localDate(Date.parse('2026-11-24T03:00:00Z'))).toBe('24/11/2026');
  });
});
