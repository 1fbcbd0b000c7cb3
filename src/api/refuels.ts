/** Refuels, their import and consumption, and vehicles' expenses: loaded with their pages. */
import * as v from 'valibot';
import {
  ConsumptionListSchema,
  ExpensePageSchema,
  ExpenseSchema,
  FleetCostListSchema,
  RefuelImportResultSchema,
  RefuelPageSchema,
  RefuelSchema,
} from '../contract';
import { api } from './client';
import { resource } from './resources';

export const refuelsApi = resource('registros/refuels', RefuelSchema, RefuelPageSchema);
export const expensesApi = resource('registros/expenses', ExpenseSchema, ExpensePageSchema);

export async function refuelConsumption(params: {
  clientId: string;
  vehicleId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}) {
  const searchParams: Record<string, string> = { clientId: params.clientId };
  if (params.vehicleId) searchParams.vehicleId = params.vehicleId;
  if (params.from) searchParams.from = params.from;
  if (params.to) searchParams.to = params.to;
  return v.parse(
    ConsumptionListSchema,
    await api.get('registros/refuels-consumption', { searchParams }).json(),
  );
}

export async function importRefuels(clientId: string, content: string) {
  return v.parse(
    RefuelImportResultSchema,
    await api.post('registros/refuels-import', { json: { clientId, content } }).json(),
  );
}

export interface FleetCostParams {
  clientId: string;
  from: string;
  to: string;
}

export async function fleetCosts(params: FleetCostParams) {
  return v.parse(
    FleetCostListSchema,
    await api.get('registros/fleet-costs', { searchParams: { ...params } }).json(),
  );
}

export async function fleetCostFile(params: FleetCostParams, format: 'pdf' | 'excel') {
  return api.get('registros/fleet-costs/file', { searchParams: { ...params, format } }).blob();
}
