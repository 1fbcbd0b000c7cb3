/**
 * What a report file holds, whatever its format: a header (customer, vehicles, period, time of
 * generation), tables of typed cells with their totals, an optional one-line summary and, for
 * histories and trips, the route to draw. Documents are built once (documents.ts) and written
 * by each writer (xlsx.ts, pdf.ts, kml.ts), so an XLSX and a PDF of one report always agree.
 *
 * Cells are typed, never preformatted text: an instant is a Date, a distance metres, a duration
 * seconds. Each writer formats them its own way (an Excel number format, pt-BR text in a PDF).
 * Table rows may be an async iterable, so a month of positions is written as it is read.
 */

export type CellKind =
  | 'text'
  | 'datetime'
  | 'date'
  | 'km'
  | 'integer'
  | 'speed'
  | 'duration'
  | 'coordinate'
  | 'boolean'
  /** Reais (a number, to the centavo). */
  | 'money';

/** An instant (Date), a São Paulo day ('AAAA-MM-DD'), metres, seconds, km/h, text… */
export type Cell = string | number | boolean | Date | null;

export interface Column {
  header: string;
  kind: CellKind;
  /** Width in characters (spreadsheet) and relative width (PDF). */
  width: number;
}

export interface Table {
  title: string;
  columns: Column[];
  rows: Iterable<Cell[]> | AsyncIterable<Cell[]>;
  /** Aligned with the columns; the first text cell is the label ('Total'). */
  totals?: Cell[];
  /** Shown when there are no rows. */
  empty?: string;
}

export interface RoutePoint {
  lon: number;
  lat: number;
}

export interface RouteStop extends RoutePoint {
  label: string;
  start: Date;
  end: Date;
}

export interface Route {
  title: string;
  points: RoutePoint[];
  stops: RouteStop[];
  /** Times of the points (KML), when known. */
  times?: Date[];
}

export interface ReportDocument {
  title: string;
  /** The file name without extension (SPEC §9): 'jornadas_relatorio'. */
  fileBase: string;
  customer: string;
  /** 'ABC1D23 — Caminhão baú', or a list for multi-vehicle reports. */
  subjects: string[];
  subjectLabel: string;
  beginAt: Date;
  endAt: Date;
  generatedAt: Date;
  /** Label and formatted value pairs shown under the header. */
  summary: [string, Cell, CellKind][];
  tables: Table[];
  routes: Route[];
}

export const REPORT_MIME = {
  excel: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  kml: 'application/vnd.google-earth.kml+xml',
} as const;
export const REPORT_EXTENSION = { excel: 'xlsx', pdf: 'pdf', kml: 'kml' } as const;
export type FileFormat = keyof typeof REPORT_MIME;

export async function* rowsOf(rows: Iterable<Cell[]> | AsyncIterable<Cell[]>) {
  for await (const row of rows) yield row;
}
