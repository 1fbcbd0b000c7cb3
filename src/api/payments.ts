/**
 * Invoices and payments (SPEC §7 `registros/payments/individual-charges`,
 * `registros/invoices/{id}`), whether payments are set up, and the support contact.
 */
import * as v from 'valibot';
import {
  type ChargePage,
  ChargePageSchema,
  type Invoice,
  InvoiceSchema,
  PaymentSettingsSchema,
  type SupportContact,
  SupportContactSchema,
} from '../contract';
import { removeEmptyProperties } from '../lib/clean';
import { api } from './client';

export interface ChargeListParams {
  clientId?: string | null;
  page?: number;
  limit?: number;
  sort?: 'document' | 'status' | 'createdAt';
  order?: 'asc' | 'desc';
}

export async function listCharges(params: ChargeListParams): Promise<ChargePage> {
  const searchParams = removeEmptyProperties({ ...params }) as Record<string, string | number>;
  return v.parse(
    ChargePageSchema,
    await api.get('registros/payments/individual-charges', { searchParams }).json(),
  );
}

export async function getInvoice(id: string): Promise<Invoice> {
  return v.parse(
    InvoiceSchema,
    await api.get(`registros/invoices/${encodeURIComponent(id)}`).json(),
  );
}

export async function paymentSettings() {
  return v.parse(PaymentSettingsSchema, await api.get('registros/payments/settings').json());
}

export async function supportContact(): Promise<SupportContact> {
  return v.parse(SupportContactSchema, await api.get('registros/support').json());
}
