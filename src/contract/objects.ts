/**
 * valibot's object and record schemas, but refusing arrays. valibot takes any non-null
 * `typeof input === 'object'` as an object, so `[]` parsed as `{}` and a body, an `address` or
 * an alert rule's `params` sent as a list passed as an empty one. These build valibot's own
 * schema (same type, entries, JSON Schema and messages) and only put a check for arrays before
 * its run: the issue is valibot's own type issue ('Tipo inválido: esperado objeto' in pt-BR,
 * messages.ts), or the schema's message when it names one.
 *
 * v.partial, v.pick, v.omit, v.required, v.pipe and v.optional copy a schema with its `~run`
 * (they spread it and change only `entries`), so what they make of these refuses arrays too;
 * the check runs with `this`, so the copy's entries are the ones checked. Call these instead
 * of v.object, v.looseObject, v.strictObject, v.objectWithRest and v.record
 * (tests/build/object-schemas.test.ts holds the code to it).
 */
import * as v from 'valibot';

/** A copy of the schema that refuses arrays with its own type issue, then runs as before. */
/* @__NO_SIDE_EFFECTS__ */
function refuseArrays<TSchema extends v.GenericSchema>(schema: TSchema): TSchema {
  const run = schema['~run'];
  return v._standardSchema<TSchema>({
    ...schema,
    '~run'(dataset, config) {
      if (!Array.isArray(dataset.value)) return run.call(this, dataset, config);
      v._addIssue(this, 'type', dataset, config);
      // _addIssue made it a failure (not typed, with the issue), as valibot's own schemas do.
      return dataset as unknown as v.FailureDataset<v.InferIssue<TSchema>>;
    },
  });
}

/** v.object, refusing arrays. */
/* @__NO_SIDE_EFFECTS__ */
export function object<
  const TEntries extends v.ObjectEntries,
  const TMessage extends v.ErrorMessage<v.ObjectIssue> | undefined = undefined,
>(entries: TEntries, message?: TMessage): v.ObjectSchema<TEntries, TMessage> {
  return refuseArrays(v.object(entries, message as TMessage));
}

/** v.looseObject, refusing arrays. */
/* @__NO_SIDE_EFFECTS__ */
export function looseObject<
  const TEntries extends v.ObjectEntries,
  const TMessage extends v.ErrorMessage<v.LooseObjectIssue> | undefined = undefined,
>(entries: TEntries, message?: TMessage): v.LooseObjectSchema<TEntries, TMessage> {
  return refuseArrays(v.looseObject(entries, message as TMessage));
}

/** v.strictObject, refusing arrays. */
/* @__NO_SIDE_EFFECTS__ */
export function strictObject<
  const TEntries extends v.ObjectEntries,
  const TMessage extends v.ErrorMessage<v.StrictObjectIssue> | undefined = undefined,
>(entries: TEntries, message?: TMessage): v.StrictObjectSchema<TEntries, TMessage> {
  return refuseArrays(v.strictObject(entries, message as TMessage));
}

/** v.objectWithRest, refusing arrays. */
/* @__NO_SIDE_EFFECTS__ */
export function objectWithRest<
  const TEntries extends v.ObjectEntries,
  const TRest extends v.GenericSchema,
  const TMessage extends v.ErrorMessage<v.ObjectWithRestIssue> | undefined = undefined,
>(
  entries: TEntries,
  rest: TRest,
  message?: TMessage,
): v.ObjectWithRestSchema<TEntries, TRest, TMessage> {
  return refuseArrays(v.objectWithRest(entries, rest, message as TMessage));
}

/** v.record, refusing arrays. */
/* @__NO_SIDE_EFFECTS__ */
export function record<
  const TKey extends v.BaseSchema<string, string | number | symbol, v.BaseIssue<unknown>>,
  const TValue extends v.GenericSchema,
  const TMessage extends v.ErrorMessage<v.RecordIssue> | undefined = undefined,
>(key: TKey, value: TValue, message?: TMessage): v.RecordSchema<TKey, TValue, TMessage> {
  return refuseArrays(v.record(key, value, message as TMessage));
}
