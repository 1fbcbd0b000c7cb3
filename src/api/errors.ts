/**
 * Turns whatever a call threw into a pt-BR message and one of the codes of SPEC §8, so that
 * screens show `toast.error('Erro ao buscar …', message)` without knowing about HTTP.
 */
import * as v from 'valibot';
import { ApiErrorSchema, type ErrorCode } from '../contract';
import { ERROR_MESSAGES } from '../i18n/pt-BR';
import { HTTPError, TimeoutError } from './client';

export interface ClientError {
  status: number;
  code: ErrorCode | 'NETWORK';
  message: string;
  reason?: string | undefined;
  /** Field problems of a 400 ('campo': 'mensagem'), for forms that show them in place. */
  issues?: { path: string; message: string }[] | undefined;
}

/** SPEC §8: 500 and above SERVER_ERROR; 401 IDENTITY_ERROR; other 400s BAD_REQUEST. */
export function codeForStatus(status: number): 'SERVER_ERROR' | 'IDENTITY_ERROR' | 'BAD_REQUEST' {
  if (status >= 500) return 'SERVER_ERROR';
  if (status === 401) return 'IDENTITY_ERROR';
  return 'BAD_REQUEST';
}

export async function toClientError(error: unknown): Promise<ClientError> {
  if (error instanceof HTTPError) {
    const status = error.response.status;
    const body: unknown = await error.response
      .clone()
      .json()
      .catch(() => undefined);
    const parsed = v.safeParse(ApiErrorSchema, body);
    if (parsed.success) {
      return {
        status,
        code: parsed.output.code,
        message: parsed.output.message,
        reason: parsed.output.reason,
        issues: parsed.output.issues,
      };
    }
    const code = codeForStatus(status);
    return { status, code, message: ERROR_MESSAGES[code] };
  }
  if (error instanceof TimeoutError || error instanceof TypeError) {
    return { status: 0, code: 'NETWORK', message: ERROR_MESSAGES.NETWORK };
  }
  return {
    status: 0,
    code: 'SERVER_ERROR',
    message: error instanceof Error ? error.message : String(error),
  };
}
