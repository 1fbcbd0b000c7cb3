/**
 * The API refuses what the forms refuse, with the same pt-BR message at the same field: a
 * vehicle whose model year is not its manufacture year or the next one, or whose chassis is
 * not a 17-character VIN; and an empty required field ('Nível de acesso', an alert rule's
 * schedule times, an automated report's name) says 'Campo obrigatório' while a wrong
 * non-empty value keeps its own message. Nothing refused is stored.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { vehicles } from '../../server/schema';
import type { AlertRule, AutoReportRule, Vehicle } from '../../src/contract';
import type { UserPage, VehiclePage } from './api-types';
import { as, backends, demoClients, type ErrorBody, useServer } from './harness';
import { vehicleWithTracker } from './report-fixtures';

const MODEL_YEAR = 'Ano do modelo deve ser o de fabricação ou o seguinte';
const CHASSIS = 'Chassi deve ter 17 letras e números (sem I, O e Q)';
const REQUIRED = 'Campo obrigatório';

/** The issue the answer gives for a field (what the form shows beside it). */
const issueAt = (body: ErrorBody, path: string) =>
  body.issues?.find((issue) => issue.path === path)?.message;

describe.each(await backends())('field checks on %s', (backend) => {
  const server = useServer(backend);

  it('refuses a model year outside {year, year + 1} and a chassis that is not a VIN', async () => {
    const { north } = await demoClients(server());
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const count = async () =>
      (await operator.call<VehiclePage>('GET', `/registros/vehicle?clientId=${north}&limit=1`)).body
        .total;
    const before = await count();
    const base = { clientId: north, name: 'Baú 02', plate: 'QAB-1234', type: 'truck' };

    // What QA saved: fabricação 2022, modelo 2015, chassi '123'.
    const bad = await operator.call<ErrorBody>('POST', '/registros/vehicle', {
      ...base,
      year: 2022,
      modelYear: 2015,
      chassis: '123',
    });
    expect(bad.status).toBe(400);
    expect(issueAt(bad.body, 'modelYear')).toBe(MODEL_YEAR);
    expect(issueAt(bad.body, 'chassis')).toBe(CHASSIS);
    for (const [json, path, message] of [
      [{ ...base, year: 2022, modelYear: 2024 }, 'modelYear', MODEL_YEAR],
      [{ ...base, year: 2022, modelYear: 2021 }, 'modelYear', MODEL_YEAR],
      [{ ...base, chassis: '9BWZZZ377VT00425' }, 'chassis', CHASSIS],
      [{ ...base, chassis: '9BWZZZ377VTO04251' }, 'chassis', CHASSIS],
    ] as const) {
      const res = await operator.call<ErrorBody>('POST', '/registros/vehicle', json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(issueAt(res.body, path), JSON.stringify(json)).toBe(message);
    }
    expect(await count()).toBe(before);

    // The same year or the next one, and a real VIN, are taken.
    const made = await operator.call<Vehicle>('POST', '/registros/vehicle', {
      ...base,
      year: 2022,
      modelYear: 2023,
      chassis: '9bwzzz377vt004251',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ year: 2022, modelYear: 2023, chassis: '9BWZZZ377VT004251' });

    // An edit sends both years (as the form does): the same checks, nothing changed.
    const edit = await operator.call<ErrorBody>('PATCH', `/registros/vehicle/${made.body.id}`, {
      year: 2022,
      modelYear: 2015,
      chassis: '123',
    });
    expect(edit.status).toBe(400);
    expect(issueAt(edit.body, 'modelYear')).toBe(MODEL_YEAR);
    expect(issueAt(edit.body, 'chassis')).toBe(CHASSIS);
    const same = await operator.call<Vehicle>('GET', `/registros/vehicle/${made.body.id}`);
    expect(same.body).toMatchObject({ modelYear: 2023, chassis: '9BWZZZ377VT004251' });
    const cleared = await operator.call<Vehicle>('PATCH', `/registros/vehicle/${made.body.id}`, {
      year: 2022,
      modelYear: 2022,
      chassis: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ modelYear: 2022, chassis: null });

    // One year alone (an integration's PATCH) is checked against the other as stored.
    const url = `/registros/vehicle/${made.body.id}`;
    for (const json of [{ modelYear: 2024 }, { year: 2019 }, { year: 2024 }]) {
      const res = await operator.call<ErrorBody>('PATCH', url, json);
      expect([res.status, issueAt(res.body, 'modelYear')], JSON.stringify(json)).toEqual([
        400,
        MODEL_YEAR,
      ]);
    }
    expect((await operator.call<Vehicle>('GET', url)).body).toMatchObject({
      year: 2022,
      modelYear: 2022,
    });
    // The next year alone, or one year cleared, is taken.
    expect((await operator.call<Vehicle>('PATCH', url, { modelYear: 2023 })).body).toMatchObject({
      year: 2022,
      modelYear: 2023,
    });
    expect((await operator.call<Vehicle>('PATCH', url, { year: null })).body).toMatchObject({
      year: null,
      modelYear: 2023,
    });

    // A vehicle stored before the rule (2020 / 2022) can still be renamed or made inactive;
    // a change of one of its years is checked.
    await server()
      .deps.database.db.update(vehicles)
      .set({ year: 2020, modelYear: 2022 })
      .where(eq(vehicles.id, made.body.id));
    const renamed = await operator.call<Vehicle>('PATCH', url, { name: 'Baú 02 (antigo)' });
    expect([renamed.status, renamed.body.name]).toEqual([200, 'Baú 02 (antigo)']);
    const moved = await operator.call<ErrorBody>('PATCH', url, { year: 2019 });
    expect([moved.status, issueAt(moved.body, 'modelYear')]).toEqual([400, MODEL_YEAR]);
  });

  it("says 'Campo obrigatório' for an empty access level, and what is wrong for a wrong one", async () => {
    const { north } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const total = async () =>
      (await admin.call<UserPage>('GET', `/registros/user?clientId=${north}&limit=1`)).body.total;
    const before = await total();
    const base = { name: 'Fulano', email: 'fulano.nivel@teste.com', clientId: north };
    for (const [json, message] of [
      [{ ...base, role: '' }, REQUIRED],
      [{ ...base, role: null }, REQUIRED],
      [base, REQUIRED],
      [{ ...base, role: 'ROOT' }, 'Nível de acesso inválido'],
    ] as const) {
      const res = await admin.call<ErrorBody>('POST', '/registros/user', json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(issueAt(res.body, 'role'), JSON.stringify(json)).toBe(message);
    }
    expect(await total()).toBe(before);
  });

  it("says 'Campo obrigatório' for an alert rule's empty schedule times", async () => {
    const { north } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const rule = (startTime: string, endTime: string) => ({
      clientId: north,
      name: 'Ignição à noite',
      type: 'IGNITION_ON',
      schedule: { weekdays: [1, 2, 3, 4, 5], startTime, endTime },
    });
    const empty = await admin.call<ErrorBody>('POST', '/registros/alert-rules', rule('', ''));
    expect(empty.status).toBe(400);
    expect(issueAt(empty.body, 'schedule.startTime')).toBe(REQUIRED);
    expect(issueAt(empty.body, 'schedule.endTime')).toBe(REQUIRED);
    const wrong = await admin.call<ErrorBody>(
      'POST',
      '/registros/alert-rules',
      rule('7h', '24:00'),
    );
    expect(wrong.status).toBe(400);
    expect(issueAt(wrong.body, 'schedule.startTime')).toBe('Horário inválido: use HH:MM');
    expect(issueAt(wrong.body, 'schedule.endTime')).toBe('Horário inválido: use HH:MM');
    const made = await admin.call<AlertRule>(
      'POST',
      '/registros/alert-rules',
      rule('22:00', '06:00'),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const edit = await admin.call<ErrorBody>('PATCH', `/registros/alert-rules/${made.body.id}`, {
      schedule: { weekdays: [1], startTime: '', endTime: '06:00' },
    });
    expect(edit.status).toBe(400);
    expect(issueAt(edit.body, 'schedule.startTime')).toBe(REQUIRED);
  });

  it("says 'Campo obrigatório' for an automated report's empty name and e-mails", async () => {
    const { admin, vehicleId } = await vehicleWithTracker(server());
    const AUTO = '/registros/crud-reports-processor';
    const report = {
      name: 'Jornadas do dia',
      reportType: 'TRIPS',
      periodicity: 'DAILY',
      vehicleIds: [vehicleId],
      emailDelivery: 'frota@cliente.com.br',
    };
    for (const [json, path] of [
      [{ ...report, name: '' }, 'name'],
      [{ ...report, name: '   ' }, 'name'],
      [{ ...report, emailDelivery: '' }, 'emailDelivery'],
    ] as const) {
      const res = await admin.call<ErrorBody>('POST', AUTO, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(issueAt(res.body, path), JSON.stringify(json)).toBe(REQUIRED);
    }
    const { name: _, ...unnamed } = report;
    const missing = await admin.call<ErrorBody>('POST', AUTO, unnamed);
    expect(issueAt(missing.body, 'name')).toBe(REQUIRED);
    const made = await admin.call<AutoReportRule>('POST', AUTO, report);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const renamed = await admin.call<ErrorBody>('PUT', `${AUTO}/${made.body.id}`, { name: ' ' });
    expect(renamed.status).toBe(400);
    expect(issueAt(renamed.body, 'name')).toBe(REQUIRED);
  });
});
