/**
 * Checks given to a field's `validate` in the forms that let the browser validate (sign-in,
 * report filters, temporary links): their messages in the words of the app's other forms
 * ('Campo obrigatório', 'E-mail inválido'), not the browser's own (which speaks its own
 * language, English on some). Shown under the field when a submit is tried.
 */
import * as v from 'valibot';
import { EmailListSchema, INVALID_EMAIL, REQUIRED } from '../contract';
import { isEmail } from '../lib/emails';

export function emailCheck(value: string): string | null {
  if (!value.trim()) return REQUIRED;
  return isEmail(value) ? null : INVALID_EMAIL;
}

export function filledCheck(value: string): string | null {
  return value.trim() ? null : REQUIRED;
}

/** A comma-separated list (SPEC §5), worded as the API and the automated reports say it. */
export function emailListCheck(value: string): string | null {
  const result = v.safeParse(EmailListSchema, value);
  return result.success ? null : (result.issues[0]?.message ?? INVALID_EMAIL);
}
