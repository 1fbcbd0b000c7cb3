/**
 * Automated reports with a controlled clock (the scheduler's `tick(now)`): the rules' wire
 * shape and checks; a WEEKLY rule sends Monday to Sunday in São Paulo time, the trips across
 * its midnights counted where they start; a missed Monday is caught up; an SMTP failure is
 * retried with back-off and recorded on the rule; a DAILY rule is sent once per day by two
 * servers (each with its own connections) ticking at once on one PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import { runsOf } from '../../server/reports/queries/report-files';
import { prepare } from '../../server/start';
import type { AutoReportRule } from '../../src/contract';
import { dayStart } from '../../src/lib/report-period';
import type { AutoReportRulePage } from './api-types';
import { as, backends, type ErrorBody, postgresAvailable, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';
import { type ReceivedMail, startSmtp } from './smtp';
import { Track } from './tracks';

const sp = (day: string, hh: number, mm = 0) =>
  new Date(dayStart(day).getTime() + (hh * 60 + mm) * 60_000);
const AUTO = '/registros/crud-reports-processor';

/** The attachment of a message, decoded. */
function attachment(mail: ReceivedMail | undefined): Buffer {
  const match =
    /Content-Disposition: attachment;[^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n(?:[^\r\n]+\r\n)*\r\n([A-Za-z0-9+/=\r\n]+)/.exec(
      mail?.raw ?? '',
    );
  return Buffer.from((match?.[1] ?? '').replace(/\s/g, ''), 'base64');
}

async function tripStarts(mail: ReceivedMail | undefined): Promise<Date[]> {
  const book = new ExcelJS.Workbook();
  const bytes = attachment(mail);
  await book.xlsx.load(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  );
  const sheet = book.getWorksheet('Viagens');
  const starts: Date[] = [];
  sheet?.eachRow((row, n) => {
    const value = row.getCell(1).value;
    if (n > 7 && value instanceof Date) starts.push(value);
  });
  return starts;
}

/** Three short trips: before the week, at its first minutes, across its last midnight. */
function aroundTheWeek() {
  const track = new Track(sp('2026-11-08', 22));
  const until = (at: Date) =>
    track.park((at.getTime() - track.now) / 1000, { every: 300, ignition: false });
  until(sp('2026-11-08', 23, 30));
  track.drive(600, 40, 90, { every: 30, ignition: true });
  until(sp('2026-11-09', 0, 5));
  track.drive(600, 40, 90, { every: 30, ignition: true });
  until(sp('2026-11-15', 23, 50));
  track.drive(1200, 40, 270, { every: 30, ignition: true });
  until(sp('2026-11-16', 2));
  return track;
}

describe.each(await backends())('automated reports on %s', (backend) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());
  const server = useServer(backend, () => ({ SMTP_URL: smtp.url }));

  const backdate = (id: string, at: Date) =>
    server().deps.database.db.execute(
      sql`update auto_report_rules set created_at = ${at.toISOString()}::timestamptz where id = ${id}`,
    );

  it('keeps the wire shape, its defaults and its checks', async () => {
    const v = await vehicleWithTracker(server());
    const made = await v.admin.call<AutoReportRule>('POST', AUTO, {
      name: 'Jornadas da semana',
      reportType: 'TRIPS',
      periodicity: 'WEEKLY',
      vehicleIds: [v.vehicleId],
      emailDelivery: 'frota@cliente.com.br, dono@cliente.com.br',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(Object.keys(made.body).sort()).toEqual(
      [
        'id',
        'clientId',
        'name',
        'reportType',
        'format',
        'periodicity',
        'vehicleIds',
        'driverIds',
        'emailDelivery',
        'sendHour',
        'weekday',
        'monthDay',
        'active',
        'lastRun',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(made.body).toMatchObject({
      clientId: v.admin.user.clientId,
      format: 'excel',
      sendHour: 7,
      weekday: 1,
      monthDay: 1,
      active: true,
      lastRun: null,
      driverIds: [],
    });
    const bad = await v.admin.call<ErrorBody>('POST', AUTO, {
      name: 'X',
      reportType: 'TRIPS',
      periodicity: 'DAILY',
      vehicleIds: [v.vehicleId],
      emailDelivery: 'ok@cliente.com.br, errado',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('E-mails inválidos: errado');
    const hour = await v.admin.call<ErrorBody>('PUT', `${AUTO}/${made.body.id}`, { sendHour: 24 });
    expect(hour.status).toBe(400);
    expect(hour.body.message).toContain('Hora de 0 a 23');
    const off = await v.admin.call('PUT', `${AUTO}/${made.body.id}`, { active: false });
    expect(off.body).toMatchObject({ active: false, name: 'Jornadas da semana' });
    const list = await v.admin.call<AutoReportRulePage>('GET', `${AUTO}?sort=name&order=asc`);
    expect(list.body.rules.map((r) => r.id)).toContain(made.body.id);
    const gone = await v.admin.call('DELETE', `${AUTO}/${made.body.id}`);
    expect(gone.status).toBe(200);
    expect((await v.admin.call('GET', `${AUTO}/${made.body.id}`)).status).toBe(404);
  });

  it('shows a Terceiro no automated report, nor its vehicles and recipients', async () => {
    const v = await vehicleWithTracker(server());
    const made = await v.admin.call<AutoReportRule>('POST', AUTO, {
      name: 'Distâncias do mês',
      reportType: 'DISTANCE',
      periodicity: 'MONTHLY',
      vehicleIds: [v.vehicleId],
      emailDelivery: 'diretoria@cliente.com.br',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const visitor = await as(server(), 'terceiro@rastro.demo');
    const list = await visitor.call<AutoReportRulePage>('GET', AUTO);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ rules: [], total: 0 });
    const one = await visitor.call<ErrorBody>('GET', `${AUTO}/${made.body.id}`);
    expect(one.status).toBe(404);
    expect(JSON.stringify(one.body)).not.toContain('diretoria@cliente.com.br');
    // The company's manager still reads it.
    expect((await v.admin.call('GET', `${AUTO}/${made.body.id}`)).status).toBe(200);
  });

  it('sends a WEEKLY rule Monday to Sunday in São Paulo time, and catches up a missed Monday', async () => {
    const v = await vehicleWithTracker(server());
    await ingest(server().deps, v.identifier, aroundTheWeek().fixes);
    const rule = await v.admin.call<AutoReportRule>('POST', AUTO, {
      name: 'Semanal',
      reportType: 'TRIPS',
      periodicity: 'WEEKLY',
      vehicleIds: [v.vehicleId],
      emailDelivery: 'semanal@cliente.com.br',
    });
    await backdate(rule.body.id, sp('2026-11-10', 12));
    const { autoReports } = server().deps;
    // Sunday night and Monday 06:59: nothing due yet.
    expect((await autoReports.tick(sp('2026-11-15', 23))).sent).toBe(0);
    expect((await autoReports.tick(sp('2026-11-16', 6, 59))).sent).toBe(0);
    const before = smtp.inbox.length;
    expect(await autoReports.tick(sp('2026-11-16', 7))).toMatchObject({ planned: 1, sent: 1 });
    expect((await autoReports.tick(sp('2026-11-16', 7, 5))).sent).toBe(0);
    const mail = smtp.inbox.slice(before).find((m) => m.to.includes('semanal@cliente.com.br'));
    expect((mail?.raw ?? '').replace(/=\r?\n/g, '')).toContain(
      'Per=C3=ADodo: 09/11/2026 00:00 a 15/11/2026 23:59',
    );
    // The week's trips: from Monday 00:05 and from Sunday 23:50 (ending after midnight); not
    // the one of the Sunday before.
    expect(await tripStarts(mail)).toEqual([
      new Date('2026-11-09T00:05:00Z'),
      new Date('2026-11-15T23:50:00Z'),
    ]);
    const [run] = await runsOf(server().deps.database.db, rule.body.id);
    expect(run?.periodStart).toEqual(dayStart('2026-11-09'));
    expect(run?.periodEnd).toEqual(dayStart('2026-11-16'));
    const shown = await v.admin.call<AutoReportRule>('GET', `${AUTO}/${rule.body.id}`);
    expect(shown.body.lastRun).toMatchObject({ status: 'sent', error: null });

    // Down from Sunday to Tuesday: Monday the 23rd is sent when the server comes back.
    const late = await autoReports.tick(sp('2026-11-24', 10));
    expect(late).toMatchObject({ planned: 1, sent: 1 });
    const runs = await runsOf(server().deps.database.db, rule.body.id);
    expect(runs.map((r) => r.periodStart)).toEqual([
      dayStart('2026-11-09'),
      dayStart('2026-11-16'),
    ]);
    expect(runs.every((r) => r.status === 'sent')).toBe(true);
  });

  it('retries an SMTP failure with back-off and records it on the rule', async () => {
    const v = await vehicleWithTracker(server());
    const rule = await v.admin.call<AutoReportRule>('POST', AUTO, {
      name: 'Diário',
      reportType: 'DISTANCE',
      format: 'pdf',
      periodicity: 'DAILY',
      sendHour: 6,
      vehicleIds: [v.vehicleId],
      emailDelivery: 'diario@cliente.com.br',
    });
    await backdate(rule.body.id, sp('2026-11-02', 12));
    const { autoReports } = server().deps;
    const port = smtp.port;
    await smtp.close();
    const at = sp('2026-11-03', 6);
    expect(await autoReports.tick(at)).toMatchObject({ planned: 1, retry: 1, sent: 0 });
    const failed = await v.admin.call<AutoReportRule>('GET', `${AUTO}/${rule.body.id}`);
    expect(failed.body.lastRun?.status).toBe('failed');
    expect(failed.body.lastRun?.error).toMatch(/^Falha ao enviar o e-mail: /);
    smtp = await startSmtp(port);
    // Not before its back-off (one minute after the first failure)…
    expect((await autoReports.tick(new Date(at.getTime() + 30_000))).sent).toBe(0);
    // …then sent, once.
    expect((await autoReports.tick(new Date(at.getTime() + 61_000))).sent).toBe(1);
    expect(smtp.inbox.filter((m) => m.to.includes('diario@cliente.com.br'))).toHaveLength(1);
    const sent = await v.admin.call<AutoReportRule>('GET', `${AUTO}/${rule.body.id}`);
    expect(sent.body.lastRun).toMatchObject({ status: 'sent', error: null });
    const [run] = await runsOf(server().deps.database.db, rule.body.id);
    expect(run).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it("answers 'Enviar agora' with the last complete period", async () => {
    const v = await vehicleWithTracker(server());
    const rule = await v.admin.call<AutoReportRule>('POST', AUTO, {
      name: 'Agora',
      reportType: 'light_final_report',
      periodicity: 'DAILY',
      vehicleIds: [v.vehicleId],
      emailDelivery: 'agora@cliente.com.br',
    });
    const res = await v.admin.call<AutoReportRule>('POST', `${AUTO}/${rule.body.id}/send`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.lastRun?.status).toBe('sent');
    expect(smtp.inbox.some((m) => m.to.includes('agora@cliente.com.br'))).toBe(true);
  });
});

describe.runIf(await postgresAvailable())('a DAILY rule with two servers on one PostgreSQL', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());
  const server = useServer('postgres', () => ({ SMTP_URL: smtp.url }));

  it('is sent once per day', async () => {
    const a = server();
    // A second server: its own configuration, pool of connections and scheduler.
    const b = await prepare(a.config, createLogger('silent'));
    try {
      const admin = await as(a, 'admin@rastro.demo');
      const v = await vehicleWithTracker(a);
      const rule = await admin.call<AutoReportRule>('POST', AUTO, {
        name: 'Diário, dois servidores',
        reportType: 'TRIPS',
        periodicity: 'DAILY',
        vehicleIds: [v.vehicleId],
        emailDelivery: 'dois@cliente.com.br',
      });
      await a.deps.database.db.execute(
        sql`update auto_report_rules set created_at = ${sp('2026-11-01', 12).toISOString()}::timestamptz where id = ${rule.body.id}`,
      );
      for (const day of ['2026-11-02', '2026-11-03']) {
        const now = sp(day, 7, 1);
        const results = await Promise.all([
          a.deps.autoReports.tick(now),
          b.autoReports.tick(now),
          a.deps.autoReports.tick(now),
          b.autoReports.tick(now),
        ]);
        expect(
          results.reduce((sum, r) => sum + r.sent, 0),
          day,
        ).toBe(1);
      }
      expect(smtp.inbox.filter((m) => m.to.includes('dois@cliente.com.br'))).toHaveLength(2);
      const runs = rowsOf<{ n: number }>(
        await a.deps.database.db.execute(
          sql`select count(*)::int as n from auto_report_runs where rule_id = ${rule.body.id}`,
        ),
      );
      expect(Number(runs[0]?.n)).toBe(2);
    } finally {
      await b.database.close();
    }
  });
});
