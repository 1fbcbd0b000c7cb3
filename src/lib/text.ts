/** Text folded for searching: lower case and without accents, so 'logis' finds 'Logística'. */
export function foldText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}
