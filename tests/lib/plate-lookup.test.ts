/** SPEC §3: the plate lookup's result maps every field the provider answers (SPEC §7). */
import { describe, expect, it } from 'vitest';
import { plateLookupResult } from '../../src/contract';

describe('plateLookupResult', () => {
  it('maps all eight fields, the plate unformatted and the owner by name', () => {
    expect(
      plateLookupResult({
        ano_fabricacao_veiculo: 2019,
        ano_modelo: '2020',
        chassi_veiculo: '9BWZZZ377VT004251',
        cor_veiculo: 'Prata',
        renavam: '00123456789',
        marca_modelo: 'VW/GOL 1.0',
        placa_veiculo: 'pcx-9j78',
        nome_completo: ' Maria da Silva ',
      }),
    ).toEqual({
      year: '2019',
      modelYear: '2020',
      chassis: '9BWZZZ377VT004251',
      color: 'Prata',
      renavam: '00123456789',
      brandModel: 'VW/GOL 1.0',
      plate: 'PCX9J78',
      ownerName: 'Maria da Silva',
    });
  });

  it('gives empty text for what the provider left out', () => {
    expect(plateLookupResult({ placa_veiculo: null, ano_modelo: null })).toEqual({
      year: '',
      modelYear: '',
      chassis: '',
      color: '',
      renavam: '',
      brandModel: '',
      plate: '',
      ownerName: '',
    });
  });
});
