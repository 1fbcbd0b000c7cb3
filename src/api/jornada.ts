/** The driver's working day (`registros/jornada`): the days worked out by the server. */
import * as v from 'valibot';
import { JornadaReportSchema, JornadaSettingsSchema, MarkListSchema } from '../contract';
import { api } from './client';
import { fileNameOf } from './reports';

export async function jornadaDays(driverId: string, from: string, to: string) {
  return v.parse(
    JornadaReportSchema,
    await api
      .get(`registros/jornada/drivers/${driverId}/days`, { searchParams: { from, to } })
      .json(),
  );
}

/** A driver's marks on the days given (São Paulo), in time order. */
export async function jornadaMarks(driverId: string, from: string, to: string) {
  return v.parse(
    MarkListSchema,
    await api
      .get(`registros/jornada/drivers/${driverId}/marks`, { searchParams: { from, to } })
      .json(),
  ).items;
}

/** A driver's days as a file: the report ('jornada') or the month's 'espelho' de ponto. */
export async function jornadaFile(
  driverId: string,
  query: { from: string; to: string; format: 'pdf' | 'excel'; kind: 'jornada' | 'espelho' },
) {
  const response = await api.get(`registros/jornada/drivers/${driverId}/file`, {
    searchParams: query,
    timeout: false,
  });
  return {
    blob: await response.blob(),
    name: fileNameOf(
      response.headers.get('content-disposition'),
      `${query.kind}.${query.format === 'pdf' ? 'pdf' : 'xlsx'}`,
    ),
  };
}

/** A company's working-day rules (cargo or passengers, overtime allowed). */
export async function jornadaSettings(clientId: string) {
  return v.parse(
    JornadaSettingsSchema,
    await api.get('registros/jornada/settings', { searchParams: { clientId } }).json(),
  );
}

export async function saveJornadaSettings(body: {
  clientId: string;
  regime?: 'cargo' | 'passageiros';
  overtimeLimitMinutes?: number;
}) {
  return v.parse(
    JornadaSettingsSchema,
    await api.put('registros/jornada/settings', { json: body }).json(),
  );
}
