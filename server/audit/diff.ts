/**
 * What an audit line says changed: { field: [before, after] } for the fields that differ.
 * Secrets never reach the log: a changed secret shows as '***' on both sides (the reader
 * learns that it changed, not what it was or became), an unchanged one not at all. The
 * deny-list is matched on field names in any case and in any of their spellings
 * (passwordHash, password_hash), so a column added later under a familiar name is covered.
 */

export const MASK = '***';

/** Field names, normalised (lower case, no '_'), whose values are never logged. */
const SECRET_NAMES = [
  'password',
  'passwordhash',
  'newpassword',
  'currentpassword',
  'devicepassword',
  'devicepasswordhash',
  'wialonpasswordhash',
  'commandpassword',
  'token',
  'tokenhash',
  'refreshtoken',
  'accesstoken',
  'apikey',
  'secret',
  'totpsecret',
  'webhooktoken',
  'accesskey',
];

/**
 * Any field whose name holds one of these is a secret too (e.g. 'asaasApiKey'). Every column of
 * two-step sign-in stays out of the log: the last step used tells when a code was accepted.
 */
const SECRET_PARTS = ['password', 'token', 'secret', 'apikey', 'totp'];

/** The id (the line names the record) and bookkeeping columns that change on every write. */
const IGNORED = new Set(['id', 'updatedat', 'createdat', 'canceledat']);

const normal = (name: string) => name.toLowerCase().replaceAll('_', '');

export function isSecretField(name: string): boolean {
  const n = normal(name);
  return SECRET_NAMES.includes(n) || SECRET_PARTS.some((part) => n.includes(part));
}

/** A value as JSON holds it: instants as ISO text, nothing JSON cannot carry. */
function plain(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(plain(a)) === JSON.stringify(plain(b));

export type Changes = Record<string, [unknown, unknown]>;

/**
 * The fields that differ between two versions of a record (either may be absent: a creation
 * has no before, a removal no after). Only fields present on one side or the other count.
 */
export function auditChanges(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): Changes {
  const out: Changes = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (IGNORED.has(normal(key))) continue;
    const old = before?.[key];
    const now = after?.[key];
    if (same(old, now)) continue;
    if (isSecretField(key)) {
      out[key] = [old == null ? null : MASK, now == null ? null : MASK];
      continue;
    }
    out[key] = [plain(old), plain(now)];
  }
  return out;
}

/** Drops (masks) secrets from a free-form object before it goes to the log. */
export function withoutSecrets(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values))
    out[key] = isSecretField(key) && value != null ? MASK : plain(value);
  return out;
}
