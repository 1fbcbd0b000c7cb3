/**
 * Report files (`BENCH_PARTS=files`): a positions sheet of 50,000 rows (11 typed columns) written
 * with the streaming XLSX writer, then 200,000 rows to show that memory does not grow with the
 * rows; and the PDF of a 2,000-row table (its row limit). Time, peak RSS and peak heap above
 * the start, sampled every 20 ms. Prints figures, asserts nothing.
 */
import { rm } from 'node:fs/promises';
import type { Cell, Column, ReportDocument } from '../server/reports/files/model';
import { renderReport } from '../server/reports/files/render';

const COLUMNS: Column[] = [
  { header: 'Data/hora', kind: 'datetime', width: 19 },
  { header: 'Recebida em', kind: 'datetime', width: 19 },
  { header: 'Latitude', kind: 'coordinate', width: 12 },
  { header: 'Longitude', kind: 'coordinate', width: 12 },
  { header: 'Velocidade (km/h)', kind: 'speed', width: 12 },
  { header: 'Direção (°)', kind: 'integer', width: 10 },
  { header: 'Altitude (m)', kind: 'integer', width: 10 },
  { header: 'Ignição', kind: 'boolean', width: 9 },
  { header: 'Bateria', kind: 'speed', width: 9 },
  { header: 'Odômetro (km)', kind: 'km', width: 14 },
  { header: 'Motorista', kind: 'text', width: 22 },
];

function document(rows: number): ReportDocument {
  const start = Date.UTC(2026, 10, 1, 3);
  async function* generate(): AsyncGenerator<Cell[]> {
    for (let i = 0; i < rows; i += 1) {
      const at = new Date(start + i * 10_000);
      yield [
        at,
        new Date(at.getTime() + 1500),
        -8.05 + Math.sin(i / 500) * 0.05,
        -34.9 + Math.cos(i / 700) * 0.05,
        (i * 7) % 90,
        (i * 13) % 360,
        12 + (i % 5),
        i % 7 !== 0,
        12.6,
        i * 55.5,
        i % 3 === 0 ? 'João da Conceição' : '',
      ];
    }
  }
  return {
    title: 'Relatório de posições',
    fileBase: 'posicoes_relatorio',
    customer: 'Transportes Norte',
    subjects: ['KGH1L23 — Caminhão Baú 01'],
    subjectLabel: 'Veículo',
    beginAt: new Date(start),
    endAt: new Date(start + rows * 10_000),
    generatedAt: new Date(),
    summary: [],
    tables: [
      {
        title: 'Posições',
        columns: COLUMNS,
        rows: generate(),
        totals: ['Total', null, null, null, 89, null, null, null, null, rows * 55.5, null],
      },
    ],
    routes: [],
  };
}

async function measure(label: string, rows: number, format: 'excel' | 'pdf') {
  global.gc?.();
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 20);
  const started = performance.now();
  const file = await renderReport(document(rows), format);
  const ms = performance.now() - started;
  clearInterval(timer);
  const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;
  console.log(
    `  ${label}: ${rows.toLocaleString('pt-BR')} linhas em ${(ms / 1000).toFixed(2)} s, arquivo ${mb(file.size)}, pico de RSS +${mb(rss - base.rss)}, pico de heap +${mb(heap - base.heapUsed)}`,
  );
  await rm(file.path, { force: true });
}

export async function benchFiles() {
  console.log('\nArquivos de relatório (escrita em disco, sem a consulta ao banco)');
  await measure('XLSX (aquecimento)', 2000, 'excel');
  await measure('XLSX', 50_000, 'excel');
  await measure('XLSX', 200_000, 'excel');
  await measure('PDF', 2000, 'pdf');
}
