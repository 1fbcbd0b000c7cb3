/**
 * Manutenção (/fleet-management/maintenance): what each vehicle is due for, the most urgent
 * first, with how much of each interval is left (km, engine hours, days) as bars; sortable,
 * filtered by status, for the selected customer and the companies below it.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-aria-components';
import { dueList } from '../../api/maintenance';
import { isUnavailable } from '../../api/query';
import { DUE_STATUSES, type DueItem, type DueStatus } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { maintenanceText } from '../../i18n/maintenance';
import { t } from '../../i18n/pt-BR';
import { formatDay } from '../../lib/format';
import { useAccess } from '../../shared/areas/useAccess';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { type ColumnDef, DataTable, type Sort } from '../../ui/DataTable';
import { Progress } from '../../ui/Progress';
import { Select } from '../../ui/Select';
import { EmptyState } from '../../ui/States';
import '../../ui/badge.css';
import '../../ui/page.css';
import './DueListPage.css';

const text = maintenanceText;
const BADGE: Record<DueStatus, string> = {
  ok: 'badge-success',
  soon: 'badge-warning',
  overdue: 'badge-danger',
};
const RANK: Record<DueStatus, number> = { overdue: 0, soon: 1, ok: 2 };

/** How much of the interval is used, 0–100 (past the limit: full). */
const used = (left: number, every: number) =>
  Math.max(0, Math.min(100, Math.round(((every - left) / every) * 100)));

function Bars({ item }: { item: DueItem }) {
  return (
    <div className="due-bars">
      {item.km && (
        <Progress
          label={text.kmLeft}
          value={item.km.left === null ? undefined : used(item.km.left, item.km.every)}
          valueText={
            item.km.left === null ? text.noReading : text.kmOf(item.km.left, item.km.every)
          }
        />
      )}
      {item.hours && (
        <Progress
          label={text.hoursLeft}
          value={item.hours.left === null ? undefined : used(item.hours.left, item.hours.every)}
          valueText={
            item.hours.left === null
              ? text.noReading
              : text.hoursOf(item.hours.left, item.hours.every)
          }
        />
      )}
      {item.days && (
        <Progress
          label={text.daysLeft}
          value={used(item.days.left, item.days.every)}
          valueText={`${text.daysOf(item.days.left, item.days.every)} · ${text.dueOn(formatDay(item.days.due), item.days.left < 0)}`}
        />
      )}
    </div>
  );
}

type Row = DueItem & { id: string };
const compare: Record<string, (a: Row, b: Row) => number> = {
  status: (a, b) => RANK[a.status] - RANK[b.status],
  vehicle: (a, b) => a.plate.localeCompare(b.plate, 'pt-BR'),
  plan: (a, b) => a.planName.localeCompare(b.planName, 'pt-BR'),
  progress: (a, b) =>
    (a.days?.left ?? Number.POSITIVE_INFINITY) - (b.days?.left ?? Number.POSITIVE_INFINITY) ||
    (a.km?.left ?? Number.POSITIVE_INFINITY) - (b.km?.left ?? Number.POSITIVE_INFINITY),
  lastService: (a, b) => (a.lastServiceDate ?? '').localeCompare(b.lastServiceDate ?? ''),
};

const columns: ColumnDef<Row>[] = [
  {
    id: 'status',
    label: text.status,
    sortable: true,
    render: (i) => <span className={`badge ${BADGE[i.status]}`}>{text.statuses[i.status]}</span>,
  },
  {
    id: 'vehicle',
    label: text.vehicle,
    sortable: true,
    rowHeader: true,
    render: (i) => `${i.plate} | ${i.vehicleName}`,
  },
  { id: 'plan', label: text.name, sortable: true, render: (i) => i.planName },
  { id: 'progress', label: text.intervals, sortable: true, render: (i) => <Bars item={i} /> },
  {
    id: 'lastService',
    label: text.lastService,
    sortable: true,
    render: (i) => (i.lastServiceDate ? formatDay(i.lastServiceDate) : text.never),
  },
];

export function DueListPage() {
  const [clientId, setClientId] = useSelectedClient();
  const [status, setStatus] = useState<'all' | DueStatus>('all');
  const [sort, setSort] = useState<Sort>({ column: 'status', direction: 'asc' });
  const plans = useAccess('/fleet-management/maintenance-plans');
  const records = useAccess('/fleet-management/service-records');
  const query = useQuery({
    queryKey: ['maintenance-due', clientId],
    queryFn: () => dueList(clientId),
  });
  useErrorToast(query.error, text.loadError);
  const rows = useMemo(() => {
    const all = (query.data?.items ?? [])
      .map((i) => ({ ...i, id: `${i.planId}:${i.vehicleId}` }))
      .filter((i) => status === 'all' || i.status === status);
    const by = compare[sort.column] ?? compare.status;
    const sign = sort.direction === 'asc' ? 1 : -1;
    // The server's order (most urgent first) breaks ties.
    return by
      ? all
          .map((row, n) => ({ row, n }))
          .sort((a, b) => sign * by(a.row, b.row) || a.n - b.n)
          .map((x) => x.row)
      : all;
  }, [query.data, status, sort]);

  return (
    <section className="page due-page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{text.title}</h1>
        <nav className="due-links" aria-label={text.title}>
          {plans.read && (
            <Link className="btn btn-secondary" href="/fleet-management/maintenance-plans">
              {text.managePlans}
            </Link>
          )}
          {records.read && (
            <Link className="btn btn-secondary" href="/fleet-management/service-records">
              {text.manageRecords}
            </Link>
          )}
        </nav>
      </div>
      <div className="filters">
        <CustomerPicker value={clientId} onChange={setClientId} />
        <Select
          label={text.filterLabel}
          value={status}
          onChange={(next) => setStatus(next as 'all' | DueStatus)}
          options={[
            { value: 'all', label: text.filterAll },
            ...DUE_STATUSES.map((s) => ({ value: s, label: text.statuses[s] })),
          ]}
        />
      </div>
      {isUnavailable(query) ? (
        <EmptyState title={t.network.offline}>
          <p>{text.offline}</p>
        </EmptyState>
      ) : (
        <DataTable
          label={text.dueTitle}
          columns={columns}
          rows={rows}
          sort={sort}
          onSortChange={setSort}
          empty={text.noneDue}
          loading={query.isLoading}
        />
      )}
    </section>
  );
}
