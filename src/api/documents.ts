/** What expires (`registros/documents-expiring`), for a customer's subtree. */
import * as v from 'valibot';
import { ExpiringListSchema } from '../contract';
import { api } from './client';

export async function expiringDocuments(clientId: string | null, days: number) {
  return v.parse(
    ExpiringListSchema,
    await api
      .get('registros/documents-expiring', {
        searchParams: clientId ? { clientId, days } : { days },
      })
      .json(),
  );
}
