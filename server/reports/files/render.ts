/**
 * Writes a report document to a file of the asked format in a folder (the system's temporary
 * folder by default) and answers where it is, its size, its name for the user (SPEC §9) and
 * its type. Files are written to disk, not memory: the download then sends them with their
 * length (the PWA shows bytes received of the total), the e-mail attaches them as a stream.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeKml } from './kml';
import { type FileFormat, REPORT_EXTENSION, REPORT_MIME, type ReportDocument } from './model';
import { writePdf } from './pdf';
import { writeXlsx } from './xlsx';

export interface ReportFile {
  path: string;
  name: string;
  mime: string;
  size: number;
  rows: number;
  remove(): Promise<void>;
}

export async function renderReport(
  doc: ReportDocument,
  format: FileFormat,
  dir = path.join(tmpdir(), 'rastro-reports'),
): Promise<ReportFile> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${randomUUID()}.${REPORT_EXTENSION[format]}`);
  try {
    const rows =
      format === 'excel'
        ? await writeXlsx(doc, file)
        : format === 'pdf'
          ? await writePdf(doc, file)
          : await writeKml(doc, file);
    const { size } = await stat(file);
    return {
      path: file,
      name: `${doc.fileBase}.${REPORT_EXTENSION[format]}`,
      mime: REPORT_MIME[format],
      size,
      rows,
      remove: () => rm(file, { force: true }),
    };
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
}
