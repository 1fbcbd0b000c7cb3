/**
 * What the forms check before sending (the same schemas the server uses): a vehicle's model
 * year is its manufacture year or the next one and its chassis a 17-character VIN; an empty
 * required field says 'Campo obrigatório' everywhere (access level, a rule's schedule times,
 * an automated report's name and e-mails), a wrong non-empty value its own message.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  AlertRuleCreateSchema,
  AutoReportRuleInputSchema,
  UserCreateSchema,
  VehicleCreateSchema,
  VehicleUpdateSchema,
} from '../../src/contract';

const CLIENT = '7d0c6f8e-4b7a-4c1e-9d2a-0b6f1e2c3d4a';

/** The first message at a field (what the form shows beside it), or undefined. */
function issueAt(schema: v.GenericSchema, input: unknown, path: string) {
  const result = v.safeParse(schema, input);
  return result.issues?.find((issue) => v.getDotPath(issue) === path)?.message;
}

const vehicle = (extra: Record<string, unknown>) => ({
  clientId: CLIENT,
  name: 'Baú 01',
  plate: 'ABC-1234',
  type: 'truck',
  ...extra,
});

describe('the vehicle form', () => {
  it('takes a model year equal to the manufacture year or the next one', () => {
    for (const [year, modelYear] of [
      [2022, 2022],
      [2022, 2023],
      [2022, undefined],
      [undefined, 2015],
    ])
      expect(v.safeParse(VehicleCreateSchema, vehicle({ year, modelYear })).success).toBe(true);
  });

  it('refuses a model year before the manufacture year or two after it, at the model year', () => {
    const message = 'Ano do modelo deve ser o de fabricação ou o seguinte';
    expect(
      issueAt(VehicleCreateSchema, vehicle({ year: 2022, modelYear: 2015 }), 'modelYear'),
    ).toBe(message);
    expect(
      issueAt(VehicleCreateSchema, vehicle({ year: 2022, modelYear: 2024 }), 'modelYear'),
    ).toBe(message);
    // An edit sends both years: the same check.
    expect(issueAt(VehicleUpdateSchema, { year: 2022, modelYear: 2021 }, 'modelYear')).toBe(
      message,
    );
    expect(v.safeParse(VehicleUpdateSchema, { year: 2022, modelYear: null }).success).toBe(true);
  });

  it('takes a 17-character VIN without I, O or Q, in capitals; none is no chassis', () => {
    const ok = v.safeParse(VehicleCreateSchema, vehicle({ chassis: ' 9bwzzz377vt004251 ' }));
    expect(ok.success && ok.output.chassis).toBe('9BWZZZ377VT004251');
    expect(v.safeParse(VehicleCreateSchema, vehicle({ chassis: '' })).success).toBe(true);
    expect(v.safeParse(VehicleUpdateSchema, { chassis: null }).success).toBe(true);
  });

  it('refuses a chassis that is not one, at the chassis', () => {
    const message = 'Chassi deve ter 17 letras e números (sem I, O e Q)';
    for (const chassis of ['123', '9BWZZZ377VT00425', '9BWZZZ377VT0042511', '9BWZZZ377VTO04251'])
      expect(issueAt(VehicleCreateSchema, vehicle({ chassis }), 'chassis'), chassis).toBe(message);
    expect(issueAt(VehicleUpdateSchema, { chassis: '9BW-ZZZ377VT0042' }, 'chassis')).toBe(message);
  });
});

describe('an empty required field says so; a wrong one says what is wrong', () => {
  it('the access level of a user', () => {
    const user = { name: 'Fulano', email: 'fulano@teste.com', clientId: CLIENT };
    // The users form sends `role: undefined` when none is chosen.
    for (const role of [undefined, null, ''])
      expect(issueAt(UserCreateSchema, { ...user, role }, 'role'), String(role)).toBe(
        'Campo obrigatório',
      );
    expect(issueAt(UserCreateSchema, user, 'role')).toBe('Campo obrigatório');
    expect(issueAt(UserCreateSchema, { ...user, role: 'ROOT' }, 'role')).toBe(
      'Nível de acesso inválido',
    );
  });

  it("the times of an alert rule's schedule", () => {
    const rule = (startTime: string, endTime: string) => ({
      clientId: CLIENT,
      name: 'Noite',
      type: 'IGNITION_ON',
      schedule: { weekdays: [1, 2], startTime, endTime },
    });
    expect(issueAt(AlertRuleCreateSchema, rule('', ' '), 'schedule.startTime')).toBe(
      'Campo obrigatório',
    );
    expect(issueAt(AlertRuleCreateSchema, rule('', ' '), 'schedule.endTime')).toBe(
      'Campo obrigatório',
    );
    expect(issueAt(AlertRuleCreateSchema, rule('25:00', '6h'), 'schedule.startTime')).toBe(
      'Horário inválido: use HH:MM',
    );
    expect(issueAt(AlertRuleCreateSchema, rule('25:00', '6h'), 'schedule.endTime')).toBe(
      'Horário inválido: use HH:MM',
    );
    expect(v.safeParse(AlertRuleCreateSchema, rule('22:00', '06:00')).success).toBe(true);
  });

  it("an automated report's name and e-mails", () => {
    const report = (extra: Record<string, unknown>) => ({
      name: 'Jornadas',
      reportType: 'TRIPS',
      periodicity: 'DAILY',
      emailDelivery: 'frota@cliente.com.br',
      ...extra,
    });
    for (const name of ['', '   '])
      expect(issueAt(AutoReportRuleInputSchema, report({ name }), 'name')).toBe(
        'Campo obrigatório',
      );
    expect(issueAt(AutoReportRuleInputSchema, { ...report({}), name: undefined }, 'name')).toBe(
      'Campo obrigatório',
    );
    expect(issueAt(AutoReportRuleInputSchema, report({ emailDelivery: '' }), 'emailDelivery')).toBe(
      'Campo obrigatório',
    );
    expect(
      issueAt(
        AutoReportRuleInputSchema,
        report({ emailDelivery: 'frota, x@y.com' }),
        'emailDelivery',
      ),
    ).toBe('E-mails inválidos: frota');
    expect(v.safeParse(AutoReportRuleInputSchema, report({})).success).toBe(true);
  });
});
