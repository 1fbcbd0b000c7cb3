/**
 * Faturas e pagamentos (/payments): the chosen customer's charges (SPEC §3: sortable by
 * document, status, createdAt), each status as its chip; a charge opens its invoice. When the
 * server has no payment system, the page says so; the support contact sits below.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { keys } from '../../api/keys';
import { listCharges, paymentSettings } from '../../api/payments';
import { isUnavailable } from '../../api/query';
import { type Charge, PAYMENT_METHOD_LABELS } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { paymentsText } from '../../i18n/payments';
import { formatCurrency, formatDay } from '../../lib/format';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { type ColumnDef, DataTable, type Sort } from '../../ui/DataTable';
import { Pagination } from '../../ui/Pagination';
import { EmptyState } from '../../ui/States';
import { ChargeState } from './ChargeStatus';
import { SupportContact } from './SupportContact';
import '../../ui/page.css';
import '../../ui/text.css';

type SortColumn = 'document' | 'status' | 'createdAt';

const columns: ColumnDef<Charge>[] = [
  {
    id: 'document',
    label: paymentsText.document,
    sortable: true,
    rowHeader: true,
    render: (c) => (
      <Link href={`/payments/${encodeURIComponent(c.id)}`} className="row-link">
        {c.document}
      </Link>
    ),
  },
  { id: 'description', label: paymentsText.description, render: (c) => c.description ?? '—' },
  {
    id: 'value',
    label: paymentsText.value,
    render: (c) => <span className="nowrap">{formatCurrency(c.value)}</span>,
  },
  { id: 'dueDate', label: paymentsText.dueDate, render: (c) => formatDay(c.dueDate) },
  { id: 'method', label: paymentsText.method, render: (c) => PAYMENT_METHOD_LABELS[c.method] },
  {
    id: 'status',
    label: paymentsText.status,
    sortable: true,
    render: (c) => <ChargeState charge={c} />,
  },
  {
    id: 'createdAt',
    label: paymentsText.createdAt,
    sortable: true,
    render: (c) => formatDay(c.createdAt),
  },
];

export function usePaymentSettings() {
  return useQuery({
    queryKey: keys.paymentSettings,
    queryFn: paymentSettings,
    staleTime: 5 * 60_000,
  });
}

export function NotConfigured() {
  return (
    <EmptyState title={paymentsText.notConfigured}>
      <p>{paymentsText.notConfiguredText}</p>
    </EmptyState>
  );
}

export function PaymentsPage() {
  const [clientId, setClientId] = useSelectedClient();
  const [sort, setSort] = useState<Sort<SortColumn>>({ column: 'createdAt', direction: 'desc' });
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const settings = usePaymentSettings();
  const params = { clientId, page, limit, sort: sort.column, order: sort.direction };
  const list = useQuery({
    queryKey: keys.chargeList(params),
    queryFn: () => listCharges(params),
    placeholderData: keepPreviousData,
    enabled: settings.data?.configured === true,
  });
  useErrorToast(list.error, paymentsText.fetchError);

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{paymentsText.title}</h1>
      </div>
      {settings.data && !settings.data.configured ? (
        <NotConfigured />
      ) : (
        <>
          <div className="filters">
            <CustomerPicker
              value={clientId}
              onChange={(id) => {
                setClientId(id);
                setPage(1);
              }}
            />
          </div>
          <DataTable
            label={paymentsText.title}
            columns={columns}
            rows={list.data?.charges ?? []}
            sort={sort}
            onSortChange={(next) => {
              setSort(next as Sort<SortColumn>);
              setPage(1);
            }}
            empty={paymentsText.empty}
            loading={list.isPending || list.isFetching}
            unavailable={isUnavailable(settings) || isUnavailable(list)}
          />
          <Pagination
            page={page}
            limit={limit}
            total={list.data?.total ?? 0}
            unknown={isUnavailable(settings) || isUnavailable(list)}
            onPageChange={setPage}
            onLimitChange={(next) => {
              setLimit(next);
              setPage(1);
            }}
          />
        </>
      )}
      <SupportContact compact />
    </section>
  );
}
