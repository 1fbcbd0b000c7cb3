/** The report 'Comportamento do motorista' (`registros/reports/v2/driving`) and its weights. */
import * as v from 'valibot';
import {
  type DrivingReport,
  DrivingReportSchema,
  type DrivingSettings,
  DrivingSettingsSchema,
  type DrivingSettingsUpdate,
} from '../contract';
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

/** A company's driving-score weights (the defaults if it never changed them). */
export async function drivingSettings(clientId: string): Promise<DrivingSettings> {
  return v.parse(
    DrivingSettingsSchema,
    await api.get('registros/reports/v2/driving/settings', { searchParams: { clientId } }).json(),
  );
}

export async function saveDrivingSettings(body: DrivingSettingsUpdate): Promise<DrivingSettings> {
  return v.parse(
    DrivingSettingsSchema,
    await api.put('registros/reports/v2/driving/settings', { json: body }).json(),
  );
}
