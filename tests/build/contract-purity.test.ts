/**
 * The build declares the contract's modules free of side effects (vite.config.ts,
 * pureContract) so that a page carries only the ones it uses: a module that acted as it loads
 * would silently not act in pages that import nothing of it. So each one may only import,
 * export and declare at its top level; messages.ts (valibot's pt-BR messages, set as it loads)
 * and the barrel are the exceptions the plugin leaves out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';

const DIR = path.join(import.meta.dirname, '../../src/contract');
const EXCEPTIONS = new Set(['index.ts', 'messages.ts']);
const DECLARATIONS = new Set([
  'ImportDeclaration',
  'ExportNamedDeclaration',
  'ExportAllDeclaration',
  'VariableDeclaration',
  'FunctionDeclaration',
  'ClassDeclaration',
  'TSTypeAliasDeclaration',
  'TSInterfaceDeclaration',
]);

/** The kinds of top-level statement of a module that are not declarations. */
function actions(file: string) {
  const source = readFileSync(path.join(DIR, file), 'utf8');
  const { program, errors } = parseSync(file, source, { lang: 'ts', sourceType: 'module' });
  expect(errors).toEqual([]);
  return program.body.filter((node) => !DECLARATIONS.has(node.type)).map((node) => node.type);
}

describe('the contract modules', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));

  it('only declare, but for the ones the build leaves out', () => {
    expect(files.length).toBeGreaterThan(10);
    for (const file of files.filter((f) => !EXCEPTIONS.has(f)))
      expect({ file, actions: actions(file) }).toEqual({ file, actions: [] });
  });

  it('see an action where there is one (messages.ts sets the messages)', () => {
    expect(actions('messages.ts')).toContain('ExpressionStatement');
  });
});
