/**
 * A fuel card's file, line by line: date (dd/mm/aaaa hh:mm, São Paulo time), vehicle plate,
 * driver (CPF or name), litres, price per litre, odometer (km), station, full tank (sim/não).
 * Cells are separated by ';' or ',' (whichever the first line uses), may be quoted, and
 * numbers may be written the Brazilian way ("1.234,56"). A first line that names the columns
 * is skipped. Each line either parses or says, in pt-BR, why not.
 */
import { dayStart } from './report-period';

export const CSV_MAX_BYTES = 512 * 1024;
export const CSV_MAX_LINES = 5000;

export interface CsvRefuel {
  /** 1-based line number in the file. */
  line: number;
  at: Date;
  plate: string;
  driver: string;
  liters: number;
  /** R$ per litre, in thousandths of a real. */
  priceMilli: number;
  odometerKm: number;
  station: string;
  fullTank: boolean;
}
export interface CsvLineError {
  line: number;
  message: string;
}

/** The cells of one line: quotes keep separators in, "" is a quote. */
export function splitCsvLine(line: string, sep: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/** "45,30", "1.234,56", "45.3", "R$ 5,89": a number, or undefined. */
export function parseBrNumber(text: string): number | undefined {
  let t = text.replace(/^R\$\s*/i, '').replace(/\s/g, '');
  if (t === '') return undefined;
  if (t.includes(',')) t = t.replace(/\./g, '').replace(',', '.');
  else if (/^\d{1,3}(\.\d{3})+$/.test(t)) t = t.replace(/\./g, '');
  if (!/^-?\d+(\.\d+)?$/.test(t)) return undefined;
  return Number(t);
}

/** 'dd/mm/aaaa hh:mm' (seconds optional) in São Paulo time, or undefined. */
export function parseBrDateTime(text: string): Date | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [, dd, mm, yyyy, hh = '00', mi = '00', ss = '00'] = m;
  const day = `${yyyy}-${mm}-${dd}`;
  const check = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== day) return undefined;
  if (Number(hh) > 23 || Number(mi) > 59 || Number(ss) > 59) return undefined;
  return new Date(
    dayStart(day).getTime() + (Number(hh) * 3600 + Number(mi) * 60 + Number(ss)) * 1000,
  );
}

const YES = new Set(['sim', 's', 'yes', 'y', '1', 'true', 'x']);
const NO = new Set(['não', 'nao', 'n', 'no', '0', 'false', '']);

const looksLikeHeader = (cells: string[]) =>
  !parseBrDateTime(cells[0] ?? '') && /[a-z]/i.test(cells[0] ?? '');

/** One line's refuel, or why it is refused. */
function parseLine(cells: string[], line: number, now: Date): CsvRefuel | string {
  if (cells.length < 8)
    return `Esperadas 8 colunas (data; placa; motorista; litros; preço; hodômetro; posto; tanque cheio), há ${cells.length}`;
  const [
    dateText = '',
    plate = '',
    driver = '',
    l = '',
    p = '',
    odo = '',
    station = '',
    full = '',
  ] = cells;
  const at = parseBrDateTime(dateText);
  if (!at) return `Data inválida "${dateText}": use dd/mm/aaaa hh:mm`;
  if (at.getTime() > now.getTime() + 5 * 60_000) return 'Data no futuro';
  const cleanPlate = plate.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (!/^[A-Z]{3}\d[A-Z0-9]\d{2}$/.test(cleanPlate)) return `Placa inválida "${plate}"`;
  const liters = parseBrNumber(l);
  if (liters === undefined || liters <= 0 || liters > 5000)
    return `Litros inválidos "${l}": informe um número maior que zero`;
  const price = parseBrNumber(p);
  if (price === undefined || price <= 0 || price > 100) return `Preço por litro inválido "${p}"`;
  const odometerKm = parseBrNumber(odo);
  if (odometerKm === undefined || odometerKm < 0 || odometerKm > 10_000_000)
    return `Hodômetro inválido "${odo}": informe os km, zero ou mais`;
  const fullText = full.toLowerCase();
  if (!YES.has(fullText) && !NO.has(fullText))
    return `Tanque cheio inválido "${full}": use sim ou não`;
  return {
    line,
    at,
    plate: cleanPlate,
    driver: driver.slice(0, 120),
    liters,
    priceMilli: Math.round(price * 1000),
    odometerKm,
    station: station.slice(0, 120),
    fullTank: YES.has(fullText),
  };
}

/**
 * The refuels of a file and the lines refused. `now` bounds the dates (none in the future).
 * Blank lines are skipped; a file over CSV_MAX_LINES lines is refused as a whole.
 */
export function parseFuelCsv(
  text: string,
  now: Date,
): { rows: CsvRefuel[]; errors: CsvLineError[]; tooLong?: boolean } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
  if (lines.length > CSV_MAX_LINES + 1) return { rows: [], errors: [], tooLong: true };
  const first = lines[0] ?? '';
  const sep = first.includes(';') ? ';' : ',';
  const rows: CsvRefuel[] = [];
  const errors: CsvLineError[] = [];
  lines.forEach((raw, index) => {
    if (raw.trim() === '') return;
    const cells = splitCsvLine(raw, sep);
    if (index === 0 && looksLikeHeader(cells)) return;
    const row = parseLine(cells, index + 1, now);
    if (typeof row === 'string') errors.push({ line: index + 1, message: row });
    else rows.push(row);
  });
  return { rows, errors };
}
