/**
 * Plate lookup (SPEC §7 `registros/eligo/consultarPlaca`) through a configured provider that
 * answers the Eligo list shape: ano_fabricacao_veiculo, ano_modelo, chassi_veiculo,
 * cor_veiculo, renavam, marca_modelo, placa_veiculo, nome_completo.
 */
import * as v from 'valibot';
import { type PlateRecord, PlateRecordSchema } from '../../src/contract';
import { HttpError, notFound } from '../platform/http/errors';

export const PLATE_NOT_CONFIGURED =
  'Consulta de placa não configurada. Defina PLATE_LOOKUP_URL e PLATE_LOOKUP_TOKEN.';
const UNAVAILABLE =
  'Serviço de consulta de placa indisponível no momento. Preencha os dados manualmente.';

export interface PlateLookup {
  lookup(plate: string): Promise<PlateRecord[]>;
}

export function createPlateLookup(options: {
  url?: string | undefined;
  token?: string | undefined;
  timeoutMs: number;
}): PlateLookup {
  return {
    async lookup(plate) {
      if (!options.url || !options.token)
        throw new HttpError(503, 'SERVER_ERROR', PLATE_NOT_CONFIGURED);
      let res: Response;
      try {
        const target = new URL(options.url);
        target.searchParams.set('placa', plate);
        res = await fetch(target, {
          headers: { authorization: `Bearer ${options.token}` },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch {
        throw new HttpError(502, 'SERVER_ERROR', UNAVAILABLE);
      }
      if (res.status === 404) throw notFound(`Placa não encontrada: ${plate}`);
      if (!res.ok) throw new HttpError(502, 'SERVER_ERROR', UNAVAILABLE);
      const parsed = v.safeParse(v.array(PlateRecordSchema), await res.json().catch(() => null));
      if (!parsed.success) throw new HttpError(502, 'SERVER_ERROR', UNAVAILABLE);
      if (parsed.output.length === 0) throw notFound(`Placa não encontrada: ${plate}`);
      return parsed.output;
    },
  };
}
