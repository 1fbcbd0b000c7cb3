/**
 * Code comments say why in words a reader understands without the issue tracker: a comment
 * that cites "issue 12" tells a newcomer nothing. This test fails on any such reference in the
 * code of the app, the server, the service worker, the tests, the journeys and the scripts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const FOLDERS = ['src', 'server', 'sw', 'tests', 'e2e', 'scripts', 'bench'];
const CODE = /\.(ts|tsx|mjs|js|css)$/;
/** "issue 12", "Issue #12", "issues 12 and 13" — not the word alone (validation issues). */
const REFERENCE = /\bissues? ?#?\d+/i;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (CODE.test(name)) yield full;
  }
}

function references(text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => [i + 1, line] as const)
    .filter(([, line]) => REFERENCE.test(line))
    .map(([n, line]) => `${n}: ${line.trim()}`);
}

describe('references to the issue tracker', () => {
  it('are found in a comment', () => {
    expect(references('// Issue 14: report files\nconst issues = [];\n/* see issue #3 */')).toEqual(
      ['1: // Issue 14: report files', '3: /* see issue #3 */'],
    );
  });

  it('are nowhere in the code', () => {
    const self = path.relative(root, __filename);
    const found: string[] = [];
    for (const folder of FOLDERS) {
      const dir = path.join(root, folder);
      if (!statSync(dir, { throwIfNoEntry: false })) continue;
      for (const file of files(dir)) {
        const relative = path.relative(root, file);
        if (relative === self) continue;
        for (const line of references(readFileSync(file, 'utf8')))
          found.push(`${relative}:${line}`);
      }
    }
    expect(found).toEqual([]);
  });
});
