/**
 * Calls of the customer-owned inventory resources, one shape for all: list with paging and
 * filters, read, create, update, remove, each answer parsed with the contract.
 */
import * as v from 'valibot';
import {
  AlertRulePageSchema,
  AlertRuleSchema,
  DriverPageSchema,
  DriverSchema,
  FleetPageSchema,
  FleetSchema,
  MessageSchema,
  SimCardPageSchema,
  SimCardSchema,
  TrackerPageSchema,
  TrackerSchema,
  TrackerTypePageSchema,
  TrackerTypeSchema,
  VehiclePageSchema,
  VehicleSchema,
} from '../contract';
import { removeEmptyProperties } from '../lib/clean';
import { api } from './client';

export interface ListParams {
  clientId?: string | null;
  search?: string;
  page?: number;
  limit?: number;
  sort?: string;
  order?: 'asc' | 'desc';
  [key: string]: string | number | boolean | null | undefined;
}

export interface ResourceApi<T, P> {
  path: string;
  list(params: ListParams): Promise<P>;
  get(id: string): Promise<T>;
  create(body: object): Promise<T>;
  update(id: string, body: object): Promise<T>;
  remove(id: string): Promise<string>;
}

export function resource<T, P>(
  path: string,
  item: v.GenericSchema<unknown, T>,
  page: v.GenericSchema<unknown, P>,
): ResourceApi<T, P> {
  return {
    path,
    async list(params) {
      const searchParams = removeEmptyProperties({ ...params }) as Record<
        string,
        string | number | boolean
      >;
      return v.parse(page, await api.get(path, { searchParams }).json());
    },
    async get(id) {
      return v.parse(item, await api.get(`${path}/${id}`).json());
    },
    async create(body) {
      return v.parse(item, await api.post(path, { json: removeEmptyProperties(body) }).json());
    },
    async update(id, body) {
      return v.parse(item, await api.patch(`${path}/${id}`, { json: body }).json());
    },
    async remove(id) {
      return v.parse(MessageSchema, await api.delete(`${path}/${id}`).json()).message;
    },
  };
}

export const vehiclesApi = resource('registros/vehicle', VehicleSchema, VehiclePageSchema);
export const driversApi = resource('registros/driver', DriverSchema, DriverPageSchema);
export const simCardsApi = resource('registros/simcard', SimCardSchema, SimCardPageSchema);
export const trackersApi = resource('registros/tracker', TrackerSchema, TrackerPageSchema);
export const trackerTypesApi = resource(
  'registros/tracker-types',
  TrackerTypeSchema,
  TrackerTypePageSchema,
);
export const fleetsApi = resource('tech-integracao/v1/fleets', FleetSchema, FleetPageSchema);
export const alertRulesApi = resource(
  'registros/alert-rules',
  AlertRuleSchema,
  AlertRulePageSchema,
);
