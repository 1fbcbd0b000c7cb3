/**
 * Abastecimentos (/fleet-management/refuels): a customer's refuels in a period (one vehicle or
 * all), what looks wrong about each as a badge with its reason, the consumption of each
 * vehicle between full tanks, and the import of a fuel card's file.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { isUnavailable } from '../../api/query';
import { refuelsApi } from '../../api/refuels';
import type { Refuel } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';
import { refuelsText } from '../../i18n/refuels';
import { type DayRange, formatDateTime, periodOf, shiftDay, today } from '../../lib/day-range';
import { formatCurrency } from '../../lib/format';
import { useAccess } from '../../shared/areas/useAccess';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { useVehicleOptions } from '../../shared/vehicles/useVehicleOptions';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { Select } from '../../ui/Select';
import { EmptyState } from '../../ui/States';
import { TextField } from '../../ui/TextField';
import { ConsumptionPanel } from './ConsumptionPanel';
import { ImportPanel } from './ImportPanel';
import '../../ui/badge.css';
import '../../ui/page.css';
import '../../ui/text.css';
import './RefuelsPage.css';

const text = refuelsText;
const ALL = 'all';
const LIMIT = 500;
const n = (x: number, digits = 2) =>
  x.toLocaleString('pt-BR', { minimumFractionDigits: 0, maximumFractionDigits: digits });

const columns: ColumnDef<Refuel>[] = [
  {
    id: 'at',
    label: text.at,
    rowHeader: true,
    render: (r) => (
      <Link href={`/fleet-management/refuels/${r.id}`} className="cell-link">
        {formatDateTime(r.at)}
      </Link>
    ),
  },
  {
    id: 'vehicle',
    label: text.vehicle,
    render: (r) => (
      <span className="refuel-who">
        <strong>{r.plate ?? '—'}</strong>
        {r.driverName && <span className="muted">{r.driverName}</span>}
        {r.station && <span className="muted">{r.station}</span>}
      </span>
    ),
  },
  { id: 'liters', label: text.liters, render: (r) => n(r.liters) },
  { id: 'price', label: text.price, render: (r) => n(r.pricePerLiter, 3) },
  { id: 'total', label: text.total, render: (r) => formatCurrency(r.total) },
  { id: 'odometer', label: text.odometer, render: (r) => n(r.odometerKm, 1) },
  { id: 'full', label: text.fullShort, render: (r) => (r.fullTank ? text.yes : text.no) },
  {
    id: 'flags',
    label: text.flags,
    render: (r) =>
      r.flags.length === 0 ? (
        '—'
      ) : (
        <ul className="refuel-flags">
          {r.flags.map((f) => (
            <li key={f.code}>
              <span className="badge badge-warning">{text.flagLabels[f.code] ?? f.code}</span>
              <span className="refuel-flag-text">{f.message}</span>
            </li>
          ))}
        </ul>
      ),
  },
];

export function RefuelsPage() {
  const [clientId, setClientId] = useSelectedClient();
  const [vehicleId, setVehicleId] = useState<string>(ALL);
  const [range, setRange] = useState<DayRange>({ from: shiftDay(today(), -29), to: today() });
  const access = useAccess('/fleet-management/refuels');
  const vehicles = useVehicleOptions(clientId);
  const valid = Boolean(range.from && range.to && range.from <= range.to);
  const period = valid ? periodOf(range) : undefined;
  const params = {
    clientId,
    vehicleId: vehicleId === ALL ? undefined : vehicleId,
    from: period?.beginAt,
    to: period ? new Date(Date.parse(period.endAt) - 1).toISOString() : undefined,
    sort: 'at',
    order: 'desc' as const,
    limit: LIMIT,
  };
  const query = useQuery({
    queryKey: ['refuels', params],
    queryFn: () => refuelsApi.list(params),
    enabled: Boolean(clientId) && valid,
  });
  useErrorToast(query.error, text.loadError);
  const rows = query.data?.refuels ?? [];
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{text.title}</h1>
        {access.write && (
          <Link href="/fleet-management/refuels/create" className="btn btn-primary">
            {text.newRefuel}
          </Link>
        )}
      </div>
      <div className="filters refuel-filters">
        <CustomerPicker value={clientId} onChange={setClientId} />
        <Select
          label={text.vehicle}
          value={vehicleId}
          onChange={setVehicleId}
          options={[{ value: ALL, label: text.allVehicles }, ...vehicles]}
        />
        <TextField
          label={text.from}
          type="date"
          value={range.from}
          onChange={(from) => setRange((r) => ({ ...r, from }))}
        />
        <TextField
          label={text.to}
          type="date"
          value={range.to}
          onChange={(to) => setRange((r) => ({ ...r, to }))}
        />
      </div>
      {clientId && period && (
        <ConsumptionPanel
          clientId={clientId}
          vehicleId={params.vehicleId}
          from={params.from}
          to={params.to}
        />
      )}
      {isUnavailable(query) ? (
        <EmptyState title={t.network.offline}>
          <p>{text.offline}</p>
        </EmptyState>
      ) : (
        <>
          <DataTable
            label={text.title}
            columns={columns}
            rows={rows}
            empty={text.none}
            loading={query.isLoading}
          />
          {query.data && <p className="muted">{text.shown(rows.length, query.data.total)}</p>}
        </>
      )}
      {access.write && <ImportPanel clientId={clientId} onDone={() => void query.refetch()} />}
    </section>
  );
}
