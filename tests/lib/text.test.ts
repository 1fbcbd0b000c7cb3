import { describe, expect, it } from 'vitest';
import { foldText } from '../../src/lib/text';

describe('foldText', () => {
  it('drops accents and case so searches match either way', () => {
    expect(foldText('Logística SUL')).toBe('logistica sul');
    expect(foldText('Ação Caminhão ÚNICO')).toBe('acao caminhao unico');
    expect(foldText('logis')).toBe('logis');
  });
});
