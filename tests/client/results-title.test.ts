/** A report's heading names its type once (src/features/reports/ReportResults.tsx). */
import { describe, expect, it } from 'vitest';
import { resultsTitle } from '../../src/features/reports/ReportResults';

describe('resultsTitle', () => {
  it('keeps a name that already says the type, and puts the type before any other', () => {
    expect(resultsTitle('light_final_report', 'Resumo do veículo de 01/11/2026 a 07/11/2026')).toBe(
      'Resumo do veículo de 01/11/2026 a 07/11/2026',
    );
    expect(resultsTitle('light_final_report', 'resumo do veículo — frota norte')).toBe(
      'resumo do veículo — frota norte',
    );
    expect(resultsTitle('light_final_report', 'Frota norte, novembro')).toBe(
      'Resumo do veículo: Frota norte, novembro',
    );
    // The whole type, not the start of a longer word.
    expect(resultsTitle('HISTORY', 'Históricos de novembro')).toBe(
      'Histórico: Históricos de novembro',
    );
    expect(resultsTitle('HISTORY', 'Histórico')).toBe('Histórico');
  });
});
