/** Customer calls of SPEC §7, parsed with the contract. */
import * as v from 'valibot';
import {
  CepResultSchema,
  type CustomerCreate,
  CustomerRowPageSchema,
  CustomerSchema,
  type CustomerUpdate,
  MessageSchema,
} from '../contract';
import { removeEmptyProperties } from '../lib/clean';
import { api } from './client';

export interface CustomerListParams {
  search?: string;
  page?: number;
  limit?: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

export async function listCustomers(params: CustomerListParams = {}) {
  const searchParams = removeEmptyProperties({ ...params }) as Record<string, string | number>;
  return v.parse(CustomerRowPageSchema, await api.get('registros/client', { searchParams }).json());
}

export async function getCustomer(id: string) {
  return v.parse(CustomerSchema, await api.get(`registros/client/${id}`).json());
}

export async function createCustomer(body: CustomerCreate) {
  return v.parse(
    CustomerSchema,
    await api.post('registros/client', { json: removeEmptyProperties(body) }).json(),
  );
}

export async function updateCustomer(id: string, body: CustomerUpdate) {
  return v.parse(CustomerSchema, await api.patch(`registros/client/${id}`, { json: body }).json());
}

export async function deleteCustomer(id: string) {
  return v.parse(MessageSchema, await api.delete(`registros/client/${id}`).json());
}

export async function lookupCep(cep: string) {
  return v.parse(CepResultSchema, await api.get(`registros/autocomplete/cep/${cep}`).json());
}
