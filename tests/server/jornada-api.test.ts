/**
 * The working day through the real API: a mark sent twice is stored once (same answer), marks
 * from the future or older than 7 days are refused in pt-BR and change nothing, another
 * company sees none of it, a correction lands in the audit log, the company's rules change,
 * and a day worked out of the driver's tag read by a tracker plus the marks.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Fix } from '../../server/ingest/queries/positions';
import { storedAlerts } from '../../server/reports/alerts';
import { documentFor } from '../../server/reports/files/documents';
import { rowsOf } from '../../server/reports/files/model';
import type {
  AuditPage,
  Correction,
  Driver,
  JornadaReport,
  JornadaSettings,
  Mark,
} from '../../src/contract';
import { dayStart, nextDay, reportDay } from '../../src/lib/report-period';
import {
  as,
  backends,
  cpfSequence,
  demoClients,
  type ErrorBody,
  type TestServer,
  useServer,
} from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';
import { reportText } from './report-readers';

const MIN = 60_000;

/** A valid CPF, a new one each call (the server is shared by the tests of a file). */
const nextCpf = cpfSequence(310_000_000);

async function driverOf(s: TestServer, clientId: string, rfidCode?: string) {
  const manager = await as(s, 'gestor.norte@rastro.demo');
  const driver = await manager.call<Driver>('POST', '/registros/driver', {
    clientId,
    completName: 'Márcio Jornada',
    cpf: nextCpf(),
    ...(rfidCode ? { rfidCode } : {}),
  });
  expect(driver.status, JSON.stringify(driver.body)).toBe(201);
  return { manager, driverId: driver.body.id };
}

describe.each(await backends())('jornada API on %s', (backend) => {
  const server = useServer(backend);

  it('stores a mark once, refuses bad times in pt-BR, and hides it from others', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const { manager, driverId } = await driverOf(s, north);
    const path = `/registros/jornada/drivers/${driverId}/marks`;
    const body = {
      id: randomUUID(),
      kind: 'journey_start',
      at: new Date(Date.now() - 30 * MIN).toISOString(),
    };
    const first = await manager.call<Mark>('POST', path, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      id: body.id,
      driverId,
      kind: 'journey_start',
      source: 'gestor',
    });
    const again = await manager.call<Mark>('POST', path, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const bad = async (json: object, message: string) => {
      const res = await manager.call<ErrorBody>('POST', path, {
        id: randomUUID(),
        kind: 'meal_start',
        ...json,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    };
    await bad({ at: new Date(Date.now() + 10 * MIN).toISOString() }, 'no futuro');
    await bad({ at: new Date(Date.now() - 8 * 86_400_000).toISOString() }, 'mais de 7 dias');
    await bad({ at: 'ontem' }, 'Data inválida');
    await bad({ kind: 'almoço', at: new Date().toISOString() }, 'Tipo de marcação inválido');
    const day = reportDay(new Date());
    const list = await manager.call<{ items: Mark[] }>('GET', `${path}?from=${day}&to=${day}`);
    expect(list.body.items.map((m) => m.id)).toEqual(
      reportDay(Date.parse(body.at)) === day ? [body.id] : [],
    );

    // The same id for another driver is refused.
    const other = await driverOf(s, north);
    expect(
      (await manager.call('POST', `/registros/jornada/drivers/${other.driverId}/marks`, body))
        .status,
    ).toBe(409);

    const south = await as(s, 'gestor.sul@rastro.demo');
    const mark = { id: randomUUID(), kind: 'journey_end', at: new Date().toISOString() };
    expect((await south.call('POST', path, mark)).status).toBe(404);
    expect((await south.call('GET', `${path}?from=${day}&to=${day}`)).status).toBe(404);
    expect(
      (await south.call('GET', `/registros/jornada/drivers/${driverId}/days?from=${day}&to=${day}`))
        .status,
    ).toBe(404);
    expect((await south.call('GET', `/registros/jornada/settings?clientId=${north}`)).status).toBe(
      404,
    );
  });

  it('keeps corrections in the audit log and changes the company’s rules', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const { manager, driverId } = await driverOf(s, north);
    const path = `/registros/jornada/drivers/${driverId}/corrections`;
    const start = new Date(Date.now() - 3 * 3600_000).toISOString();
    const end = new Date(Date.now() - 2 * 3600_000).toISOString();
    const operator = await as(s, 'operador.norte@rastro.demo');
    expect(
      (await operator.call('POST', path, { kind: 'meal', start, end, reason: 'Almoço' })).status,
    ).toBe(403);
    const backwards = await manager.call<ErrorBody>('POST', path, {
      kind: 'meal',
      start: end,
      end: start,
      reason: 'Almoço',
    });
    expect(backwards.status).toBe(400);
    const noReason = await manager.call<ErrorBody>('POST', path, {
      kind: 'meal',
      start,
      end,
      reason: ' ',
    });
    expect(noReason.body.message).toContain('motivo');
    const made = await manager.call<Correction>('POST', path, {
      kind: 'meal',
      start,
      end,
      reason: 'Almoço não marcado no aparelho',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const day = reportDay(new Date());
    const from = reportDay(Date.now() - 86_400_000);
    const list = await manager.call<{ items: Correction[] }>(
      'GET',
      `${path}?from=${from}&to=${day}`,
    );
    expect(list.body.items.map((c) => c.id)).toEqual([made.body.id]);
    const audit = await manager.call<AuditPage>(
      'GET',
      `/registros/audit?entity=jornada_correction&clientId=${north}`,
    );
    expect(audit.body.events.map((a) => a.entityId)).toContain(made.body.id);

    const settings = '/registros/jornada/settings';
    const initial = await manager.call<JornadaSettings>('GET', `${settings}?clientId=${north}`);
    expect(initial.body).toEqual({ clientId: north, regime: 'cargo', overtimeLimitMinutes: 120 });
    const changed = await manager.call<JornadaSettings>('PUT', settings, {
      clientId: north,
      regime: 'passageiros',
      overtimeLimitMinutes: 240,
    });
    expect(changed.body).toEqual({
      clientId: north,
      regime: 'passageiros',
      overtimeLimitMinutes: 240,
    });
    const wrong = await manager.call<ErrorBody>('PUT', settings, {
      clientId: north,
      overtimeLimitMinutes: 180,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('acordo coletivo');
    const south = await as(s, 'gestor.sul@rastro.demo');
    expect((await south.call('PUT', settings, { clientId: north, regime: 'cargo' })).status).toBe(
      404,
    );
  });

  it('works out a day from the driver’s tag in a tracker and the marks', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const { manager, driverId } = await driverOf(s, north, 'A0B0C001');
    // The law's default (another test of this server changes the company's rules).
    await manager.call('PUT', '/registros/jornada/settings', {
      clientId: north,
      regime: 'cargo',
      overtimeLimitMinutes: 120,
    });
    const v = await vehicleWithTracker(s, north);
    // Two days ago (São Paulo): standing at 07:00, driving 08:00–13:40 with the tag read.
    const day = reportDay(Date.now() - 2 * 86_400_000);
    const t0 = dayStart(day).getTime() + 7 * 3600_000;
    const fixes: Fix[] = [];
    let lon = -46.6;
    for (let t = t0; t <= t0 + 7 * 3600_000; t += MIN) {
      const moving = t > t0 + 60 * MIN && t < t0 + 400 * MIN;
      if (moving) lon += 0.01;
      fixes.push({
        fixTime: new Date(t),
        latitude: -23.5,
        longitude: lon,
        speed: moving ? 60 : 0,
        ignition: moving,
        driverRfid: moving ? 'A0B0C001' : undefined,
        attributes: {},
      });
    }
    await ingest(s.deps, v.identifier, fixes);
    const marks = `/registros/jornada/drivers/${driverId}/marks`;
    for (const [kind, minutes] of [
      ['journey_start', 30],
      ['journey_end', 450],
    ] as const)
      expect(
        (
          await manager.call('POST', marks, {
            id: randomUUID(),
            kind,
            at: new Date(t0 + minutes * MIN).toISOString(),
          })
        ).status,
      ).toBe(201);
    const res = await manager.call<JornadaReport>(
      'GET',
      `/registros/jornada/drivers/${driverId}/days?from=${day}&to=${day}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = res.body.days[0];
    expect(result?.totals).toMatchObject({ driving: 340, worked: 420, overtime: 0 });
    expect(
      result?.violations.map((x) => [x.rule, x.minutes]),
      JSON.stringify(result),
    ).toEqual([
      ['meal_break', 60],
      ['continuous_driving', 10],
    ]);
    expect(result?.periods.find((p) => p.kind === 'driving')?.vehicleId).toBe(v.vehicleId);

    // The same day as files: the PDF and the spreadsheet of the report and of the espelho.
    for (const [format, type, magic] of [
      ['pdf', 'application/pdf', '%PDF'],
      ['excel', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'PK'],
    ] as const)
      for (const kind of ['jornada', 'espelho']) {
        const file = await s.request(
          `/registros/jornada/drivers/${driverId}/file?from=${day}&to=${day}&format=${format}&kind=${kind}`,
          { method: 'GET', token: manager.accessToken },
        );
        expect(file.status).toBe(200);
        expect(file.headers.get('content-type')).toBe(type);
        const buffer = await file.arrayBuffer();
        expect(Buffer.from(buffer).subarray(0, magic.length).toString()).toBe(magic);
        // The report lists each period with where it comes from and the vehicle; the monthly
        // espelho keeps to the days' totals.
        const text = await reportText(buffer, format);
        if (kind === 'jornada') {
          expect(text).toContain('Períodos');
          expect(text).toContain('pelo rastreador (RFID)');
          expect(text).toContain('marcado pelo gestor');
          expect(text).toContain(v.plate);
        } else expect(text).not.toContain('pelo rastreador (RFID)');
      }
    const wrong = await manager.call<ErrorBody>(
      'GET',
      `/registros/jornada/drivers/${driverId}/file?from=${day}&to=${day}&format=doc`,
    );
    expect(wrong.status).toBe(400);

    // The same day in an automated report of the company's drivers.
    const rule = await manager.call('POST', '/registros/crud-reports-processor', {
      clientId: north,
      name: 'Jornadas da semana',
      reportType: 'JORNADA',
      periodicity: 'WEEKLY',
      driverIds: [driverId],
      emailDelivery: 'gestor@rastro.demo',
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const doc = await documentFor(
      'JORNADA',
      {
        db: s.deps.database.db,
        alerts: storedAlerts,
        customer: 'Transportes Norte',
        beginAt: dayStart(day),
        endAt: dayStart(nextDay(day)),
        generatedAt: new Date(),
      },
      {
        vehicles: [],
        drivers: [
          {
            id: driverId,
            clientId: north,
            completName: 'Márcio Jornada',
            rfidCode: 'A0B0C001',
            licenseExpiry: null,
          },
        ],
        clientIds: [north],
      },
      'pdf',
    );
    const rows = [];
    for await (const row of rowsOf(doc.tables[0]?.rows ?? [])) rows.push(row);
    // Name, days with a journey, worked, driving, overtime, waiting, night (s), violations.
    expect(rows).toEqual([['Márcio Jornada', 1, 420 * 60, 340 * 60, 0, 0, 0, 2]]);
    const broken = [];
    for await (const row of rowsOf(doc.tables[1]?.rows ?? [])) broken.push(row[2]);
    expect(broken).toEqual([
      'Intervalo de refeição menor que 1 h',
      'Direção contínua acima de 5 h 30',
    ]);
    const visitor = await as(s, 'terceiro@rastro.demo');
    const asked = await visitor.call('POST', '/registros/reports', {
      reportType: 'JORNADA',
      driverIds: [driverId],
      beginAt: dayStart(day).toISOString(),
      endAt: dayStart(nextDay(day)).toISOString(),
    });
    expect(asked.status).toBe(403);
  });
});
