/**
 * PDF with pdfkit, on A4 landscape, in DejaVu Sans (embedded and subset: accents and 'ç'
 * render everywhere; pdfkit's standard fonts load through a path bundlers break, pdfkit #1801).
 * The first page carries the header (customer, vehicles, period, time of generation), the
 * summary and, for histories and trips, the route drawn from the fixes themselves (projected
 * polyline with start, end and stops: no tile server needed). Tables break across pages with
 * their header row repeated; every page ends with 'Página i de N'. A table is cut at
 * PDF_MAX_ROWS rows with a note (a month of positions is thousands of pages: Excel holds it).
 */
import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import { type Column, type ReportDocument, type Route, rowsOf, type Table } from './model';
import { formatCell, formatInstant, headerLines, periodText } from './text';

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf');

export const PDF_MAX_ROWS = 2000;
const MARGIN = 36;
const ROW_HEIGHT = 14;
const HEAD_HEIGHT = 22;
const BLUE = '#0b5cad';
const INK = '#1b2430';
const MUTED = '#5b6675';

type Pdf = PDFKit.PDFDocument;

const contentWidth = (pdf: Pdf) => pdf.page.width - MARGIN * 2;
const bottom = (pdf: Pdf) => pdf.page.height - MARGIN - 18;

function writeHeader(pdf: Pdf, doc: ReportDocument) {
  const [title, ...lines] = headerLines(doc);
  pdf
    .font('bold')
    .fontSize(16)
    .fillColor(BLUE)
    .text(title ?? doc.title, MARGIN, MARGIN);
  pdf.moveDown(0.3).font('regular').fontSize(9.5).fillColor(INK);
  for (const line of lines) pdf.text(line);
  pdf.moveDown(0.6);
}

function writeSummary(pdf: Pdf, doc: ReportDocument) {
  if (doc.summary.length === 0) return;
  const perRow = 4;
  const width = contentWidth(pdf) / perRow;
  const top = pdf.y;
  doc.summary.forEach(([label, value, kind], i) => {
    const x = MARGIN + (i % perRow) * width;
    const y = top + Math.floor(i / perRow) * 30;
    pdf
      .font('regular')
      .fontSize(8)
      .fillColor(MUTED)
      .text(label, x, y, { width: width - 8 });
    pdf
      .font('bold')
      .fontSize(11)
      .fillColor(INK)
      .text(formatCell(value, kind), x, y + 10, { width: width - 8 });
  });
  pdf.y = top + Math.ceil(doc.summary.length / perRow) * 30 + 6;
  pdf.x = MARGIN;
}

/** Every point kept up to `max`, evenly (a drawing has no use for 268,000 vertices). */
function thin<T>(points: T[], max: number): T[] {
  if (points.length <= max) return points;
  const step = points.length / max;
  const out: T[] = [];
  for (let i = 0; i < max; i += 1) {
    const p = points[Math.floor(i * step)];
    if (p) out.push(p);
  }
  const last = points.at(-1);
  if (last) out.push(last);
  return out;
}

function drawRoute(pdf: Pdf, route: Route) {
  const height = 230;
  if (pdf.y + height + 24 > bottom(pdf)) pdf.addPage();
  pdf.font('bold').fontSize(11).fillColor(INK).text(route.title, MARGIN, pdf.y);
  const box = { x: MARGIN, y: pdf.y + 4, w: contentWidth(pdf), h: height };
  pdf.rect(box.x, box.y, box.w, box.h).lineWidth(0.5).fillAndStroke('#f3f6f9', '#c9d2dc');
  const all = [...route.points, ...route.stops];
  if (all.length === 0) {
    pdf
      .font('regular')
      .fontSize(9)
      .fillColor(MUTED)
      .text('Sem posições no período', box.x, box.y + box.h / 2, {
        width: box.w,
        align: 'center',
      });
    pdf.y = box.y + box.h + 10;
    return;
  }
  const lats = all.map((p) => p.lat);
  const lons = all.map((p) => p.lon);
  const minLat = Math.min(...lats);
  const maxLat = Math.max(...lats);
  const minLon = Math.min(...lons);
  const maxLon = Math.max(...lons);
  // Equirectangular at the route's latitude: true shapes at a city's or a state's scale.
  const kx = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const spanX = Math.max((maxLon - minLon) * kx, 1e-6);
  const spanY = Math.max(maxLat - minLat, 1e-6);
  const pad = 16;
  const scale = Math.min((box.w - pad * 2) / spanX, (box.h - pad * 2) / spanY);
  const ox = box.x + (box.w - spanX * scale) / 2;
  const oy = box.y + (box.h - spanY * scale) / 2;
  const at = (p: { lon: number; lat: number }): [number, number] => [
    ox + (p.lon - minLon) * kx * scale,
    oy + (maxLat - p.lat) * scale,
  ];
  const points = thin(route.points, 4000);
  const [first, ...rest] = points;
  if (first) {
    pdf.moveTo(...at(first));
    for (const p of rest) pdf.lineTo(...at(p));
    pdf.lineWidth(1.6).lineJoin('round').strokeColor(BLUE).stroke();
  }
  // Stops at one place (a depot, a client visited daily) are one marker with their count.
  const places = new Map<string, { lon: number; lat: number; count: number }>();
  for (const stop of route.stops) {
    const key = `${stop.lat.toFixed(3)},${stop.lon.toFixed(3)}`;
    const place = places.get(key) ?? { lon: stop.lon, lat: stop.lat, count: 0 };
    place.count += 1;
    places.set(key, place);
  }
  for (const place of places.values()) {
    const [x, y] = at(place);
    const r = place.count > 9 ? 7 : 5.5;
    pdf.circle(x, y, r).fillAndStroke('#f08c00', '#ffffff');
    pdf
      .font('bold')
      .fontSize(6)
      .fillColor('#ffffff')
      .text(String(place.count), x - r, y - 3, { width: r * 2, align: 'center', lineBreak: false });
  }
  const marker = (p: { lon: number; lat: number } | undefined, color: string, label: string) => {
    if (!p) return;
    const [x, y] = at(p);
    pdf.circle(x, y, 5).fillAndStroke(color, '#ffffff');
    pdf
      .font('bold')
      .fontSize(8)
      .fillColor(color)
      .text(label, x + 7, y - 4, { lineBreak: false });
  };
  marker(route.points[0], '#2b8a3e', 'Início');
  marker(route.points.at(-1), '#c92a2a', 'Fim');
  pdf.y = box.y + box.h + 6;
  pdf
    .font('regular')
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      `Trajeto com ${route.points.length.toLocaleString('pt-BR')} posições; ${route.stops.length} ${route.stops.length === 1 ? 'parada' : 'paradas'} em ${places.size} ${places.size === 1 ? 'local' : 'locais'} (em laranja, com quantas paradas houve em cada um).`,
      MARGIN,
      pdf.y,
    );
  pdf.moveDown(0.8);
}

function columnXs(pdf: Pdf, columns: Column[]) {
  const total = columns.reduce((sum, c) => sum + c.width, 0);
  let x = MARGIN;
  return columns.map((c) => {
    const w = (c.width / total) * contentWidth(pdf);
    const out = { x, w };
    x += w;
    return out;
  });
}

/** The text cut with an ellipsis to fit `width` (most cells fit as they are). */
function fitText(pdf: Pdf, text: string, width: number): string {
  if (pdf.widthOfString(text) <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pdf.widthOfString(`${text.slice(0, mid)}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}…`;
}

const RIGHT = new Set(['km', 'integer', 'speed', 'duration', 'coordinate', 'money']);

function drawRow(
  pdf: Pdf,
  xs: { x: number; w: number }[],
  columns: Column[],
  texts: string[],
  style: 'head' | 'body' | 'total',
  shade: boolean,
) {
  const y = pdf.y;
  const w = contentWidth(pdf);
  if (style === 'head') pdf.rect(MARGIN, y, w, HEAD_HEIGHT).fill(BLUE);
  else if (style === 'total') pdf.rect(MARGIN, y, w, ROW_HEIGHT).fill('#dde3ea');
  else if (shade) pdf.rect(MARGIN, y, w, ROW_HEIGHT).fill('#f3f6f9');
  pdf
    .font(style === 'body' ? 'regular' : 'bold')
    .fontSize(7.5)
    .fillColor(style === 'head' ? '#ffffff' : INK);
  texts.forEach((text, i) => {
    const box = xs[i];
    if (!box) return;
    const right = RIGHT.has(columns[i]?.kind ?? 'text');
    if (style === 'head') {
      // Headers may take two lines.
      pdf.text(text, box.x + 3, y + 3.5, {
        width: box.w - 6,
        height: HEAD_HEIGHT - 3,
        lineGap: -1,
        ellipsis: true,
        align: right ? 'right' : 'left',
      });
      return;
    }
    // Cells: one line, measured and cut here, then written without pdfkit's line wrapper
    // (which made a 5,000-row table take a minute).
    const fitted = fitText(pdf, text, box.w - 6);
    const x = right ? box.x + box.w - 3 - pdf.widthOfString(fitted) : box.x + 3;
    pdf.text(fitted, x, y + 3.5, { lineBreak: false });
  });
  pdf.y = y + (style === 'head' ? HEAD_HEIGHT : ROW_HEIGHT);
  pdf.x = MARGIN;
}

async function writeTable(pdf: Pdf, table: Table) {
  const xs = columnXs(pdf, table.columns);
  const head = table.columns.map((c) => c.header);
  if (pdf.y + ROW_HEIGHT * 4 > bottom(pdf)) pdf.addPage();
  pdf.font('bold').fontSize(11).fillColor(INK).text(table.title, MARGIN, pdf.y);
  pdf.moveDown(0.2);
  drawRow(pdf, xs, table.columns, head, 'head', false);
  let count = 0;
  let cut = false;
  for await (const row of rowsOf(table.rows)) {
    if (count >= PDF_MAX_ROWS) {
      cut = true;
      count += 1;
      continue;
    }
    if (pdf.y + ROW_HEIGHT > bottom(pdf)) {
      pdf.addPage();
      pdf.y = MARGIN + 16;
      drawRow(pdf, xs, table.columns, head, 'head', false);
    }
    const texts = row.map((cell, i) => formatCell(cell, table.columns[i]?.kind ?? 'text'));
    drawRow(pdf, xs, table.columns, texts, 'body', count % 2 === 1);
    count += 1;
  }
  if (count === 0) {
    pdf
      .font('regular')
      .fontSize(9)
      .fillColor(MUTED)
      .text(table.empty ?? 'Nada no período.', MARGIN, pdf.y + 4);
    pdf.moveDown(0.5);
  }
  if (table.totals) {
    if (pdf.y + ROW_HEIGHT > bottom(pdf)) pdf.addPage();
    const texts = table.totals.map((cell, i) =>
      cell === null ? '' : formatCell(cell, table.columns[i]?.kind ?? 'text'),
    );
    drawRow(pdf, xs, table.columns, texts, 'total', false);
  }
  if (cut)
    pdf
      .font('regular')
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        `Mostrando as primeiras ${PDF_MAX_ROWS.toLocaleString('pt-BR')} de ${count.toLocaleString('pt-BR')} linhas: baixe em Excel para ver todas.`,
        MARGIN,
        pdf.y + 4,
      );
  pdf.moveDown(1);
  return count;
}

/** The running head of pages after the first, and 'Página i de N' at the foot of every page. */
function writePageMarks(pdf: Pdf, doc: ReportDocument) {
  const range = pdf.bufferedPageRange();
  const total = range.count;
  for (let i = range.start; i < range.start + total; i += 1) {
    pdf.switchToPage(i);
    const margins = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    const foot = pdf.page.height - MARGIN + 4;
    pdf
      .font('regular')
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(`Rastro — gerado em ${formatInstant(doc.generatedAt)}`, MARGIN, foot, {
        lineBreak: false,
      });
    pdf.text(`Página ${i + 1} de ${total}`, MARGIN, foot, {
      width: contentWidth(pdf),
      align: 'right',
      lineBreak: false,
    });
    if (i > range.start) {
      pdf.text(
        `${doc.title} — ${doc.subjects.join(', ')} — ${periodText(doc.beginAt, doc.endAt)}`,
        MARGIN,
        MARGIN - 14,
        { width: contentWidth(pdf), lineBreak: false, ellipsis: true },
      );
    }
    pdf.page.margins.bottom = margins;
  }
}

/** Writes the document to `filename` as PDF; answers the number of table rows. */
export async function writePdf(doc: ReportDocument, filename: string): Promise<number> {
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    font: FONT,
    info: {
      Title: doc.title,
      Author: 'Rastro',
      Subject: `${doc.subjects.join(', ')} — ${periodText(doc.beginAt, doc.endAt)}`,
      CreationDate: doc.generatedAt,
    },
  });
  pdf.registerFont('regular', FONT);
  pdf.registerFont('bold', FONT_BOLD);
  const out = createWriteStream(filename);
  pdf.pipe(out);
  writeHeader(pdf, doc);
  writeSummary(pdf, doc);
  for (const route of doc.routes) drawRoute(pdf, route);
  let rows = 0;
  for (const table of doc.tables) rows += await writeTable(pdf, table);
  writePageMarks(pdf, doc);
  pdf.end();
  await finished(out);
  return rows;
}
