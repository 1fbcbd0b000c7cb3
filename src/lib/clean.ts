/**
 * Payload cleaning (SPEC §5): create and edit payloads drop empty strings, null, undefined and
 * NaN properties, recursively, before they are sent. Arrays keep their order; their object
 * items are cleaned and their empty items dropped.
 */
export type Cleaned<T> = T extends (infer U)[]
  ? Cleaned<U>[]
  : T extends object
    ? { [K in keyof T]?: Cleaned<T[K]> }
    : T;

function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (typeof value === 'number' && Number.isNaN(value))
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function cleanValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => !isEmptyValue(item)).map(cleanValue);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (!isEmptyValue(item)) out[key] = cleanValue(item);
    }
    return out;
  }
  return value;
}

export function removeEmptyProperties<T extends object>(payload: T): Cleaned<T> {
  return cleanValue(payload) as Cleaned<T>;
}
