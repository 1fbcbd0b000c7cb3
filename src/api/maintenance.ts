/** What maintenance is due (`registros/maintenance-due`), for a customer's subtree. */
import * as v from 'valibot';
import { DueListSchema } from '../contract';
import { api } from './client';

export async function dueList(clientId: string | null) {
  return v.parse(
    DueListSchema,
    await api
      .get('registros/maintenance-due', { searchParams: clientId ? { clientId } : {} })
      .json(),
  );
}
