/**
 * Form state of the record edit screens (a declared resource's ResourceFormPage, the customer
 * and the user pages): values, per-field errors from a contract schema (or from the server's
 * 400), and a submit that checks the network, shows progress and reports failures in a toast.
 * Small forms that answer in place (sign-in, passwords, a shared link, the geofence editor)
 * keep their own few fields. A failed save is never silent: the first invalid field takes the focus
 * and is scrolled into view (the summary sits in the form's sticky action bar, in view on
 * phones too). Screens only declare their fields and how values become a payload.
 */
import { type RefObject, useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { toClientError } from '../api/errors';
import { flattenIssues } from '../contract';
import { t } from '../i18n/pt-BR';
import { requireOnline, toastError } from './feedback';

export type FieldErrors = Record<string, string | undefined>;

/** Focuses the first invalid field of a form and brings it to the middle of the screen. */
export function revealFirstInvalid(form: HTMLElement | null): void {
  const field = form?.querySelector<HTMLElement>('[data-invalid]');
  if (!field) return;
  const control = field.matches('input, select, textarea, button')
    ? field
    : field.querySelector<HTMLElement>('input:not([type=hidden]), textarea, button, [tabindex]');
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  field.scrollIntoView({ block: 'center', behavior: reduced ? 'auto' : 'smooth' });
  control?.focus({ preventScroll: true });
}

export function useRecordForm<T extends Record<string, unknown>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const [formError, setFormError] = useState<string>();
  const formRef: RefObject<HTMLFormElement | null> = useRef<HTMLFormElement>(null);
  // Bumped by each failed attempt: the effect runs after the errors are on screen.
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures > 0) revealFirstInvalid(formRef.current);
  }, [failures]);

  const set =
    <K extends keyof T>(key: K) =>
    (value: T[K]) => {
      setValues((current) => ({ ...current, [key]: value }));
      setErrors((current) => ({ ...current, [key as string]: undefined }));
    };

  function fail(next: FieldErrors, summary: string) {
    setErrors(next);
    setFormError(summary);
    setFailures((n) => n + 1);
  }

  /**
   * Checks a payload with a schema; maps issue paths to field names with `fieldOf`. `extra`:
   * problems of the form the payload cannot show (a switch on with its field empty), shown
   * with the schema's, all at once.
   */
  function check<S extends v.GenericSchema>(
    schema: S,
    payload: unknown,
    fieldOf: (path: string) => string = (path) => path,
    extra: FieldErrors = {},
  ): v.InferOutput<S> | undefined {
    const result = v.safeParse(schema, payload);
    const next: FieldErrors = { ...extra };
    for (const [field, message] of Object.entries(next)) if (!message) delete next[field];
    if (!result.success)
      for (const issue of flattenIssues(result.issues)) next[fieldOf(issue.path)] ??= issue.message;
    if (result.success && Object.keys(next).length === 0) return result.output;
    fail(next, t.list.fixErrors);
    return undefined;
  }

  async function submit(
    errorTitle: string,
    save: () => Promise<void>,
    fieldOf: (path: string) => string = (path) => path,
  ) {
    if (!requireOnline()) return;
    setPending(true);
    setFormError(undefined);
    try {
      await save();
    } catch (err) {
      const message = await toastError(errorTitle, err);
      const { issues = [] } = await toClientError(err);
      const next: FieldErrors = {};
      for (const issue of issues) next[fieldOf(issue.path)] ??= issue.message;
      fail(next, message);
    } finally {
      setPending(false);
    }
  }

  return {
    values,
    setValues,
    set,
    errors,
    setErrors,
    pending,
    formError,
    formRef,
    check,
    submit,
  };
}
