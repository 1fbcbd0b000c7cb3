/** What expires (`registros/documents-expiring`), for a customer's subtree. */
import * as v from 'valibot';
import { DocumentPageSchema, DocumentSchema, ExpiringListSchema } from '../contract';
import { api } from './client';
import { resource } from './resources';

// Apart from resources.ts, which loads before the sign-in page: this loads with its pages.
export const documentsApi = resource('registros/documents', DocumentSchema, DocumentPageSchema);

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
