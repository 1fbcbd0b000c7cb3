import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bareArray,
  booleanArray,
  jsonArray,
  numberArray,
  textArray,
} from '../../server/platform/db/pg-arrays';

const db = new PGlite();
afterAll(() => db.close());

async function roundTrip<T>(literal: string, type: string): Promise<T[]> {
  const { rows } = await db.query<{ v: T }>(`select unnest($1::${type}) as v`, [literal]);
  return rows.map((row) => row.v);
}

describe('PostgreSQL array literals for batch statements', () => {
  it('keeps every text as it was: quotes, backslashes, braces, commas, the word NULL', async () => {
    const values = ['a "b" c', 'back\\slash', '{x,y}', 'NULL', '', ' lead and trail ', null, 'ç'];
    expect(await roundTrip<string | null>(textArray(values), 'text[]')).toEqual(values);
  });

  it('carries JSON documents as jsonb', async () => {
    const docs = [{ a: 'x"y', b: [1, 2] }, {}, { path: 'c:\\dir' }];
    const literal = textArray(docs.map((d) => JSON.stringify(d)));
    expect(await roundTrip(literal, 'jsonb[]')).toEqual(docs);
  });

  it('jsonArray gives the same literal as textArray of the JSON texts, and the same documents', async () => {
    const docs = [
      { a: 'x"y', b: [1, 2], nested: { q: '"' } },
      {},
      { path: 'c:\\dir\\"quoted"' },
      { line: 'one\ntwo\ttab\u001f', unicode: 'ção 🚚 \u2028' },
      ['{x,y}', 'NULL', ' spaced '],
      'NULL',
      null,
      42.5,
      true,
    ];
    const literal = jsonArray(docs);
    expect(literal).toBe(textArray(docs.map((d) => JSON.stringify(d))));
    expect(await roundTrip(literal, 'jsonb[]')).toEqual(
      docs.map((d) => JSON.parse(JSON.stringify(d))),
    );
    // jsonb refuses \u0000 and lone surrogates whichever way they travel; the literal matches.
    const refused = [{ nul: 'a\u0000b', lone: '\ud800' }];
    expect(jsonArray(refused)).toBe(textArray(refused.map((d) => JSON.stringify(d))));
    // A missing value is SQL NULL, not the JSON null.
    expect(await roundTrip(jsonArray([undefined, null]), 'jsonb[]')).toEqual([null, null]);
    const { rows } = await db.query<{ missing: boolean }>(
      'select (($1::jsonb[])[1] is null) as missing',
      [jsonArray([undefined])],
    );
    expect(rows[0]?.missing).toBe(true);
  });

  it('numbers exact, and a number that is not finite as NULL', async () => {
    const values = [0, -8.123456789012344, 1e-7, 1.5e21, Number.NaN, Number.POSITIVE_INFINITY];
    expect(await roundTrip(numberArray(values), 'float8[]')).toEqual([
      0,
      -8.123456789012344,
      1e-7,
      1.5e21,
      null,
      null,
    ]);
    expect(await roundTrip(numberArray([null, undefined, 3]), 'int[]')).toEqual([null, null, 3]);
  });

  it('uuids, times and booleans bare, with NULL for missing', async () => {
    const id = '0b9f1c1e-7a38-4d0e-9a8b-2f0f3d6f8a11';
    expect(await roundTrip(bareArray([id, null]), 'uuid[]')).toEqual([id, null]);
    const at = new Date('2026-11-22T10:11:12.345Z');
    expect(await roundTrip(bareArray([at.toISOString()]), 'timestamptz[]')).toEqual([at]);
    expect(await roundTrip(booleanArray([true, false, null]), 'boolean[]')).toEqual([
      true,
      false,
      null,
    ]);
  });

  it('an empty batch is an empty array', async () => {
    expect(await roundTrip(textArray([]), 'text[]')).toEqual([]);
  });
});
