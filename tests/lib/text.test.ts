import { describe, expect, it } from 'vitest';
import { foldText, matchesSearch, searchable } from '../../src/lib/text';

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
