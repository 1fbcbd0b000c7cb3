/**
 * Address lookup by CEP through a ViaCEP-compatible service (`GET {CEP_URL}/{cep}/json/`).
 * Answers are cached in memory (found for a week, not found for a day) because addresses
 * rarely change and forms ask for the same CEPs again and again.
 */
import type { CepResult } from '../../src/contract';
import { HttpError, notFound } from '../platform/http/errors';

const FOUND_TTL = 7 * 24 * 3600 * 1000;
const MISSING_TTL = 24 * 3600 * 1000;
const MAX_ENTRIES = 5000;

export const CEP_NOT_FOUND = 'CEP não encontrado';
export const CEP_UNAVAILABLE =
  'Serviço de CEP indisponível no momento. Preencha o endereço manualmente.';

interface ViaCepAnswer {
  cep?: string;
  logradouro?: string;
  complemento?: string;
  bairro?: string;
  localidade?: string;
  uf?: string;
  erro?: boolean | string;
}

export interface CepLookup {
  lookup(cep: string): Promise<CepResult>;
}

export function createCepLookup(options: { baseUrl: string; timeoutMs: number }): CepLookup {
  const cache = new Map<string, { at: number; value: CepResult | null }>();

  function remember(cep: string, value: CepResult | null) {
    if (cache.size >= MAX_ENTRIES) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(cep, { at: Date.now(), value });
  }

  async function fetchCep(cep: string): Promise<CepResult | null> {
    let res: Response;
    try {
      res = await fetch(`${options.baseUrl}/${cep}/json/`, {
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch {
      throw new HttpError(502, 'SERVER_ERROR', CEP_UNAVAILABLE);
    }
    if (res.status === 400 || res.status === 404) return null;
    if (!res.ok) throw new HttpError(502, 'SERVER_ERROR', CEP_UNAVAILABLE);
    const body = (await res.json().catch(() => null)) as ViaCepAnswer | null;
    if (!body) throw new HttpError(502, 'SERVER_ERROR', CEP_UNAVAILABLE);
    if (body.erro) return null;
    return {
      cep,
      street: body.logradouro ?? '',
      complement: body.complemento ?? '',
      district: body.bairro ?? '',
      city: body.localidade ?? '',
      state: body.uf ?? '',
    };
  }

  return {
    async lookup(cep) {
      const hit = cache.get(cep);
      if (hit && Date.now() - hit.at < (hit.value ? FOUND_TTL : MISSING_TTL)) {
        if (!hit.value) throw notFound(CEP_NOT_FOUND);
        return hit.value;
      }
      const value = await fetchCep(cep);
      remember(cep, value);
      if (!value) throw notFound(CEP_NOT_FOUND);
      return value;
    },
  };
}
