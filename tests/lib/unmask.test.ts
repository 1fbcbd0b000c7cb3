import { describe, expect, it } from 'vitest';
import { unmask, unmaskDocument, unmaskPhone, unmaskPlate } from '../../src/lib/unmask';

describe('unmask', () => {
  it('removes every non-word character', () => {
    expect(unmask('123.456.789-09')).toBe('12345678909');
    expect(unmask('12.345.678/0001-95')).toBe('12345678000195');
    expect(unmask(null)).toBe('');
  });

  it('upper-cases plates and alphanumeric CNPJs', () => {
    expect(unmaskPlate('abc-1d23')).toBe('ABC1D23');
    expect(unmaskDocument('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });

  it('keeps only the digits of a phone', () => {
    expect(unmaskPhone('+55 (81) 99876-5432')).toBe('5581998765432');
  });
});
