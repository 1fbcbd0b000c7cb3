/** Text folded for searching: lower case and without accents, so 'logis' finds 'Logística'. */
export function foldText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** Only letters and digits, folded: 'ABC-1D23', 'abc 1d23' and 'ABC1D23' read the same. */
export function compactText(value: string): string {
  return foldText(value).replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * A search text prepared once for many queries (lists of thousands of rows): the folded text
 * and its compact form, so a plate typed with or without its dash, in any case, is found.
 */
export function searchable(value: string): string {
  return `${foldText(value)}\u0000${compactText(value)}`;
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
