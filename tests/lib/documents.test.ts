import { describe, expect, it } from 'vitest';
import { cpfFromBase, isValidCnpj, isValidCpf, isValidPlate } from '../../src/lib/documents';

describe('isValidCpf', () => {
  it('accepts valid CPFs, masked or not', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('11144477735')).toBe(true);
  });
  it('refuses wrong check digits, repeated digits and wrong lengths', () => {
    expect(isValidCpf('529.982.247-24')).toBe(false);
    expect(isValidCpf('111.111.111-11')).toBe(false);
    expect(isValidCpf('1234567890')).toBe(false);
    expect(isValidCpf('')).toBe(false);
  });
});

describe('cpfFromBase', () => {
  it('adds the two check digits to nine digits', () => {
    expect(cpfFromBase('529982247')).toBe('52998224725');
    expect(cpfFromBase('111444777')).toBe('11144477735');
    for (const base of ['314159000', '271828131', '420007919'])
      expect(isValidCpf(cpfFromBase(base))).toBe(true);
  });
});

describe('isValidCnpj', () => {
  it('accepts valid numeric CNPJs', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('45997418000153')).toBe(true);
  });
  it('accepts the alphanumeric CNPJ', () => {
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('12abc34501de35')).toBe(true);
  });
  it('refuses wrong check digits and malformed input', () => {
    expect(isValidCnpj('11.222.333/0001-82')).toBe(false);
    expect(isValidCnpj('12.ABC.345/01DE-36')).toBe(false);
    expect(isValidCnpj('12.ABC.345/01DE-3A')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
    expect(isValidCnpj('123')).toBe(false);
  });
});

describe('isValidPlate', () => {
  it('accepts old and Mercosul plates', () => {
    expect(isValidPlate('ABC-1234')).toBe(true);
    expect(isValidPlate('abc1d23')).toBe(true);
  });
  it('refuses other shapes', () => {
    expect(isValidPlate('AB1234')).toBe(false);
    expect(isValidPlate('ABCD123')).toBe(false);
  });
});
