/**
 * Files attached to service records and documents through the real API: PDFs and photos read
 * back byte for byte with their type; the type told by the bytes (an SVG or a page named .pdf
 * is refused); the size and count limits; another company can neither list, read, add nor
 * remove them; a removed record's files are not served; uploads and removals are audited.
 */
import { describe, expect, it } from 'vitest';
import type {
  AttachmentList,
  AttachmentUpload,
  AuditPage,
  DocumentRecord,
  ServiceRecord,
} from '../../src/contract';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_RECORD } from '../../src/contract';
import {
  as,
  backends,
  demoClients,
  type ErrorBody,
  jsonOf,
  present,
  type TestServer,
  useServer,
} from './harness';
import { vehicleWithTracker } from './report-fixtures';

const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);
// The first bytes of a JPEG (SOI and an APP0 JFIF marker), then filler.
const jpeg = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
  Buffer.alloc(64, 7),
  Buffer.from([0xff, 0xd9]),
]);
const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
);
const html = Buffer.from('<!doctype html><script>alert(1)</script>%PDF-1.4');

type Caller = Awaited<ReturnType<typeof as>>;

/** Sends files in the multipart field `files`, as the PWA does. */
function upload(s: TestServer, who: Caller, path: string, files: File[]) {
  const form = new FormData();
  for (const file of files) form.append('files', file);
  return s.request(path, { method: 'POST', body: form, token: who.accessToken });
}

async function records(s: TestServer, manager: Caller, north: string) {
  const v = await vehicleWithTracker(s, north);
  const service = await manager.call<ServiceRecord>('POST', '/registros/service-records', {
    clientId: north,
    vehicleId: v.vehicleId,
    date: '2026-11-21',
    items: ['Troca de óleo'],
    workshop: 'Oficina Central',
  });
  expect(service.status, JSON.stringify(service.body)).toBe(201);
  const crlv = await manager.call<DocumentRecord>('POST', '/registros/documents', {
    clientId: north,
    vehicleId: v.vehicleId,
    kind: 'crlv',
    number: '0123456789',
    expiry: '2027-06-30',
  });
  expect(crlv.status, JSON.stringify(crlv.body)).toBe(201);
  return {
    service: `/registros/attachments/service-record/${service.body.id}`,
    serviceId: service.body.id,
    document: `/registros/attachments/document/${crlv.body.id}`,
    documentId: crlv.body.id,
  };
}

describe.each(await backends())('attachments on %s', (backend) => {
  const server = useServer(backend);

  it('stores a PDF and a JPEG on a service record and a document, read back as sent', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const paths = await records(s, manager, north);
    for (const owner of [paths.service, paths.document]) {
      const sent = await upload(s, manager, owner, [
        new File([pdf], 'C:\\Notas\\nota fiscal "março".pdf', { type: 'application/pdf' }),
        new File([jpeg], 'peça.JPG', { type: 'image/jpeg' }),
      ]);
      expect(sent.status).toBe(201);
      const list = await manager.call<AttachmentList>('GET', owner);
      expect(list.status).toBe(200);
      expect(list.body.items.map((a) => [a.name, a.contentType, a.size])).toEqual([
        ['nota fiscal março.pdf', 'application/pdf', pdf.length],
        ['peça.JPG', 'image/jpeg', jpeg.length],
      ]);
      for (const [item, bytes] of [
        [list.body.items[0], pdf],
        [list.body.items[1], jpeg],
      ] as const) {
        const file = present(item, 'attachment');
        const res = await s.request(file.url, { token: manager.accessToken });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(file.contentType);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-disposition')).toContain(
          `filename*=UTF-8''${encodeURIComponent(file.name)}`,
        );
        expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
        expect((await s.request(file.url)).status).toBe(401);
      }
    }
    // An operator attaches too (editing a record is theirs); a visitor sees none of it.
    const operator = await as(s, 'operador.norte@rastro.demo');
    const byOperator = await upload(s, operator, paths.service, [
      new File([pdf], 'orçamento.html', { type: 'text/html' }),
    ]);
    expect(byOperator.status).toBe(201);
    const renamed = await manager.call<AttachmentList>('GET', paths.service);
    // A PDF sent as '.html' is kept as a PDF, and its name says so.
    expect(renamed.body.items.at(-1)?.name).toBe('orçamento.html.pdf');
    // A name that would read backwards ('nota\u202Egpj.exe' shows as 'notaexe.jpg') reads as it is.
    const reversed = await upload(s, manager, paths.document, [
      new File([pdf], 'nota\u202Egpj.exe'),
    ]);
    expect(reversed.status).toBe(201);
    const [sent] = (await jsonOf<AttachmentUpload>(reversed)).items;
    expect(sent?.name).toBe('notagpj.exe.pdf');
    const served = await s.request(present(sent, 'reversed').url, { token: manager.accessToken });
    expect(served.headers.get('content-disposition')).toBe(
      `attachment; filename="notagpj.exe.pdf"; filename*=UTF-8''notagpj.exe.pdf`,
    );
    const visitor = await as(s, 'terceiro@rastro.demo');
    expect((await visitor.call('GET', paths.service)).status).toBe(404);
  });

  it('refuses files by their bytes, their size and their number', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const paths = await records(s, manager, north);

    for (const [bytes, name] of [
      [svg, 'crlv.pdf'],
      [html, 'crlv.pdf'],
      [Buffer.from('GIF89a'), 'foto.jpg'],
    ] as const) {
      const res = await upload(s, manager, paths.document, [
        new File([bytes], name, { type: 'application/pdf' }),
      ]);
      expect(res.status).toBe(400);
      expect((await jsonOf<ErrorBody>(res)).message).toBe(
        `${name}: formato não aceito (use JPEG, PNG, WebP ou PDF)`,
      );
    }
    const four = await upload(
      s,
      manager,
      paths.document,
      [1, 2, 3, 4].map((n) => new File([pdf], `folha-${n}.pdf`)),
    );
    expect(four.status).toBe(400);
    expect((await jsonOf<ErrorBody>(four)).message).toBe('Envie no máximo 3 arquivos por vez');
    const none = await upload(s, manager, paths.document, []);
    expect(none.status).toBe(400);
    expect((await jsonOf<ErrorBody>(none)).message).toBe('Nenhum arquivo enviado no campo files');

    const big = Buffer.concat([pdf, Buffer.alloc(MAX_ATTACHMENT_BYTES + 1 - pdf.length)]);
    const tooBig = await upload(s, manager, paths.document, [new File([big], 'escaneado.pdf')]);
    expect(tooBig.status).toBe(413);
    expect((await jsonOf<ErrorBody>(tooBig)).message).toBe(
      'escaneado.pdf: arquivo maior que 10 MB',
    );
    // A good file beside a bad one: nothing of the upload is kept.
    const mixed = await upload(s, manager, paths.document, [
      new File([pdf], 'bom.pdf'),
      new File([svg], 'ruim.pdf'),
    ]);
    expect(mixed.status).toBe(400);
    expect((await manager.call<AttachmentList>('GET', paths.document)).body.items).toEqual([]);

    for (let i = 0; i < MAX_ATTACHMENTS_PER_RECORD; i += 2) {
      const res = await upload(s, manager, paths.document, [
        new File([pdf], `folha-${i}.pdf`),
        new File([jpeg], `foto-${i}.jpg`),
      ]);
      expect(res.status).toBe(201);
    }
    const eleventh = await upload(s, manager, paths.document, [new File([pdf], 'mais.pdf')]);
    expect(eleventh.status).toBe(400);
    expect((await jsonOf<ErrorBody>(eleventh)).message).toBe(
      `Cada registro pode ter no máximo ${MAX_ATTACHMENTS_PER_RECORD} anexos: remova algum antes de enviar outro`,
    );
    expect((await manager.call<AttachmentList>('GET', paths.document)).body.items).toHaveLength(
      MAX_ATTACHMENTS_PER_RECORD,
    );
  });

  it('keeps another company out, removes with an audit line, and hides a removed record’s', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const paths = await records(s, manager, north);
    await upload(s, manager, paths.service, [new File([pdf], 'nota.pdf')]);
    await upload(s, manager, paths.document, [new File([jpeg], 'crlv.jpg')]);
    const [servicePdf] = (await manager.call<AttachmentList>('GET', paths.service)).body.items;
    const [documentJpeg] = (await manager.call<AttachmentList>('GET', paths.document)).body.items;
    const file = present(servicePdf, 'service record attachment');
    const photo = present(documentJpeg, 'document attachment');

    const intruder = await as(s, 'gestor.sul@rastro.demo');
    for (const owner of [paths.service, paths.document]) {
      const list = await intruder.call<ErrorBody>('GET', owner);
      expect(list.status).toBe(404);
      const sent = await upload(s, intruder, owner, [new File([pdf], 'intruso.pdf')]);
      expect(sent.status).toBe(404);
    }
    for (const item of [file, photo]) {
      const read = await s.request(item.url, { token: intruder.accessToken });
      expect(read.status).toBe(404);
      expect((await intruder.call('DELETE', item.url)).status).toBe(404);
    }
    expect((await manager.call<AttachmentList>('GET', paths.service)).body.items).toHaveLength(1);
    expect((await manager.call<AttachmentList>('GET', paths.document)).body.items).toHaveLength(1);
    // Ids that are not attachments, or not ids.
    const unknown = '/registros/attachments/00000000-0000-4000-8000-000000000000';
    expect((await manager.call('GET', unknown)).status).toBe(404);
    expect((await manager.call('GET', '/registros/attachments/vehicle/x')).status).toBe(400);

    const removed = await manager.call('DELETE', file.url);
    expect(removed.status).toBe(200);
    expect((await s.request(file.url, { token: manager.accessToken })).status).toBe(404);
    expect((await manager.call<AttachmentList>('GET', paths.service)).body.items).toEqual([]);
    expect((await manager.call('DELETE', file.url)).status).toBe(404);

    const audit = await manager.call<AuditPage>(
      'GET',
      `/registros/audit?entity=attachment&entityId=${file.id}`,
    );
    expect(audit.body.events.map((line) => [line.kind, line.summary])).toEqual([
      ['delete', 'nota.pdf'],
      ['create', 'nota.pdf'],
    ]);

    // The document is removed: its file is not served any more, nor can one be added.
    expect((await manager.call('DELETE', `/registros/documents/${paths.documentId}`)).status).toBe(
      200,
    );
    expect((await s.request(photo.url, { token: manager.accessToken })).status).toBe(404);
    expect((await manager.call('GET', paths.document)).status).toBe(404);
    const late = await upload(s, manager, paths.document, [new File([pdf], 'tarde.pdf')]);
    expect(late.status).toBe(404);
  });
});
