/** Text folded for searching: lower case and without accents, so 'logis' finds 'Logística'. */
export function foldText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** Only letters and digits, folded: 'ABC-1D23', 'abc 1d23' and 'ABC1D23' read the same. */
export function compactText(value: string): string {
  return compactFolded(foldText(value));
}

const compactFolded = (folded: string) => folded.replace(/[^\p{L}\p{N}]/gu, '');

/**
 * A search text prepared once for many queries (lists of thousands of rows): the folded text
 * and its compact form, so a plate typed with or without its dash, in any case, is found.
 */
export function searchable(value: string): string {
  const folded = foldText(value);
  return `${folded}\u0000${compactFolded(folded)}`;
}

/** Digit runs are padded to this many digits in a sort key (longer ones: no key). */
const KEY_DIGITS = 20;

/**
 * A key that orders names as `Intl.Collator('pt-BR', { numeric: true })` does, compared with
 * plain `<` — a collator's compare is slow for sorting 10,000 names — or null when the name
 * holds anything but letters, digits and spaces (compare those with the collator). Names whose
 * keys are equal differ only in case or accents: the collator settles them too.
 */
export function sortKey(value: string): string | null {
  const folded = foldText(value);
  if (!/^[a-z0-9 ]*$/.test(folded)) return null;
  let long = false;
  const key = folded.replace(/\d+/g, (digits) => {
    const value = digits.replace(/^0+(?=\d)/, '');
    if (value.length > KEY_DIGITS) long = true;
    return value.padStart(KEY_DIGITS, '0');
  });
  return long ? null : key;
}

/** Whether every word typed appears in the text (see `searchable`), ignoring accents and case. */
export function matchesSearch(text: string, query: string): boolean {
  const prepared = text.includes('\u0000') ? text : searchable(text);
  return foldText(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => {
      const compact = compactText(word);
      return prepared.includes(word) || (compact !== '' && prepared.includes(compact));
    });
}
