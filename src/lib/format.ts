/**
 * pt-BR display formats of SPEC §5 and §9: numbers with two decimals, values with units,
 * time differences, distances and mileage, and the "n selected" quantity text.
 */
const twoDecimals = new Intl.NumberFormat('pt-BR', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const oneDecimal = new Intl.NumberFormat('pt-BR', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const integer = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

type Numeric = number | string | null | undefined;

function toNumber(value: Numeric): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** '1.234,50'; '0' when there is no value. */
export function formatNumber(value: Numeric): string {
  const n = toNumber(value);
  return n === null ? '0' : twoDecimals.format(n);
}

/** '80,00 km/h'; '-' when there is no value. */
export function formatWithUnit(value: Numeric, unit: string): string {
  const n = toNumber(value);
  return n === null ? '-' : `${twoDecimals.format(n)} ${unit}`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Seconds as '42 s', under an hour as 'm:ss s', otherwise as 'h:mm m'. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}:${pad2(s % 60)} s`;
  return `${Math.floor(s / 3600)}:${pad2(Math.floor((s % 3600) / 60))} m`;
}

/** Time between two instants (Date, ISO text or epoch ms), formatted as formatDuration. */
export function formatTimeDifference(
  start: Date | string | number,
  end: Date | string | number,
): string {
  const ms = Math.abs(new Date(end).getTime() - new Date(start).getTime());
  return formatDuration(Number.isFinite(ms) ? ms / 1000 : 0);
}

/** Metres as kilometres with thousand dots and the metres after a comma: '1.234,567 km'. */
export function formatDistance(meters: Numeric): string {
  const n = toNumber(meters);
  if (n === null) return '-';
  const total = Math.round(Math.abs(n));
  const sign = n < 0 && total > 0 ? '-' : '';
  const km = Math.floor(total / 1000);
  const rest = String(total % 1000).padStart(3, '0');
  return `${sign}${integer.format(km)},${rest} km`;
}

/** Odometer in metres as kilometres with one decimal: '1.234,6'. */
export function formatMileage(meters: Numeric): string {
  const n = toNumber(meters);
  return n === null ? '-' : oneDecimal.format(n / 1000);
}

/** '1 veículo selecionado' / '3 veículos selecionados'. */
export function quantityText(count: number, singular: string, plural: string): string {
  return count === 1 ? `${count} ${singular} selecionado` : `${count} ${plural} selecionados`;
}
