/**
 * The alert rule as the form checks it before sending (the same schema the server uses): a
 * rule with no type chosen says the field is missing, not that the type is wrong.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AlertRuleCreateSchema } from '../../src/contract';

const CLIENT = '7d0c6f8e-4b7a-4c1e-9d2a-0b6f1e2c3d4a';
const typeIssue = (type: unknown) => {
  const result = v.safeParse(AlertRuleCreateSchema, { clientId: CLIENT, name: 'Regra', type });
  return result.issues?.find((issue) => v.getDotPath(issue) === 'type')?.message;
};

describe('the alert rule type', () => {
  it('is missing when none is chosen (the form sends it undefined)', () => {
    expect(typeIssue(undefined)).toBe('Campo obrigatório');
  });
  it('is wrong when it is not one of the types', () => {
    expect(typeIssue('TELEPORT')).toBe('Tipo de alerta inválido');
    expect(typeIssue('IGNITION_ON')).toBeUndefined();
  });
});
