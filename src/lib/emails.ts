/**
 * Comma-separated e-mail lists (alert rules, automated reports). SPEC §5: an empty or blank
 * list is valid; a list made only of separators is not; otherwise every trimmed item must be
 * an e-mail, and the invalid ones are returned so the form can name them.
 */
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

export interface EmailListResult {
  valid: boolean;
  emails: string[];
  invalid: string[];
}

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

export function validateEmailList(input: string | null | undefined): EmailListResult {
  if (input == null || input.trim() === '') return { valid: true, emails: [], invalid: [] };
  const items = input.split(',').map((item) => item.trim());
  const filled = items.filter((item) => item !== '');
  if (filled.length === 0) return { valid: false, emails: [], invalid: [] };
  const invalid = filled.filter((item) => !isEmail(item));
  return { valid: invalid.length === 0 && filled.length === items.length, emails: filled, invalid };
}
