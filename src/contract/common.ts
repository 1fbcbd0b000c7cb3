/**
 * Shapes shared by every resource: the error body, paging, select options and the pt-BR
 * messages of the most common validation failures.
 */
import * as v from 'valibot';
import { validateEmailList } from '../lib/emails';
import * as o from './objects';

export const ERROR_CODES = [
  'BAD_REQUEST',
  'IDENTITY_ERROR',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'TOO_MANY_REQUESTS',
  'SERVER_ERROR',
  // The payment area's catalogue (SPEC §8), and payments not set up.
  'INTERNAL_SERVER_ERROR',
  'UNAUTHORIZED',
  'UNPROCESSABLE_ENTITY',
  'NOT_FOUND_ON_PAYMENTS_SYSTEM',
  'PAYMENTS_NOT_CONFIGURED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ApiErrorSchema = o.object({
  statusCode: v.number(),
  code: v.picklist(ERROR_CODES),
  message: v.string(),
  /** Why an identity error happened, for clients that act on it (e.g. TOKEN_EXPIRED). */
  reason: v.optional(v.string()),
  /** Field-level problems of a 400, as 'campo: mensagem'. */
  issues: v.optional(v.array(o.object({ path: v.string(), message: v.string() }))),
});
export type ApiError = v.InferOutput<typeof ApiErrorSchema>;

export const REQUIRED = 'Campo obrigatório';
export const INVALID_EMAIL = 'E-mail inválido';

export const EmailSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(REQUIRED),
  v.maxLength(254, 'E-mail longo demais'),
  v.email(INVALID_EMAIL),
  v.toLowerCase(),
);

/**
 * SPEC §5 e-mail list, with the invalid items named (report files, automated reports). Here
 * rather than in report-files.ts: the sign-in page's field checks (ui/field-checks.ts) share
 * their module, and report-files.ts would bring the report contract onto the sign-in path.
 */
export const EmailListSchema = v.pipe(
  v.string(),
  v.check(
    (value) => validateEmailList(value).valid,
    (issue) => {
      const { invalid } = validateEmailList(String(issue.input));
      return invalid.length
        ? `E-mails inválidos: ${invalid.join(', ')}`
        : 'Informe e-mails separados por vírgula';
    },
  ),
);

export const IdSchema = v.pipe(v.string(), v.uuid('Identificador inválido'));

export const OptionSchema = o.object({ label: v.string(), value: v.string() });
export type Option = v.InferOutput<typeof OptionSchema>;

export const PagingSchema = o.object({
  page: v.number(),
  limit: v.number(),
  total: v.number(),
});
export type Paging = v.InferOutput<typeof PagingSchema>;

export const MessageSchema = o.object({ message: v.string() });

/** Query-string integer with a default and bounds (query values always arrive as text). */
export function queryInt(fallback: number, min: number, max: number) {
  return v.pipe(
    v.optional(v.string(), String(fallback)),
    v.transform(Number),
    v.number(),
    v.integer(),
    v.minValue(min),
    v.maxValue(max),
  );
}

/** Query-string boolean: 'true'/'false'/'1'/'0'. */
export const QueryBoolSchema = v.pipe(
  v.picklist(['true', 'false', '1', '0'], 'Use true ou false'),
  v.transform((value) => value === 'true' || value === '1'),
);

export const OrderSchema = v.optional(v.picklist(['asc', 'desc'], 'Use asc ou desc'), 'asc');

/**
 * NUL (U+0000) cannot be stored in a PostgreSQL text or jsonb value, and no person types it:
 * any text that carries one is refused with this message, wherever it sits in the input.
 */
export const NUL_MESSAGE = 'Texto com caractere inválido (NUL)';

/**
 * The path ('a.b.0') of the first text holding a NUL in a parsed input (keys included), or
 * undefined. Iterative, so that a deeply nested body cannot exhaust the stack.
 */
export function findNul(input: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value: input, path: '' }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, path } = item;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (Array.isArray(value)) {
      value.forEach((child, i) => {
        stack.push({ value: child, path: path ? `${path}.${i}` : String(i) });
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return at;
        stack.push({ value: child, path: at });
      }
    }
  }
  return undefined;
}

/** Years a date may carry: PostgreSQL refuses year 0, and nothing in Rastro predates 1900. */
const YEARS = { min: 1900, max: 9999 };
export const INVALID_DATE = 'Data inválida';
/** A period that ends before it begins (reports and the alert list say it alike). */
export const PERIOD_ORDER = 'A data final deve ser posterior à data inicial';

/** A calendar date that exists ('2024-02-30' and year 0 do not). */
export function isRealDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < YEARS.min || year > YEARS.max) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The last instant a date may name: its year in UTC too ('9999-12-31T23:00-05:00' is 10000). */
const LAST_INSTANT = Date.UTC(YEARS.max, 11, 31, 23, 59, 59, 999);

/** An instant that exists and whose UTC year is one the database takes. */
export function isRealInstant(text: string): boolean {
  // NaN (no instant) is never ≤.
  return isRealDate(text) && Date.parse(text) <= LAST_INSTANT;
}

/** An ISO 8601 instant (with its offset) that exists: what every API date filter takes. */
export const IsoTimestampSchema = v.pipe(
  v.string(),
  v.isoTimestamp('Data inválida: use ISO 8601'),
  v.check(isRealInstant, INVALID_DATE),
);

/** An ISO 8601 calendar date (AAAA-MM-DD) that exists. */
export function isoDateSchema(message: string) {
  return v.pipe(v.string(), v.isoDate(message), v.check(isRealDate, message));
}

/** Free-text search: trimmed, empty means none. */
export const SearchSchema = v.pipe(v.optional(v.string(), ''), v.trim(), v.maxLength(120));

export const BRAZIL_STATES = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;
export type BrazilState = (typeof BRAZIL_STATES)[number];
