/**
 * The report 'Comportamento do motorista' as a file document (model.ts): the weights used in
 * the header, the ranking with the counts of each kind of event, then every event of the
 * month, driver by driver.
 */
import {
  DRIVING_EVENT_KINDS,
  DRIVING_EVENT_LABELS,
  DRIVING_EVENT_SHORT,
  type DrivingReport,
  drivingEventDetail,
  DRIVING_FILE_TEXT as t,
} from '../../../src/contract/driving';
import type { Cell, ReportDocument } from './model';

/** A score as pt-BR text ('99,8'): a text cell, beside 'km insuficientes'. */
const decimal = (n: number) => n.toLocaleString('pt-BR', { maximumFractionDigits: 1 });

export function drivingDocument(
  report: DrivingReport,
  customer: string,
  generatedAt: Date,
): ReportDocument {
  const ranking: Cell[][] = report.drivers.map((row, i) => [
    i + 1,
    row.name,
    row.km * 1000,
    row.score === null ? t.noScore : decimal(row.score),
    row.previousScore === null ? null : decimal(row.previousScore),
    row.delta === null ? null : `${row.delta > 0 ? '+' : ''}${decimal(row.delta)}`,
    ...DRIVING_EVENT_KINDS.map((k) => row.counts[k]),
  ]);
  const events: Cell[][] = [...report.drivers, ...report.unassigned].flatMap((row) =>
    row.events.map((e) => [
      row.driverId ? row.name : t.unassigned,
      e.plate,
      new Date(e.at),
      DRIVING_EVENT_LABELS[e.kind],
      drivingEventDetail(e),
      t.sources[e.source] ?? '',
    ]),
  );
  return {
    title: t.title,
    fileBase: 'comportamento_motorista_relatorio',
    customer,
    subjects: [report.month.split('-').reverse().join('/')],
    subjectLabel: t.month,
    beginAt: new Date(report.beginAt),
    endAt: new Date(report.endAt),
    generatedAt,
    // The weights the scores were made with (the company's), so that a file read later or
    // elsewhere still says what its scores mean.
    summary: [
      ...DRIVING_EVENT_KINDS.map((k): [string, Cell, 'text'] => [
        t.weightOf(DRIVING_EVENT_SHORT[k]),
        k === 'idling'
          ? t.idlingWeight(decimal(report.weights[k] ?? 0))
          : decimal(report.weights[k] ?? 0),
        'text',
      ]),
      [t.idleAfter, t.idleMinutes(report.idleMinutes), 'text'],
    ],
    tables: [
      {
        title: t.title,
        columns: [
          { header: t.rank, kind: 'integer', width: 7 },
          { header: t.driver, kind: 'text', width: 28 },
          { header: t.km, kind: 'km', width: 9 },
          { header: t.score, kind: 'text', width: 10 },
          { header: t.previousScore, kind: 'text', width: 10 },
          { header: t.trend, kind: 'text', width: 9 },
          ...DRIVING_EVENT_KINDS.map((k) => ({
            header: DRIVING_EVENT_SHORT[k],
            kind: 'integer' as const,
            width: 9,
          })),
        ],
        rows: ranking,
        empty: t.none,
      },
      {
        title: t.events,
        columns: [
          { header: t.driver, kind: 'text', width: 28 },
          { header: t.vehicle, kind: 'text', width: 10 },
          { header: t.at, kind: 'datetime', width: 18 },
          { header: t.kind, kind: 'text', width: 30 },
          { header: t.detail, kind: 'text', width: 22 },
          { header: t.source, kind: 'text', width: 10 },
        ],
        rows: events,
        empty: t.noEvents,
      },
    ],
    routes: [],
  };
}
