/**
 * Report files opened back: the XLSX read with exceljs (header, rows, typed cells in São Paulo
 * time, number formats, frozen header, totals), the PDF's text extracted with pdf.js (plate,
 * period, totals, 'Página 1 de N'), the KML parsed (a LineString with every fix of the route,
 * the stops as placemarks); the exact SPEC §9 name in Content-Disposition of every download
 * call; e-mail delivery through a real local SMTP server (202 and no file, the attachment, a
 * link above the size limit, a failure shown in the reports list with its reason).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Driver, ReportRequest } from '../../src/contract';
import { dayStart } from '../../src/lib/report-period';
import type { FileQueued, ReportRequestPage } from './api-types';
import { as, backends, type ErrorBody, jsonOf, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';
import { parseKml, pdfPages, readXlsx } from './report-readers';
import { startSmtp } from './smtp';
import { Track } from './tracks';

const RFID = 'F1E5C0DE01';
const sp = (day: string, hh: number, mm = 0) =>
  new Date(dayStart(day).getTime() + (hh * 60 + mm) * 60_000);

/** 10/03/2026 in São Paulo: 45 min at 50 km/h, a 30-minute stop, 30 min at 40 km/h. */
function oneDay() {
  const track = new Track(sp('2026-03-10', 5));
  track.park((sp('2026-03-10', 8).getTime() - track.now) / 1000, { every: 300, ignition: false });
  track.drive(2700, 50, 90, { every: 30, ignition: true, driverRfid: RFID });
  track.park(1800, { every: 60, ignition: false });
  track.drive(1800, 40, 270, { every: 30, ignition: true, driverRfid: RFID });
  track.park((sp('2026-03-10', 23).getTime() - track.now) / 1000, { every: 300, ignition: false });
  return track;
}

/** A duration cell's seconds (exceljs reads time-formatted numbers as dates from 1899-12-30). */
const seconds = (value: unknown) =>
  value instanceof Date
    ? Math.round((value.getTime() - Date.UTC(1899, 11, 30)) / 1000)
    : Math.round(Number(value) * 86_400);

const query = (params: Record<string, string>) =>
  new URLSearchParams({
    beginAt: sp('2026-03-10', 0).toISOString(),
    endAt: sp('2026-03-11', 0).toISOString(),
    ...params,
  }).toString();

describe.each(await backends())('report files on %s', (backend) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());
  const server = useServer(backend, () => ({
    SMTP_URL: smtp.url,
    REPORT_MAIL_MAX_BYTES: '30000',
  }));
  let setup: Promise<Awaited<ReturnType<typeof vehicleWithTracker>>> | undefined;
  const vehicle = () => {
    setup ??= (async () => {
      const v = await vehicleWithTracker(server());
      await ingest(server().deps, v.identifier, oneDay().fixes);
      return v;
    })();
    return setup;
  };
  const get = async (path: string) => {
    const v = await vehicle();
    return server().request(path, { token: v.admin.accessToken });
  };

  it('writes the trips XLSX with typed cells, a frozen header, filters and totals', async () => {
    const v = await vehicle();
    const res = await get(
      `/registros/reports/download/trips/${v.vehicleId}?${query({ format: 'excel' })}`,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="jornadas_relatorio.xlsx"',
    );
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const bytes = await res.arrayBuffer();
    expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
    const book = await readXlsx(bytes);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Resumo', 'Viagens', 'Paradas']);
    const trips = book.getWorksheet('Viagens');
    if (!trips) throw new Error('no Viagens sheet');
    expect(String(trips.getCell('A1').value)).toBe('Relatório de jornadas — Viagens');
    expect(String(trips.getCell('A3').value)).toBe(`Veículo: ${v.plate} — Relatório ${v.plate}`);
    expect(String(trips.getCell('A4').value)).toBe('Período: 10/03/2026 00:00 a 10/03/2026 23:59');
    const header = trips.getRow(7).values as unknown[];
    expect(header.slice(1, 6)).toEqual(['Início', 'Fim', 'Origem', 'Destino', 'Distância (km)']);
    expect(trips.views[0]).toMatchObject({ state: 'frozen', ySplit: 7 });
    expect(trips.autoFilter).toBeTruthy();
    // Two trips: 08:00 local time is held as 08:00 (a spreadsheet has no time zone).
    const first = trips.getRow(8);
    expect(first.getCell(1).value).toEqual(new Date('2026-03-10T08:00:00Z'));
    expect(first.getCell(1).numFmt).toBe('dd/mm/yyyy hh:mm:ss');
    expect(first.getCell(5).value).toBeCloseTo(37.5, 0);
    expect(first.getCell(5).numFmt).toBe('#,##0.0');
    // A duration is a number of days formatted [h]:mm:ss (exceljs reads it back as a time).
    expect(first.getCell(6).numFmt).toBe('[h]:mm:ss');
    expect(seconds(first.getCell(6).value)).toBe(2760);
    expect(first.getCell(9).value).toBe(RFID);
    expect(trips.getRow(9).getCell(5).value).toBeCloseTo(20, 0);
    const totals = trips.getRow(10);
    expect(totals.getCell(1).value).toBe('Total: 2 viagens');
    expect(totals.getCell(5).value).toBeCloseTo(57.5, 0);
    expect(totals.font?.bold).toBe(true);
    const stops = book.getWorksheet('Paradas');
    expect(seconds(stops?.getRow(8).getCell(4).value)).toBeGreaterThan(1700);
  });

  it('writes the trips PDF with the header, the totals and the page count', async () => {
    const v = await vehicle();
    const res = await get(
      `/registros/reports/download/trips/${v.vehicleId}?${query({ format: 'pdf' })}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="jornadas_relatorio.pdf"',
    );
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pages = await pdfPages(await res.arrayBuffer());
    const text = pages.join('\n');
    expect(pages[0]).toContain('Relatório de jornadas');
    expect(pages[0]).toContain(v.plate);
    expect(pages[0]).toContain('Cliente: Rastro Demonstração');
    expect(pages[0]).toContain('Período: 10/03/2026 00:00 a 10/03/2026 23:59');
    expect(pages[0]).toContain(`Página 1 de ${pages.length}`);
    expect(text).toContain('Total: 2 viagens');
    expect(text).toMatch(/57,\d/);
    expect(text).toContain('Trajeto');
    expect(text).toContain('Início');
  });

  it('writes the history KML: the route as a LineString, the stops as placemarks', async () => {
    const v = await vehicle();
    const res = await get(
      `/registros/reports/download/history/${v.vehicleId}?${query({ format: 'kml' })}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="historico_relatorio.kml"',
    );
    const kml = parseKml(await res.text());
    const track = oneDay();
    const inDay = track.fixes.filter((f) => f.fixTime >= sp('2026-03-10', 0));
    expect(kml.coordinates).toHaveLength(inDay.length);
    expect(kml.coordinates[0]?.[0]).toBeCloseTo(inDay[0]?.longitude ?? 0, 5);
    expect(kml.coordinates[0]?.[1]).toBeCloseTo(inDay[0]?.latitude ?? 0, 5);
    expect(kml.points.length).toBeGreaterThanOrEqual(1);
    expect(kml.points[0]?.name).toBe('Parada 1');
    expect(kml.points.some((p) => p.description.includes('de 10/03/2026 08:4'))).toBe(true);
  });

  it('names every download as SPEC §9 says', async () => {
    const v = await vehicle();
    const one = (kind: string, format: string) =>
      `/registros/reports/download/${kind}/${v.vehicleId}?${query({ format })}`;
    const many = (kind: string, format: string) =>
      `/registros/reports/v2/download/${kind}?${query({ format, vehicleIds: v.vehicleId })}`;
    const cases: [string, string][] = [
      [one('positions', 'excel'), 'posicoes_relatorio.xlsx'],
      [one('positions', 'pdf'), 'posicoes_relatorio.pdf'],
      [one('trips', 'excel'), 'jornadas_relatorio.xlsx'],
      [one('history', 'excel'), 'historico_relatorio.xlsx'],
      [one('history', 'pdf'), 'historico_relatorio.pdf'],
      [one('history', 'kml'), 'historico_relatorio.kml'],
      [one('distance', 'excel'), 'distancia_relatorio.xlsx'],
      [one('distance', 'pdf'), 'distancia_relatorio.pdf'],
      [many('distance', 'excel'), 'distancia_relatorio.xlsx'],
      [many('trips', 'pdf'), 'jornadas_relatorio.pdf'],
      [
        `/registros/reports/v2/download/trips?${query({ format: 'excel', vehicleIds: `${v.vehicleId},${(await vehicleWithTracker(server())).vehicleId}` })}`,
        'jornadas_veiculos_relatorio.xlsx',
      ],
      [many('positions', 'excel'), 'posicoes_relatorio.xlsx'],
      [many('history', 'kml'), 'historico_relatorio.kml'],
      [
        `/registros/reports/v2/geofence/download?${query({ format: 'excel', vehicleIds: v.vehicleId })}`,
        'relatorio_de_cercas_geograficas.xlsx',
      ],
    ];
    for (const [path, name] of cases) {
      const res = await get(path);
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
      expect(res.headers.get('content-disposition'), path).toBe(`attachment; filename="${name}"`);
      await res.arrayBuffer();
    }
    const admin = await as(server(), 'admin@rastro.demo');
    const driver = await admin.call<Driver>('POST', '/registros/driver', {
      clientId: admin.user.clientId,
      completName: 'João da Conceição',
      cpf: '52998224725',
      rfidCode: RFID,
    });
    expect(driver.status, JSON.stringify(driver.body)).toBe(201);
    for (const [format, name] of [
      ['excel', 'relatorio_de_motoristas.xlsx'],
      ['pdf', 'relatorio_de_motorista.pdf'],
    ]) {
      const res = await get(
        `/registros/reports/v2/download/drivers?${query({ format: format ?? '', driverIds: driver.body.id })}`,
      );
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      if (format === 'pdf') {
        const text = (await pdfPages(await res.arrayBuffer())).join(' ');
        expect(text).toContain('João da Conceição');
        expect(text, text).toContain('Total: 2 viagens');
      }
    }
  });

  it('refuses bad input with a pt-BR message and writes nothing', async () => {
    const v = await vehicle();
    const kml = await get(
      `/registros/reports/download/trips/${v.vehicleId}?${query({ format: 'kml' })}`,
    );
    expect(kml.status).toBe(400);
    expect((await jsonOf<ErrorBody>(kml)).message).toContain('Use pdf ou excel');
    const emails = await get(
      `/registros/reports/download/trips/${v.vehicleId}?${query({ deliveryMethod: 'email', emails: 'ana@rastro.demo, nao-e-email' })}`,
    );
    expect(emails.status).toBe(400);
    expect((await jsonOf<ErrorBody>(emails)).message).toContain('E-mails inválidos: nao-e-email');
    const long = await get(
      `/registros/reports/download/positions/${v.vehicleId}?beginAt=2026-01-01T03:00:00.000Z&endAt=2026-03-01T03:00:00.000Z`,
    );
    expect(long.status).toBe(400);
    expect((await jsonOf<ErrorBody>(long)).message).toContain('31 dias');
    const other = await get(
      `/registros/reports/download/trips/00000000-0000-4000-8000-000000000000?${query({})}`,
    );
    expect(other.status).toBe(404);
  });

  it('e-mails the file attached: 202 at once, no file in the answer', async () => {
    const v = await vehicle();
    const before = smtp.inbox.length;
    const res = await get(
      `/registros/reports/download/trips/${v.vehicleId}?${query({ format: 'excel', deliveryMethod: 'email', emails: 'ana@cliente.com.br, beto@cliente.com.br' })}`,
    );
    expect(res.status).toBe(202);
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await jsonOf<FileQueued>(res);
    expect(body.message).toBe(
      'Relatório em preparação: será enviado por e-mail para ana@cliente.com.br, beto@cliente.com.br.',
    );
    await server().deps.reportFiles.idle();
    const mail = smtp.inbox.slice(before).find((m) => m.to.includes('ana@cliente.com.br'));
    expect(mail?.to).toEqual(['ana@cliente.com.br', 'beto@cliente.com.br']);
    expect(mail?.raw).toMatch(/filename="?jornadas_relatorio\.xlsx"?/);
    expect(mail?.raw).toContain(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const list = await v.admin.call<ReportRequestPage>(
      'GET',
      '/registros/reports?sort=createdAt&order=desc',
    );
    const record = list.body.reports.find((r) => r.id === body.id);
    expect(record).toMatchObject({ status: 'done', format: 'excel', deliveryMethod: 'email' });
  });

  it('sends a time-limited link instead of a file above the size limit', async () => {
    const v = await vehicle();
    const before = smtp.inbox.length;
    const res = await get(
      `/registros/reports/download/positions/${v.vehicleId}?${query({ format: 'pdf', deliveryMethod: 'email' })}`,
    );
    expect(res.status).toBe(202);
    await server().deps.reportFiles.idle();
    const mail = smtp.inbox.slice(before)[0];
    // No address given: the signed-in user's.
    expect(mail?.to).toEqual(['admin@rastro.demo']);
    const text = (mail?.raw ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /\/registros\/report-files\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(token, text.slice(0, 2000)).toBeTruthy();
    expect(text).not.toMatch(/filename="?posicoes_relatorio\.pdf"?\r?\n/);
    const file = await server().request(`/registros/report-files/${token}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(
      'attachment; filename="posicoes_relatorio.pdf"',
    );
    const pages = await pdfPages(await file.arrayBuffer());
    expect(pages[0]).toContain('Relatório de posições');
    const wrong = await server().request(
      '/registros/report-files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
    expect(wrong.status).toBe(404);
  });

  it('shows a failed delivery in the reports list with the reason', async () => {
    const v = await vehicle();
    await smtp.close();
    const res = await get(
      `/registros/reports/download/distance/${v.vehicleId}?${query({ format: 'pdf', deliveryMethod: 'email' })}`,
    );
    expect(res.status).toBe(202);
    const { id } = await jsonOf<FileQueued>(res);
    await server().deps.reportFiles.idle();
    const one = await v.admin.call<ReportRequest>('GET', `/registros/reports/${id}`);
    expect(one.body.status).toBe('failed');
    expect(one.body.error).toMatch(/^Falha ao enviar o e-mail: /);
    smtp = await startSmtp();
  });
});
