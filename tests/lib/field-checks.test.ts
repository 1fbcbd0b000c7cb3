import { describe, expect, it } from 'vitest';
import { TemporaryLinkCreateSchema } from '../../src/contract';
import { emailCheck, emailListCheck, fieldCheck, filledCheck } from '../../src/ui/field-checks';

describe('field checks of the browser-validated forms', () => {
  it('says a missing value as every form does', () => {
    expect(emailCheck('')).toBe('Campo obrigatório');
    expect(emailCheck('   ')).toBe('Campo obrigatório');
    expect(filledCheck(' ')).toBe('Campo obrigatório');
    expect(filledCheck('Cliente X')).toBeNull();
  });

  it('checks one e-mail', () => {
    expect(emailCheck('ana@')).toBe('E-mail inválido');
    expect(emailCheck(' ana@rastro.demo ')).toBeNull();
  });

  it('takes a comma-separated list and names its wrong items', () => {
    expect(emailListCheck('')).toBeNull();
    expect(emailListCheck('a@x.com, b@y.com.br')).toBeNull();
    expect(emailListCheck('a@x.com, b@')).toBe('E-mails inválidos: b@');
    expect(emailListCheck(' , ')).toBe('Informe e-mails separados por vírgula');
  });

  it("checks a field by the API's own rule for it (a temporary link's name)", () => {
    const nameCheck = fieldCheck(TemporaryLinkCreateSchema.entries.name);
    expect(nameCheck('  ')).toBe('Campo obrigatório');
    expect(nameCheck('x'.repeat(81))).toBe('Deve ter no máximo 80 caracteres');
    expect(nameCheck(` ${'x'.repeat(80)} `)).toBeNull();
  });
});
