/**
 * Checks given to a field's `validate` in the forms that let the browser validate (sign-in,
 * report filters, temporary links): their messages in the words of the app's other forms
 * ('Campo obrigatório', 'E-mail inválido'), not the browser's own (which speaks its own
 * language, English on some). Shown under the field when a submit is tried.
 */
import * as v from 'valibot';
import { EmailListSchema, EmailSchema, INVALID_EMAIL, REQUIRED } from '../contract';

/** The API's own e-mail rule (required, length, format), so both say the same. */
export function emailCheck(value: string): string | null {
  return firstIssue(EmailSchema, value);
}

export function filledCheck(value: string): string | null {
  return value.trim() ? null : REQUIRED;
}

/** A comma-separated list (SPEC §5), worded as the API and the automated reports say it. */
export function emailListCheck(value: string): string | null {
  return firstIssue(EmailListSchema, value);
}

/** A field's check from the contract's own rule for it (the API refuses the same). */
export function fieldCheck(schema: v.GenericSchema<string, unknown>) {
  return (value: string): string | null => firstIssue(schema, value);
}

function firstIssue(schema: v.GenericSchema<string, unknown>, value: string): string | null {
  const result = v.safeParse(schema, value);
  return result.success ? null : (result.issues[0]?.message ?? INVALID_EMAIL);
}
