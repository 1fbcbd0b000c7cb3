/** What maintenance is due (`registros/maintenance-due`), for a customer's subtree. */
import * as v from 'valibot';
import {
  DueListSchema,
  MaintenancePlanPageSchema,
  MaintenancePlanSchema,
  ServiceRecordPageSchema,
  ServiceRecordSchema,
} from '../contract';
import { api } from './client';
import { resource } from './resources';

// Apart from resources.ts, which loads before the sign-in page: these load with their pages.
export const maintenancePlansApi = resource(
  'registros/maintenance-plans',
  MaintenancePlanSchema,
  MaintenancePlanPageSchema,
);
export const serviceRecordsApi = resource(
  'registros/service-records',
  ServiceRecordSchema,
  ServiceRecordPageSchema,
);

export async function dueList(clientId: string | null) {
  return v.parse(
    DueListSchema,
    await api
      .get('registros/maintenance-due', { searchParams: clientId ? { clientId } : {} })
      .json(),
  );
}
