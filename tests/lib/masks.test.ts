import { describe, expect, it } from 'vitest';
import { maskCep, maskCnpj, maskCpf, maskPhone, maskPlate } from '../../src/lib/masks';

describe('masks', () => {
  it('formats CPF progressively', () => {
    expect(maskCpf('529')).toBe('529');
    expect(maskCpf('5299822')).toBe('529.982.2');
    expect(maskCpf('52998224725999')).toBe('529.982.247-25');
  });
  it('formats numeric and alphanumeric CNPJ', () => {
    expect(maskCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(maskCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(maskCnpj('12ABC34501DEXY')).toBe('12.ABC.345/01DE');
  });
  it('formats landlines and mobiles', () => {
    expect(maskPhone('8132221111')).toBe('(81) 3222-1111');
    expect(maskPhone('81998765432')).toBe('(81) 99876-5432');
  });
  it('formats CEP and plates', () => {
    expect(maskCep('01001000')).toBe('01001-000');
    expect(maskPlate('abc1234')).toBe('ABC-1234');
    expect(maskPlate('abc1d23')).toBe('ABC1D23');
  });
});
