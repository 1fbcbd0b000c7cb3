/**
 * The demo's one attachment: the workshop's invoice, a small PDF, on Transportes Norte's
 * service record of the 100 000 km review, so that a newcomer opening it sees the 'Anexos'
 * panel with a file. Made here (a few hundred bytes), not shipped as a file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../platform/db/client';
import { attachToWorkshopRecord } from '../upkeep/queries/attachments';

const REVIEW_WORKSHOP = 'Mecânica Boa Viagem';
export const DEMO_ATTACHMENT_NAME = 'nota-fiscal-revisao-100-mil-km.pdf';

/** A one-page PDF saying `lines` (Latin-1 text), with a correct cross-reference table. */
export function simplePdf(lines: string[]): Buffer {
  const quoted = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines
    .map(
      (line, i) => `BT /F1 ${i === 0 ? 16 : 11} Tf 56 ${780 - i * 22} Td (${quoted(line)}) Tj ET`,
    )
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, object] of objects.entries()) {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Attaches the invoice to the review's service record, if the demo fleet made it. */
export async function seedDemoAttachments(db: Db, uploadDir: string): Promise<void> {
  const pdf = simplePdf([
    'Mecânica Boa Viagem - Nota de serviço (demonstração)',
    'Revisão dos 100 mil km: R$ 1.980,00',
    'Troca de pastilhas de freio: R$ 500,00',
    'Total: R$ 2.480,00',
  ]);
  const added = await attachToWorkshopRecord(db, REVIEW_WORKSHOP, {
    name: DEMO_ATTACHMENT_NAME,
    contentType: 'application/pdf',
    size: pdf.length,
  });
  if (!added) return;
  const dir = path.join(uploadDir, 'attachments', added.ownerId);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, added.id), pdf);
}
