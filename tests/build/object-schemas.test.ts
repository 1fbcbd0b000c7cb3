/**
 * valibot's object and record schemas take an array for an object (`[]` parses as `{}`), so the
 * code builds them with src/contract/objects.ts, whose copies refuse arrays. This holds the
 * app, its worker and the server to it: outside that module no code takes valibot's object,
 * looseObject, strictObject, objectWithRest or record (nor their async forms), whether called
 * as `v.object(…)`, named in an import or passed along as `v.record`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');
const DIRS = ['src', 'server', 'sw'];
const HELPERS = 'src/contract/objects.ts';
const BARE = new Set(
  ['object', 'looseObject', 'strictObject', 'objectWithRest', 'record'].flatMap((name) => [
    name,
    `${name}Async`,
  ]),
);

interface Node {
  type: string;
  start: number;
  [key: string]: unknown;
}
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
const nameOf = (node: unknown): string | undefined => {
  if (!isNode(node)) return undefined;
  if (node.type === 'Identifier') return String(node.name);
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return undefined;
};

/** 'line: text' of each place the source takes one of valibot's bare object schemas. */
function bareObjectSchemas(file: string, source: string): string[] {
  const { program, errors } = parseSync(file, source, {
    lang: file.endsWith('.tsx') ? 'tsx' : 'ts',
    sourceType: 'module',
  });
  expect(errors).toEqual([]);
  const found: Node[] = [];
  const namespaces = new Set<string>();
  for (const node of program.body as unknown as Node[]) {
    const fromValibot =
      (node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration') &&
      nameOf(node.source) === 'valibot' &&
      node.importKind !== 'type' &&
      node.exportKind !== 'type';
    if (!fromValibot) continue;
    for (const spec of node.specifiers as Node[]) {
      if (spec.type === 'ImportNamespaceSpecifier') namespaces.add(nameOf(spec.local) ?? '');
      const imported = nameOf(spec.imported) ?? nameOf(spec.local);
      if (spec.importKind !== 'type' && imported && BARE.has(imported)) found.push(spec);
    }
  }
  // Every v.object / v['record'] of a namespace import of valibot, wherever it sits.
  const stack: unknown[] = [program];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (Array.isArray(item)) stack.push(...item);
    else if (typeof item === 'object' && item !== null) {
      if (
        isNode(item) &&
        item.type === 'MemberExpression' &&
        namespaces.has(nameOf(item.object) ?? '') &&
        BARE.has(nameOf(item.property) ?? '')
      )
        found.push(item);
      stack.push(...Object.values(item));
    }
  }
  return found
    .sort((a, b) => a.start - b.start)
    .map((node) => {
      const line = source.slice(0, node.start).split('\n').length;
      return `${line}: ${source.split('\n')[line - 1]?.trim()}`;
    });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => path.join(dir, name).split(path.sep).join('/'))
    .filter((file) => !file.includes('/node_modules/'));
}

describe("valibot's object schemas", () => {
  it('are built only by src/contract/objects.ts (which refuses arrays), never directly', () => {
    const files = DIRS.flatMap(sourceFiles).filter((file) => file !== HELPERS);
    expect(files.length).toBeGreaterThan(200);
    const bare = files.flatMap((file) =>
      bareObjectSchemas(file, readFileSync(path.join(ROOT, file), 'utf8')).map(
        (place) => `${file}:${place}`,
      ),
    );
    expect(bare, 'use o.object, o.strictObject… of src/contract/objects.ts').toEqual([]);
  });

  it('are seen however they are taken, and types or the helpers are not', () => {
    const source = [
      "import * as v from 'valibot';",
      "import * as o from '../contract/objects';",
      "import { record as rec, type ObjectSchema, type strictObject } from 'valibot';",
      "import type * as t from 'valibot';",
      'const a = v.object({});',
      "const b = v['looseObject'];",
      'const c = v.pipe(v.string(), v.check((x) => x !== ""));',
      'const d = o.object({ e: o.record(v.string(), v.number()) });',
      'type E = t.InferOutput<typeof a> & ObjectSchema<{}, undefined>;',
      'const f = <T,>(x: T) => v.strictObjectAsync({ x: v.literal(x) });',
    ].join('\n');
    expect(bareObjectSchemas('probe.tsx', source)).toEqual([
      "3: import { record as rec, type ObjectSchema, type strictObject } from 'valibot';",
      '5: const a = v.object({});',
      "6: const b = v['looseObject'];",
      '10: const f = <T,>(x: T) => v.strictObjectAsync({ x: v.literal(x) });',
    ]);
  });
});
