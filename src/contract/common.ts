/**
 * Shapes shared by every resource: the error body, paging, select options and the pt-BR
 * messages of the most common validation failures.
 */
import * as v from 'valibot';

export const ERROR_CODES = [
  'BAD_REQUEST',
  'IDENTITY_ERROR',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'TOO_MANY_REQUESTS',
  'SERVER_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ApiErrorSchema = v.object({
  statusCode: v.number(),
  code: v.picklist(ERROR_CODES),
  message: v.string(),
  /** Why an identity error happened, for clients that act on it (e.g. TOKEN_EXPIRED). */
  reason: v.optional(v.string()),
  /** Field-level problems of a 400, as 'campo: mensagem'. */
  issues: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
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

export const IdSchema = v.pipe(v.string(), v.uuid('Identificador inválido'));

export const OptionSchema = v.object({ label: v.string(), value: v.string() });
export type Option = v.InferOutput<typeof OptionSchema>;

export const PagingSchema = v.object({
  page: v.number(),
  limit: v.number(),
  total: v.number(),
});
export type Paging = v.InferOutput<typeof PagingSchema>;

export const MessageSchema = v.object({ message: v.string() });

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
