/**
 * A driver's CNH validity as of today in Brasília time: expired, expiring within
 * LICENSE_WARNING_DAYS, or valid. The form takes an expired date (the record says what the
 * document says) and says so beside the field; the list says it in the CNH column. Pure.
 */
import { reportDay } from './report-period';

export const LICENSE_WARNING_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface LicenseState {
  kind: 'expired' | 'expiring' | 'valid';
  /** Days from today to the expiry date (negative once expired). */
  days: number;
  /** The date as people read it: '05/12/2026'. */
  date: string;
}

const utcDay = (iso: string) => {
  const [, y, m, d] = ISO_DATE.exec(iso) ?? [];
  return Date.UTC(Number(y), Number(m) - 1, Number(d));
};

export function licenseState(expiry: string, now = Date.now()): LicenseState | undefined {
  const parts = ISO_DATE.exec(expiry);
  if (!parts) return undefined;
  const days = Math.round((utcDay(expiry) - utcDay(reportDay(now))) / DAY_MS);
  if (Number.isNaN(days)) return undefined;
  const date = `${parts[3]}/${parts[2]}/${parts[1]}`;
  const kind = days < 0 ? 'expired' : days <= LICENSE_WARNING_DAYS ? 'expiring' : 'valid';
  return { kind, days, date };
}

/** What the list's CNH column says of the date: 'vencida em …' or 'vence em …'. */
export function licenseExpiryText(expiry: string, now = Date.now()): string | undefined {
  const state = licenseState(expiry, now);
  if (!state) return undefined;
  return state.kind === 'expired' ? `vencida em ${state.date}` : `vence em ${state.date}`;
}

/** What the form says beside the date, when there is something to say. */
export function licenseWarning(expiry: string, now = Date.now()): string | undefined {
  const state = licenseState(expiry, now);
  if (!state || state.kind === 'valid') return undefined;
  if (state.kind === 'expired')
    return `CNH vencida em ${state.date}: renove antes de escalar este motorista.`;
  if (state.days === 0) return 'A CNH vence hoje.';
  return state.days === 1
    ? 'A CNH vence amanhã.'
    : `A CNH vence em ${state.days} dias (${state.date}).`;
}
