/**
 * Documentos (/fleet-management/documents): what expires in the next 30, 60 or 90 days (or
 * all), what already expired first, vehicles' and drivers' papers together with each driver's
 * CNH. A document opens its form; a CNH opens its driver.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { expiringDocuments } from '../../api/documents';
import { isUnavailable } from '../../api/query';
import type { ExpiringItem } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { documentsText } from '../../i18n/documents';
import { t } from '../../i18n/pt-BR';
import { formatDay } from '../../lib/format';
import { useAccess } from '../../shared/areas/useAccess';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { Select } from '../../ui/Select';
import { EmptyState } from '../../ui/States';
import '../../ui/badge.css';
import '../../ui/page.css';

const text = documentsText;
const WINDOWS = [30, 60, 90, 3650] as const;

const hrefOf = (i: ExpiringItem) =>
  i.kind === 'cnh'
    ? `/management/drivers/${i.driverId}`
    : `/fleet-management/documents/${encodeURIComponent(i.id)}`;

const badgeOf = (days: number) =>
  days < 0 ? 'badge-danger' : days <= 30 ? 'badge-warning' : 'badge-neutral';

const columns: ColumnDef<ExpiringItem>[] = [
  {
    id: 'document',
    label: text.document,
    rowHeader: true,
    render: (i) => (
      <Link href={hrefOf(i)} className="cell-link">
        {i.label}
      </Link>
    ),
  },
  {
    id: 'whose',
    label: text.whose,
    render: (i) => i.plate ?? i.driverName ?? '—',
  },
  { id: 'number', label: text.number, render: (i) => i.number ?? '—' },
  { id: 'expiry', label: text.expiry, render: (i) => formatDay(i.expiry) },
  {
    id: 'left',
    label: text.daysLeft,
    render: (i) => <span className={`badge ${badgeOf(i.daysLeft)}`}>{text.left(i.daysLeft)}</span>,
  },
];

export function DocumentsPage() {
  const [clientId, setClientId] = useSelectedClient();
  const [days, setDays] = useState<number>(30);
  const access = useAccess('/fleet-management/documents');
  const query = useQuery({
    queryKey: ['documents-expiring', clientId, days],
    queryFn: () => expiringDocuments(clientId, days),
  });
  useErrorToast(query.error, text.loadError);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{text.title}</h1>
        {access.write && (
          <Link href="/fleet-management/documents/create" className="btn btn-primary">
            {text.newDocument}
          </Link>
        )}
      </div>
      <div className="filters">
        <CustomerPicker value={clientId} onChange={setClientId} />
        <Select
          label={text.window}
          value={String(days)}
          onChange={(next) => setDays(Number(next))}
          options={WINDOWS.map((w) => ({ value: String(w), label: text.windows[w] ?? '' }))}
        />
      </div>
      {isUnavailable(query) ? (
        <EmptyState title={t.network.offline}>
          <p>{text.offline}</p>
        </EmptyState>
      ) : (
        <DataTable
          label={text.title}
          columns={columns}
          rows={query.data?.items ?? []}
          empty={text.none}
          loading={query.isLoading}
        />
      )}
    </section>
  );
}
