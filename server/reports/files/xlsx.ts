/**
 * XLSX with exceljs' streaming writer: each row is committed (written to the zip and dropped)
 * as soon as it is made, so a month of positions never sits in memory as a workbook (the
 * non-streaming writer runs out of memory on large sheets, exceljs #2583). One sheet per table:
 * the report's header in the first rows, then a bold header row that stays frozen, filters
 * over the columns, widths from the document, typed cells (dates as dates in São Paulo time,
 * numbers as numbers with formats Excel shows in the reader's own locale — 1.234,5 in a
 * Brazilian Excel —, km with one decimal, durations as [h]:mm:ss) and a totals row.
 */
import ExcelJS from 'exceljs';
import { localWallClock } from '../../../src/lib/report-period';
import { type Cell, type CellKind, type ReportDocument, rowsOf, type Table } from './model';
import { headerLines } from './text';

const NUMBER_FORMATS: Partial<Record<CellKind, string>> = {
  datetime: 'dd/mm/yyyy hh:mm:ss',
  date: 'dd/mm/yyyy',
  km: '#,##0.0',
  integer: '#,##0',
  speed: '#,##0.0',
  duration: '[h]:mm:ss',
  coordinate: '0.000000',
  money: '"R$" #,##0.00',
};

const HEADER_FILL: ExcelJS.Fill = {
  type: 'pattern',
  pattern: 'solid',
  fgColor: { argb: 'FF0B5CAD' },
};

/** A typed cell as Excel holds it. */
export function excelValue(cell: Cell, kind: CellKind): ExcelJS.CellValue {
  if (cell === null || cell === '') return null;
  // Labels (a totals row's 'Total: 12 viagens') stay text in any column.
  if (typeof cell === 'string' && kind !== 'date') return cell;
  switch (kind) {
    case 'datetime':
      return localWallClock(cell instanceof Date ? cell : new Date(Number(cell)));
    case 'date':
      return new Date(`${String(cell)}T00:00:00Z`);
    case 'km':
      return Math.round(Number(cell) / 100) / 10;
    case 'duration':
      return Number(cell) / 86_400;
    case 'boolean':
      return cell ? 'Sim' : 'Não';
    case 'text':
      return String(cell);
    default:
      return typeof cell === 'number' ? cell : Number(cell);
  }
}

/** Sheet names: at most 31 characters, none of []:*?/\ and unique in the workbook. */
function sheetName(title: string, used: Set<string>): string {
  const base = title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 28) || 'Planilha';
  let name = base;
  for (let n = 2; used.has(name.toLowerCase()); n += 1) name = `${base} ${n}`;
  used.add(name.toLowerCase());
  return name;
}

async function writeTable(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  doc: ReportDocument,
  table: Table,
  used: Set<string>,
): Promise<number> {
  const header = headerLines(doc);
  const headerRow = header.length + 2;
  const sheet = workbook.addWorksheet(sheetName(table.title, used), {
    views: [{ state: 'frozen', ySplit: headerRow }],
  });
  sheet.columns = table.columns.map((column, i) => ({
    key: `c${i}`,
    width: column.width,
    style: NUMBER_FORMATS[column.kind] ? { numFmt: NUMBER_FORMATS[column.kind] } : {},
  }));
  const title = sheet.addRow([`${doc.title} — ${table.title}`]);
  title.font = { bold: true, size: 14 };
  title.commit();
  for (const line of header.slice(1)) sheet.addRow([line]).commit();
  sheet.addRow([]).commit();
  const head = sheet.addRow(table.columns.map((c) => c.header));
  head.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  head.eachCell((cell) => {
    cell.fill = HEADER_FILL;
    cell.alignment = { vertical: 'middle', wrapText: true };
  });
  head.commit();
  let count = 0;
  for await (const row of rowsOf(table.rows)) {
    sheet.addRow(row.map((cell, i) => excelValue(cell, table.columns[i]?.kind ?? 'text'))).commit();
    count += 1;
  }
  if (count === 0 && table.empty) sheet.addRow([table.empty]).commit();
  sheet.autoFilter = {
    from: { row: headerRow, column: 1 },
    to: { row: headerRow + Math.max(count, 1), column: table.columns.length },
  };
  if (table.totals) {
    const totals = sheet.addRow(
      table.totals.map((cell, i) => excelValue(cell, table.columns[i]?.kind ?? 'text')),
    );
    totals.font = { bold: true };
    totals.eachCell((cell) => {
      cell.border = { top: { style: 'thin' } };
    });
    totals.commit();
  }
  sheet.commit();
  return count;
}

/** The summary sheet: one typed value per line, each with its own number format. */
function writeSummary(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  doc: ReportDocument,
  used: Set<string>,
) {
  const sheet = workbook.addWorksheet(sheetName('Resumo', used));
  sheet.columns = [
    { key: 'label', width: 34 },
    { key: 'value', width: 22 },
  ];
  const lines = headerLines(doc);
  const title = sheet.addRow([lines[0] ?? doc.title]);
  title.font = { bold: true, size: 14 };
  title.commit();
  for (const line of lines.slice(1)) sheet.addRow([line]).commit();
  sheet.addRow([]).commit();
  for (const [label, value, kind] of doc.summary) {
    const row = sheet.addRow([label, excelValue(value, kind)]);
    row.getCell(1).font = { bold: true };
    const format = NUMBER_FORMATS[kind];
    if (format) row.getCell(2).numFmt = format;
    row.commit();
  }
  sheet.commit();
}

/** Writes the document to `filename` as XLSX; answers the number of data rows written. */
export async function writeXlsx(doc: ReportDocument, filename: string): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Rastro';
  workbook.created = doc.generatedAt;
  const used = new Set<string>();
  let rows = 0;
  if (doc.summary.length > 0) writeSummary(workbook, doc, used);
  for (const table of doc.tables) rows += await writeTable(workbook, doc, table, used);
  await workbook.commit();
  return rows;
}
