import { describe, expect, it } from 'vitest';
import { isEmail, validateEmailList } from '../../src/lib/emails';

describe('validateEmailList', () => {
  it('accepts an empty or blank list', () => {
    expect(validateEmailList('')).toEqual({ valid: true, emails: [], invalid: [] });
    expect(validateEmailList('   ').valid).toBe(true);
    expect(validateEmailList(undefined).valid).toBe(true);
  });

  it('refuses a list made only of separators', () => {
    expect(validateEmailList(',').valid).toBe(false);
    expect(validateEmailList(' , ,, ').valid).toBe(false);
  });

  it('trims each item and accepts valid e-mails', () => {
    const result = validateEmailList(' ana@frota.com.br ,joao@rastro.demo');
    expect(result).toEqual({
      valid: true,
      emails: ['ana@frota.com.br', 'joao@rastro.demo'],
      invalid: [],
    });
  });

  it('returns the invalid items', () => {
    const result = validateEmailList('ana@frota.com.br, joao@, maria');
    expect(result.valid).toBe(false);
    expect(result.invalid).toEqual(['joao@', 'maria']);
  });

  it('refuses an empty item between valid ones', () => {
    expect(validateEmailList('ana@frota.com.br,,joao@rastro.demo').valid).toBe(false);
  });

  it('tells single e-mails apart', () => {
    expect(isEmail('a@b.co')).toBe(true);
    expect(isEmail('a b@c.com')).toBe(false);
    expect(isEmail('a@b')).toBe(false);
  });
});
