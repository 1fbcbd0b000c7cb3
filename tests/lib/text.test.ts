import { describe, expect, it } from 'vitest';
import { foldText, matchesSearch, searchable, sortKey } from '../../src/lib/text';

describe('foldText', () => {
  it('drops accents and case so searches match either way', () => {
    expect(foldText('Logística SUL')).toBe('logistica sul');
    expect(foldText('Ação Caminhão ÚNICO')).toBe('acao caminhao unico');
    expect(foldText('logis')).toBe('logis');
  });
});

describe('matchesSearch', () => {
  it('finds a plate however it is typed', () => {
    for (const typed of ['ABC-1D23', 'abc1d23', 'abc-1d', 'ABC 1D23', '1d23'])
      expect(matchesSearch('ABC1D23 Caminhão 07', typed), typed).toBe(true);
    expect(matchesSearch('ABC-1234 Van', 'abc1234')).toBe(true);
  });
  it('needs every word, ignoring accents and case', () => {
    expect(matchesSearch('Logística Sul RST1D01', 'logistica rst1d01')).toBe(true);
    expect(matchesSearch('Logística Sul RST1D01', 'norte')).toBe(false);
    expect(matchesSearch(searchable('Transportes Norte'), '  ')).toBe(true);
  });
});

describe('sortKey', () => {
  const collator = new Intl.Collator('pt-BR', { numeric: true });
  const byKey = (a: string, b: string) => {
    const x = sortKey(a);
    const y = sortKey(b);
    if (x !== null && y !== null && x !== y) return x < y ? -1 : 1;
    return collator.compare(a, b);
  };

  it('orders plates and names as the pt-BR collator does', () => {
    const names = [
      'BEN0010',
      'ben0002',
      'BEN2',
      'ABC1D23',
      'Caminhão 10',
      'caminhao 9',
      'Caminhão 9',
      'Van 1',
      'Van',
      'van 01',
      'Ônibus 3',
      'onibus 20',
      'Moto 7',
      'Moto 7 ',
      'Moto-7',
      'Z9',
      'z10',
      '10 caminhões',
      '9 vans',
      'Ação Sul',
      'acao sul',
      'Acácia',
    ];
    expect([...names].sort(byKey)).toEqual([...names].sort(collator.compare));
    // A random mix of letters, digits, spaces, accents and dashes.
    const alphabet = 'aAbZz0129 íÇãE-';
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const random = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + Math.floor(next() * 7) }, () =>
        alphabet.charAt(Math.floor(next() * alphabet.length)),
      ).join(''),
    );
    expect([...random].sort(byKey)).toEqual([...random].sort(collator.compare));
  });

  it('leaves names with other characters to the collator', () => {
    expect(sortKey('ABC-1D23')).toBeNull();
    expect(sortKey(`N${'9'.repeat(21)}`)).toBeNull();
    expect(sortKey('BEN0007')).toBe(`ben${'7'.padStart(20, '0')}`);
  });
});
