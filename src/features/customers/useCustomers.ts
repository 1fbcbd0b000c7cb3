/**
 * Customer data for screens: the paged list, one customer, the options of every visible
 * customer for pickers, and the customer picked on screens that need a clientId (kept per
 * user, so each person finds their last choice again).
 */
import { useCallback, useEffect, useState } from 'react';
import { type CustomerListParams, getCustomer, listCustomers } from '../../api/customers';
import { toastError } from '../../app/feedback';
import { useAsync } from '../../app/useAsync';
import { useSession } from '../../app/useSession';
import { customerOptions } from '../../contract';
import { t } from '../../i18n/pt-BR';

export function useCustomerList(params: CustomerListParams) {
  const state = useAsync(() => listCustomers(params), [JSON.stringify(params)]);
  useEffect(() => {
    if (state.error) void toastError(t.customers.fetchError, state.error);
  }, [state.error]);
  return state;
}

export function useCustomer(id: string | undefined) {
  const state = useAsync(id ? () => getCustomer(id) : null, [id]);
  useEffect(() => {
    if (state.error) void toastError(t.customers.fetchError, state.error);
  }, [state.error]);
  return state;
}

/** Every customer the user may see, as label=name / value=id options (SPEC §3). */
export function useCustomerOptions() {
  const state = useAsync(() => listCustomers({ limit: 1000, sort: 'name' }), []);
  useEffect(() => {
    if (state.error) void toastError(t.customers.fetchError, state.error);
  }, [state.error]);
  return {
    options: state.data ? customerOptions(state.data.clients) : [],
    loading: state.loading,
    customers: state.data?.clients ?? [],
  };
}

const key = (userId: string) => `selectedClient:${userId}`;

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
