/**
 * Accent- and case-insensitive search in SQL, the same on PGlite and PostgreSQL (no unaccent
 * extension needed): the column is folded with translate(lower(…)) and the typed text with
 * foldText, so both sides compare without accents.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { foldText } from '../../../src/lib/text';
import { unmaskPlate } from '../../../src/lib/unmask';

const ACCENTED = 'áàâãäéèêëíìîïóòôõöúùûüçñ';
const PLAIN = 'aaaaaeeeeiiiiooooouuuucn';

export function folded(column: SQL | AnyPgColumn): SQL {
  return sql`translate(lower(${column}), ${ACCENTED}, ${PLAIN})`;
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%text%` folded and escaped, for LIKE against folded() columns. */
export function likePattern(search: string): string {
  return `%${escapeLike(foldText(search))}%`;
}

/**
 * A plate column (stored without formatting, src/lib/unmask.ts) contains the search typed as
 * plates are painted: 'PCX-9J78' and 'pcx 9j78' find PCX9J78. Undefined when the search has no
 * letter or digit left.
 */
export function plateContains(search: string, column: AnyPgColumn): SQL | undefined {
  const plate = unmaskPlate(search);
  if (!plate) return undefined;
  return sql`upper(${column}) like ${`%${escapeLike(plate)}%`}`;
}

/** Any of the columns contains the search (folded); undefined when there is no search. */
export function containsAny(search: string, columns: AnyPgColumn[]): SQL | undefined {
  if (!search) return undefined;
  const like = likePattern(search);
  return sql`(${sql.join(
    columns.map((column) => sql`${folded(column)} like ${like}`),
    sql` or `,
  )})`;
}
