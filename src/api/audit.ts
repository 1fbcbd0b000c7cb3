/** The audit log (`registros/audit`): a page of lines, and the same lines as a spreadsheet. */
import * as v from 'valibot';
import { AuditPageSchema } from '../contract';
import { removeEmptyProperties } from '../lib/clean';
import { api } from './client';
import { fileNameOf } from './reports';

export interface AuditFilters {
  from?: string | undefined;
  to?: string | undefined;
  userId?: string | undefined;
  clientId?: string | undefined;
  kind?: string | undefined;
  entity?: string | undefined;
  entityId?: string | undefined;
}

const params = (filters: AuditFilters, extra: Record<string, number> = {}) =>
  removeEmptyProperties({ ...filters, ...extra }) as Record<string, string | number>;

export async function auditPage(filters: AuditFilters, page: number, pageSize: number) {
  return v.parse(
    AuditPageSchema,
    await api.get('registros/audit', { searchParams: params(filters, { page, pageSize }) }).json(),
  );
}

export async function auditSpreadsheet(filters: AuditFilters) {
  const response = await api.get('registros/audit/download', {
    searchParams: params(filters),
    timeout: false,
  });
  return {
    blob: await response.blob(),
    name: fileNameOf(response.headers.get('content-disposition'), 'auditoria.xlsx'),
  };
}
