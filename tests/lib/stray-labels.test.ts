/**
 * Every user-facing text of the PWA comes from src/i18n. This test finds pt-BR written inline
 * in src/ (JSX text, the props a person reads or hears, Portuguese prose in string literals)
 * and fails on any that is not in stray-labels.baseline.txt — the labels still waiting to be
 * moved, one per line. A label moved to src/i18n must leave the baseline too (the test fails
 * on a baseline line no longer found), so the list only shrinks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { strays, straysIn } from './stray-labels';

const root = path.resolve(__dirname, '../../src');
const baselineFile = path.resolve(__dirname, 'stray-labels.baseline.txt');
const key = (file: string, text: string) => `${file}\t${text.replace(/\s+/g, ' ')}`;

describe('the stray-label finder', () => {
  it('finds JSX text, user-facing props and Portuguese prose', () => {
    const found = straysIn(
      'src/x.tsx',
      `import { t } from './i18n';
       const columns = [{ id: 'name', label: 'Nome' }];
       export function X() {
         console.warn('Falha ao ler: sem rede');
         const message = 'Nenhum veículo encontrado.';
         return (
           <div className="page muted" aria-label="Mapa da frota" title={t.title}>
             Olá, mundo
             <input placeholder="Digite a placa" id="plate-field" />
           </div>
         );
       }`,
    );
    expect(found.map((s) => [s.why, s.text])).toEqual([
      ['prop', 'Nome'],
      ['prose', 'Nenhum veículo encontrado.'],
      ['prop', 'Mapa da frota'],
      ['jsx-text', 'Olá, mundo'],
      ['prop', 'Digite a placa'],
    ]);
  });
});

describe('labels in src/', () => {
  const found = strays(root);
  const baseline = new Set(
    readFileSync(baselineFile, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== ''),
  );
  const current = new Set(found.map((s) => key(s.file, s.text)));

  it('come from src/i18n: no pt-BR text written inline beyond the baseline', () => {
    const fresh = found
      .filter((s) => !baseline.has(key(s.file, s.text)))
      .map((s) => `${s.file}:${s.line} ${JSON.stringify(s.text)}`);
    expect(fresh).toEqual([]);
  });

  it('leave the baseline once moved to src/i18n', () => {
    expect([...baseline].filter((line) => !current.has(line))).toEqual([]);
  });
});
