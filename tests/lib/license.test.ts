/** A driver's CNH validity (src/lib/license.ts), as of a day in Brasília time. */
import { describe, expect, it } from 'vitest';
import { licenseExpiryText, licenseState, licenseWarning } from '../../src/lib/license';

// 24/11/2026 at 01:30 in Brasília is still the 24th there, though already past 04:00 UTC.
const NOW = Date.parse('2026-11-24T04:30:00Z');

describe('licenseState', () => {
  it('counts the days to the expiry from today in Brasília', () => {
    expect(licenseState('2026-11-24', NOW)).toEqual({
      kind: 'expiring',
      days: 0,
      date: '24/11/2026',
    });
    expect(licenseState('2026-11-23', NOW)).toEqual({
      kind: 'expired',
      days: -1,
      date: '23/11/2026',
    });
    expect(licenseState('2026-12-24', NOW)?.kind).toBe('expiring');
    expect(licenseState('2026-12-25', NOW)?.kind).toBe('valid');
    // Before midnight UTC-3 on the 23rd, the 23rd is today, not yet past.
    expect(licenseState('2026-11-23', Date.parse('2026-11-24T02:59:00Z'))?.kind).toBe('expiring');
  });

  it('says nothing of what is not a date', () => {
    expect(licenseState('', NOW)).toBeUndefined();
    expect(licenseState('24/11/2026', NOW)).toBeUndefined();
    expect(licenseWarning('', NOW)).toBeUndefined();
  });
});

describe('what the screens say', () => {
  it('warns beside the field of an expired or expiring CNH, and not of a valid one', () => {
    expect(licenseWarning('2025-01-10', NOW)).toBe(
      'CNH vencida em 10/01/2025: renove antes de escalar este motorista.',
    );
    expect(licenseWarning('2026-11-24', NOW)).toBe('A CNH vence hoje.');
    expect(licenseWarning('2026-11-25', NOW)).toBe('A CNH vence amanhã.');
    expect(licenseWarning('2026-12-06', NOW)).toBe('A CNH vence em 12 dias (06/12/2026).');
    expect(licenseWarning('2027-06-01', NOW)).toBeUndefined();
  });

  it('says in the list whether the CNH has expired', () => {
    expect(licenseExpiryText('2025-01-10', NOW)).toBe('vencida em 10/01/2025');
    expect(licenseExpiryText('2027-06-01', NOW)).toBe('vence em 01/06/2027');
  });
});
