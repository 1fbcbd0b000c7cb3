/**
 * Opens report files back, as a user's tools would: XLSX with exceljs' reader, PDF text with
 * pdf.js (Mozilla's reader), KML with a real XML parser (happy-dom's DOMParser).
 */
import ExcelJS from 'exceljs';
import { Window } from 'happy-dom';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function readXlsx(bytes: ArrayBuffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes);
  return workbook;
}

/** All the text of a downloaded report, to look for words in: a PDF's pages or an XLSX's cells. */
export async function reportText(bytes: ArrayBuffer, format: 'pdf' | 'excel'): Promise<string> {
  if (format === 'pdf') return (await pdfPages(bytes)).join('\n');
  const workbook = await readXlsx(bytes);
  return JSON.stringify(workbook.worksheets.flatMap((sheet) => sheet.getSheetValues()));
}

/** The text of each page, items joined by spaces. */
export async function pdfPages(bytes: ArrayBuffer): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i += 1) {
    const page = await pdf.getPage(i);
    const content = await page.getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await pdf.destroy();
  return pages;
}

export function parseKml(text: string) {
  const window = new Window();
  const xml = new window.DOMParser().parseFromString(text, 'application/xml');
  const placemarks = [...xml.getElementsByTagName('Placemark')];
  const line = placemarks.find((p) => p.getElementsByTagName('LineString').length > 0);
  const coordinates = (line?.getElementsByTagName('coordinates')[0]?.textContent ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => pair.split(',').map(Number) as [number, number]);
  const points = placemarks
    .filter((p) => p.getElementsByTagName('Point').length > 0)
    .map((p) => ({
      name: p.getElementsByTagName('name')[0]?.textContent ?? '',
      description: p.getElementsByTagName('description')[0]?.textContent ?? '',
    }));
  return { coordinates, points, placemarks: placemarks.length };
}
