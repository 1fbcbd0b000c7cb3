/**
 * The customer a screen works on, shared by every screen that needs a clientId: every
 * visible customer for pickers and names (read once through the query cache), the customer
 * picked (kept per user, so each person finds their last choice again) and the companies
 * below it.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { listCustomers } from '../../api/customers';
import { keys } from '../../api/keys';
import { isUnavailable, LOOKUP_QUERY } from '../../api/query';
import { type CustomerRow, customerOptions } from '../../contract';
import { selectedClientKey } from '../../db/locations-boot';
import { useErrorToast } from '../../hooks/feedback';
import { useSession } from '../../hooks/useSession';
import { t } from '../../i18n/pt-BR';

/**
 * Every customer the user may see; pickers on every screen share this one read. Without
 * signal and with no copy kept by the service worker (the read paused), the picker
 * still offers the user's own company, and says why the others are missing.
 */
export function useCustomerOptions() {
  const query = useQuery({
    queryKey: keys.customerOptions,
    queryFn: () => listCustomers({ limit: 1000, sort: 'name' }),
    staleTime: 5 * 60_000,
    ...LOOKUP_QUERY,
  });
  useErrorToast(query.error, t.customers.fetchError);
  const own = useSession()?.user;
  const customers = query.data?.clients;
  const unavailable = isUnavailable(query);
  return useMemo(
    () => ({
      /** SPEC §3: label=name, value=id. */
      options: customers
        ? customerOptions(customers)
        : unavailable && own
          ? [{ label: own.clientName, value: own.clientId }]
          : [],
      loading: query.isPending && !unavailable,
      /** The list could not be read (no signal, nothing kept): only the user's own company. */
      unavailable,
      customers: customers ?? [],
      nameOf: (id: string) =>
        customers?.find((c) => c.id === id)?.name ??
        (id === own?.clientId ? own.clientName : undefined),
    }),
    [customers, query.isPending, unavailable, own],
  );
}

/** The customer and every company below it, among those the user sees. */
export function subtreeOf(
  rootId: string,
  customers: Pick<CustomerRow, 'id' | 'motherCompanyId'>[],
) {
  const children = new Map<string, string[]>();
  for (const c of customers) {
    if (!c.motherCompanyId) continue;
    children.set(c.motherCompanyId, [...(children.get(c.motherCompanyId) ?? []), c.id]);
  }
  const ids: string[] = [];
  const visit = (id: string) => {
    ids.push(id);
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(rootId);
  return ids;
}

/** The selected customer's company ids (itself first), as the server scopes its lists. */
export function useClientScope(clientId: string | null): string[] {
  const { customers } = useCustomerOptions();
  return useMemo(() => (clientId ? subtreeOf(clientId, customers) : []), [clientId, customers]);
}

const key = selectedClientKey;

/** The customer chosen in pickers, remembered per user; defaults to the user's own. */
export function useSelectedClient(): [string | null, (id: string | null) => void] {
  const current = useSession();
  const userId = current?.user.id;
  const fallback = current?.user.clientId ?? null;
  const [selected, setSelected] = useState<string | null>(() =>
    userId ? (localStorage.getItem(key(userId)) ?? fallback) : fallback,
  );
  const choose = useCallback(
    (id: string | null) => {
      setSelected(id);
      if (!userId) return;
      if (id) localStorage.setItem(key(userId), id);
      else localStorage.removeItem(key(userId));
    },
    [userId],
  );
  return [selected, choose];
}
