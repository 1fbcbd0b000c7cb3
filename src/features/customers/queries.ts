/** The customers screens' reads, through the query cache: the paged list and one customer. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type CustomerListParams, getCustomer, listCustomers } from '../../api/customers';
import { keys } from '../../api/keys';
import { useErrorToast } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';

export function useCustomerList(params: CustomerListParams) {
  const query = useQuery({
    queryKey: keys.customerList(params),
    queryFn: () => listCustomers(params),
    placeholderData: keepPreviousData,
  });
  useErrorToast(query.error, t.customers.fetchError);
  return query;
}

export function useCustomer(id: string | undefined) {
  const query = useQuery({
    queryKey: keys.customer(id ?? ''),
    queryFn: () => getCustomer(id ?? ''),
    enabled: Boolean(id),
  });
  useErrorToast(query.error, t.customers.fetchError);
  return query;
}
