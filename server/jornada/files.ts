/**
 * The driver's working day as report files (XLSX and PDF, through the report writers of
 * server/reports/files): 'Jornada do motorista' for any period, with the days and the rules
 * broken, and the monthly 'Espelho de ponto', a row per day of the month with its totals
 * (worked, driving, overtime, waiting, night hours) and the month's sums.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type JornadaRegime,
  PERIOD_KIND_LABELS,
  PERIOD_SOURCE_LABELS,
  VIOLATION_RULE_LABELS,
} from '../../src/contract/jornada';
import { dayStart, nextDay } from '../../src/lib/report-period';
import type { Cell, Column, ReportDocument } from '../reports/files/model';
import { writePdf } from '../reports/files/pdf';
import { writeXlsx } from '../reports/files/xlsx';
import type { DayResult } from './engine';

const REGIMES: Record<JornadaRegime, string> = {
  cargo: 'Transporte de carga',
  passageiros: 'Transporte de passageiros',
};

const col = (header: string, kind: Column['kind'], width: number): Column => ({
  header,
  kind,
  width,
});
const seconds = (minutes: number) => minutes * 60;
const when = (ms: number | null) => (ms === null ? null : new Date(ms));

export interface JornadaFileInput {
  espelho: boolean;
  customer: string;
  driverName: string;
  regime: JornadaRegime;
  overtimeLimitMinutes: number;
  fromDay: string;
  toDay: string;
  days: DayResult[];
  /** Plates of the vehicles the periods name, by id (the report lists each period's). */
  plates?: Map<string, string>;
}

export function jornadaDocument(input: JornadaFileInput, now: Date): ReportDocument {
  const { days } = input;
  const sum = (key: keyof DayResult['totals']) => days.reduce((t, d) => t + d.totals[key], 0);
  const violations = days.flatMap((d) => d.violations.map((v) => ({ day: d.day, ...v })));
  const dayColumns = [
    col('Data', 'date', 12),
    col('Entrada', 'datetime', 18),
    col('Saída', 'datetime', 18),
    col('Trabalhado', 'duration', 12),
    col('Direção', 'duration', 12),
    col('Outro trabalho', 'duration', 14),
    col('Espera', 'duration', 12),
    col('Refeição', 'duration', 12),
    col('Horas extras', 'duration', 13),
    col('Noturno', 'duration', 12),
    col('Violações', 'integer', 10),
  ];
  return {
    title: input.espelho ? 'Espelho de ponto' : 'Jornada do motorista',
    fileBase: input.espelho ? 'espelho_de_ponto' : 'jornada_motorista',
    customer: input.customer,
    subjects: [input.driverName],
    subjectLabel: 'Motorista',
    beginAt: dayStart(input.fromDay),
    endAt: dayStart(nextDay(input.toDay)),
    generatedAt: now,
    summary: [
      ['Regime', REGIMES[input.regime], 'text'],
      ['Horas extras permitidas', seconds(input.overtimeLimitMinutes), 'duration'],
      ['Trabalhado', seconds(sum('worked')), 'duration'],
      ['Horas extras', seconds(sum('overtime')), 'duration'],
      ['Violações', violations.length, 'integer'],
    ],
    tables: [
      {
        title: input.espelho ? 'Dias do mês' : 'Dias',
        columns: dayColumns,
        rows: days.map((d): Cell[] => [
          d.day,
          when(d.start),
          when(d.end),
          seconds(d.totals.worked),
          seconds(d.totals.driving),
          seconds(d.totals.otherWork),
          seconds(d.totals.waiting),
          seconds(d.totals.meal),
          seconds(d.totals.overtime),
          seconds(d.totals.night),
          d.violations.length,
        ]),
        totals: [
          'Total',
          null,
          null,
          seconds(sum('worked')),
          seconds(sum('driving')),
          seconds(sum('otherWork')),
          seconds(sum('waiting')),
          seconds(sum('meal')),
          seconds(sum('overtime')),
          seconds(sum('night')),
          violations.length,
        ],
      },
      // The report (not the monthly espelho) lists each period with where it comes from: a
      // working day read from a tracker, an assignment or a mark is evidence, and says which.
      ...(input.espelho
        ? []
        : [
            {
              title: 'Períodos',
              columns: [
                col('Data', 'date', 12),
                col('Período', 'text', 16),
                col('Início', 'datetime', 18),
                col('Fim', 'datetime', 18),
                col('Duração', 'duration', 12),
                col('Origem', 'text', 26),
                col('Veículo', 'text', 12),
              ],
              rows: days.flatMap((d) =>
                d.periods.map((p): Cell[] => [
                  d.day,
                  PERIOD_KIND_LABELS[p.kind],
                  new Date(p.start),
                  new Date(p.end),
                  Math.round((p.end - p.start) / 1000),
                  PERIOD_SOURCE_LABELS[p.source],
                  p.vehicleId ? (input.plates?.get(p.vehicleId) ?? '') : '',
                ]),
              ),
              empty: 'Nenhum período no período escolhido.',
            },
          ]),
      {
        title: 'Violações',
        columns: [
          col('Data', 'date', 12),
          col('Regra', 'text', 44),
          col('Início', 'datetime', 18),
          col('Fim', 'datetime', 18),
          col('Excedido em', 'duration', 12),
        ],
        rows: violations.map((v): Cell[] => [
          v.day,
          VIOLATION_RULE_LABELS[v.rule],
          new Date(v.start),
          new Date(v.end),
          seconds(v.minutes),
        ]),
        empty: 'Nenhuma violação no período.',
      },
    ],
    routes: [],
  };
}

/** The file's bytes, written by the report writers to a temporary folder and read back. */
export async function jornadaFile(doc: ReportDocument, format: 'pdf' | 'excel') {
  const dir = await mkdtemp(join(tmpdir(), 'rastro-jornada-'));
  try {
    const file = join(dir, format === 'pdf' ? 'jornada.pdf' : 'jornada.xlsx');
    if (format === 'pdf') await writePdf(doc, file);
    else await writeXlsx(doc, file);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
