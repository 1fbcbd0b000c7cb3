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

const BRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** Money in reais as people in Brazil read it: 'R$ 1.234,56'. */
export function formatCurrency(value: number): string {
  return BRL.format(value).replace(/\u00a0/g, ' ');
}

/** A calendar day 'YYYY-MM-DD' as 'dd/mm/aaaa' (no time zone involved). */
export function formatDay(day: string): string {
  const [y, m, d] = day.slice(0, 10).split('-');
  return y && m && d ? `${d}/${m}/${y}` : day;
}

/** A boleto's 47-digit line grouped as banks print it; anything else unchanged. */
export function formatDigitableLine(line: string): string {
  const d = line.replace(/\D/g, '');
  if (d.length !== 47) return line;
  return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d.slice(32, 33)} ${d.slice(33)}`;
}
