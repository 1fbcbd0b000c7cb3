/**
 * Form state shared by every edit screen: values, per-field errors from a contract schema,
 * and a submit that checks the network, shows progress and reports failures. Screens only
 * declare their fields and how values become a payload.
 */
import { useState } from 'react';
import * as v from 'valibot';
import { flattenIssues } from '../contract';
import { t } from '../i18n/pt-BR';
import { requireOnline, toastError } from './feedback';

export type FieldErrors = Record<string, string | undefined>;

export function useForm<T extends Record<string, unknown>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const [formError, setFormError] = useState<string>();

  const set =
    <K extends keyof T>(key: K) =>
    (value: T[K]) => {
      setValues((current) => ({ ...current, [key]: value }));
      setErrors((current) => ({ ...current, [key as string]: undefined }));
    };

  /** Checks a payload with a schema; maps issue paths to field names with `fieldOf`. */
  function check<S extends v.GenericSchema>(
    schema: S,
    payload: unknown,
    fieldOf: (path: string) => string = (path) => path,
  ): v.InferOutput<S> | undefined {
    const result = v.safeParse(schema, payload);
    if (result.success) return result.output;
    const next: FieldErrors = {};
    for (const issue of flattenIssues(result.issues)) next[fieldOf(issue.path)] ??= issue.message;
    setErrors(next);
    setFormError(t.list.fixErrors);
    return undefined;
  }

  async function submit(errorTitle: string, save: () => Promise<void>) {
    if (!requireOnline()) return;
    setPending(true);
    setFormError(undefined);
    try {
      await save();
    } catch (err) {
      setFormError(await toastError(errorTitle, err));
    } finally {
      setPending(false);
    }
  }

  return { values, setValues, set, errors, setErrors, pending, formError, check, submit };
}
