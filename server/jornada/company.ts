/**
 * The working day of a company's drivers over a period, in one file: a row per driver with the
 * period's totals and how many rules were broken, then every violation. What an automated
 * 'Jornada do motorista' report sends (the screen and its files show one driver at a time).
 */
import { VIOLATION_RULE_LABELS } from '../../src/contract/jornada';
import { reportDay } from '../../src/lib/report-period';
import type { Db } from '../platform/db/client';
import type { Cell, Column, ReportDocument } from '../reports/files/model';
import type { DriverRow } from '../reports/queries/reports';
import { jornadaOf } from './service';

const col = (header: string, kind: Column['kind'], width: number): Column => ({
  header,
  kind,
  width,
});
const seconds = (minutes: number) => minutes * 60;

export async function companyJornadaDocument(
  ctx: { db: Db; customer: string; beginAt: Date; endAt: Date; generatedAt: Date },
  drivers: DriverRow[],
): Promise<ReportDocument> {
  const fromDay = reportDay(ctx.beginAt);
  const toDay = reportDay(ctx.endAt.getTime() - 1);
  const rows: Cell[][] = [];
  const violations: Cell[][] = [];
  const sorted = [...drivers].sort((a, b) => a.completName.localeCompare(b.completName, 'pt-BR'));
  // One driver at a time: each reads its vehicles' fixes, and a company has many drivers.
  for (const driver of sorted) {
    const { days } = await jornadaOf(
      ctx.db,
      driver,
      [driver.clientId],
      fromDay,
      toDay,
      ctx.generatedAt,
    );
    const sum = (key: keyof (typeof days)[number]['totals']) =>
      days.reduce((total, d) => total + d.totals[key], 0);
    const broken = days.flatMap((d) => d.violations.map((v) => ({ day: d.day, ...v })));
    rows.push([
      driver.completName,
      days.filter((d) => d.start !== null).length,
      seconds(sum('worked')),
      seconds(sum('driving')),
      seconds(sum('overtime')),
      seconds(sum('waiting')),
      seconds(sum('night')),
      broken.length,
    ]);
    for (const v of broken)
      violations.push([
        driver.completName,
        v.day,
        VIOLATION_RULE_LABELS[v.rule],
        new Date(v.start),
        new Date(v.end),
        seconds(v.minutes),
      ]);
  }
  return {
    title: 'Jornada do motorista',
    fileBase: 'jornada_motoristas',
    customer: ctx.customer,
    subjects: sorted.map((d) => d.completName),
    subjectLabel: 'Motoristas',
    beginAt: ctx.beginAt,
    endAt: ctx.endAt,
    generatedAt: ctx.generatedAt,
    summary: [
      ['Motoristas', sorted.length, 'integer'],
      ['Violações', violations.length, 'integer'],
    ],
    tables: [
      {
        title: 'Motoristas',
        columns: [
          col('Motorista', 'text', 28),
          col('Dias com jornada', 'integer', 10),
          col('Trabalhado', 'duration', 12),
          col('Direção', 'duration', 12),
          col('Horas extras', 'duration', 13),
          col('Espera', 'duration', 12),
          col('Noturno', 'duration', 12),
          col('Violações', 'integer', 10),
        ],
        rows,
        empty: 'Nenhum motorista.',
      },
      {
        title: 'Violações',
        columns: [
          col('Motorista', 'text', 28),
          col('Data', 'date', 12),
          col('Regra', 'text', 44),
          col('Início', 'datetime', 18),
          col('Fim', 'datetime', 18),
          col('Excedido em', 'duration', 12),
        ],
        rows: violations,
        empty: 'Nenhuma violação no período.',
      },
    ],
    routes: [],
  };
}
