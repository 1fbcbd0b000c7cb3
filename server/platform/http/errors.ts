/**
 * Every failure leaves the API as `{ statusCode, code, message }` with a pt-BR message.
 * Handlers throw HttpError; a database that could not be reached (a restart, a failover) is a
 * 503 with Retry-After, for every route at once, and its health is told; anything else is
 * logged and answered as a SERVER_ERROR without leaking internals.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiError, ErrorCode } from '../../../src/contract';
import { type DatabaseHealth, isConnectionError } from '../db/health';
import type { Logger } from '../log';
import { loggablePath } from './redact';

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Pick<ApiError, 'reason' | 'issues'> & { headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, issues?: ApiError['issues']) =>
  new HttpError(400, 'BAD_REQUEST', message, issues ? { issues } : {});
export const unauthorized = (message: string, reason?: string) =>
  new HttpError(401, 'IDENTITY_ERROR', message, reason ? { reason } : {});
export const forbidden = (message = 'Acesso negado') => new HttpError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Recurso não encontrado') =>
  new HttpError(404, 'NOT_FOUND', message);

/** The API's answer while the database cannot be reached. */
export const UNAVAILABLE = 'Serviço temporariamente indisponível. Tente novamente em instantes.';
/** Seconds a client is asked to wait before trying again (Retry-After). */
export const UNAVAILABLE_RETRY_SECONDS = 5;

export function errorBody(status: number, code: ErrorCode, message: string, extra = {}): ApiError {
  return { statusCode: status, code, message, ...extra };
}

/** pt-BR text for errors raised by Hono itself (bad JSON, wrong content type, body too big). */
function frameworkMessage(err: HTTPException): string {
  if (err.status === 400 && /json/i.test(err.message))
    return 'Corpo da requisição inválido: JSON malformado';
  if (err.status === 400) return 'Requisição inválida';
  if (err.status === 413) return 'Requisição grande demais';
  if (err.status === 401) return 'Não autenticado';
  return 'Erro na requisição';
}

export function handleError(log: Logger, health?: DatabaseHealth) {
  return (err: Error, c: Context) => {
    if (health ? health.report(err) : isConnectionError(err)) {
      // Not one line per request: the health logs the outage once.
      log.debug('request refused: database unreachable', { path: loggablePath(c.req.path) });
      c.header('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
      return c.json(errorBody(503, 'SERVER_ERROR', UNAVAILABLE), 503);
    }
    if (err instanceof HttpError) {
      const { headers, ...extra } = err.extra;
      for (const [key, value] of Object.entries(headers ?? {})) c.header(key, value);
      return c.json(errorBody(err.status, err.code, err.message, extra), err.status);
    }
    if (err instanceof HTTPException && err.status < 500) {
      const code: ErrorCode = err.status === 401 ? 'IDENTITY_ERROR' : 'BAD_REQUEST';
      return c.json(errorBody(err.status, code, frameworkMessage(err)), err.status);
    }
    log.error('request failed', { err, method: c.req.method, path: loggablePath(c.req.path) });
    return c.json(errorBody(500, 'SERVER_ERROR', 'Erro interno no servidor'), 500);
  };
}
