/** The report 'Comportamento do motorista' (`registros/reports/v2/driving`). */
import * as v from 'valibot';
import { type DrivingReport, DrivingReportSchema } from '../contract';
import { api } from './client';

export async function drivingReport(
  month: string,
  clientId: string | null,
): Promise<DrivingReport> {
  const body = await api
    .get('registros/reports/v2/driving', {
      searchParams: clientId ? { month, clientId } : { month },
      timeout: 120_000,
    })
    .json();
  return v.parse(DrivingReportSchema, body);
}
