/**
 * pt-BR text of typed cells, for the PDF and for header lines: São Paulo dates, numbers with
 * thousand dots and decimal commas, km with one decimal, durations as SPEC §9 time differences.
 */
import { formatDuration } from '../../../src/lib/format';
import { localDateAndClock, localDateTime } from '../../../src/lib/local-time';
import type { Cell, CellKind, ReportDocument } from './model';

const oneDecimal = new Intl.NumberFormat('pt-BR', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const integer = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** '17/11/2026 07:00:05' in São Paulo time. */
export const formatInstant = (at: Date) => localDateTime(at).replace(',', '');
/** '17/11/2026 07:00' in São Paulo time. */
export const formatMinute = (at: Date) => localDateAndClock(at).replace(',', '');
/** '2026-11-17' → '17/11/2026'. */
export const formatDayText = (day: string) => day.split('-').reverse().join('/');

export function formatCell(cell: Cell, kind: CellKind): string {
  if (cell === null || cell === '') return '-';
  if (typeof cell === 'string' && kind !== 'date') return cell;
  switch (kind) {
    case 'datetime':
      return formatInstant(cell instanceof Date ? cell : new Date(Number(cell)));
    case 'date':
      return formatDayText(String(cell));
    case 'km':
      return oneDecimal.format(Number(cell) / 1000);
    case 'integer':
      return integer.format(Number(cell));
    case 'speed':
      return oneDecimal.format(Number(cell));
    case 'duration':
      return formatDuration(Number(cell));
    case 'coordinate':
      return Number(cell).toFixed(6);
    case 'boolean':
      return cell ? 'Sim' : 'Não';
    case 'money':
      return money.format(Number(cell));
    default:
      return String(cell);
  }
}

/** The period as people read it: from the first instant to the last (end exclusive). */
export function periodText(beginAt: Date, endAt: Date): string {
  return `${formatMinute(beginAt)} a ${formatMinute(new Date(endAt.getTime() - 60_000))}`;
}

/** The header lines every file opens with. */
export function headerLines(doc: ReportDocument): string[] {
  return [
    doc.title,
    `Cliente: ${doc.customer}`,
    `${doc.subjectLabel}: ${doc.subjects.join(', ') || '-'}`,
    `Período: ${periodText(doc.beginAt, doc.endAt)}`,
    `Gerado em: ${formatInstant(doc.generatedAt)} (horário de Brasília)`,
  ];
}
