/** km/L and cost per km of each vehicle between full tanks, with a line of its km/L. */
import { useQuery } from '@tanstack/react-query';
import { refuelConsumption } from '../../api/refuels';
import type { VehicleConsumption } from '../../contract';
import { refuelsText } from '../../i18n/refuels';
import { formatCurrency } from '../../lib/format';
import { type ColumnDef, DataTable } from '../../ui/DataTable';

const text = refuelsText;
const n = (x: number | null, digits = 2) =>
  x === null
    ? '—'
    : x.toLocaleString('pt-BR', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A small line of the km/L of each interval, oldest first. */
function Trend({ v }: { v: VehicleConsumption }) {
  const values = v.intervals.map((i) => i.kmPerLiter);
  if (values.length < 2) return <>—</>;
  const max = Math.max(...values);
  const min = Math.min(...values);
  const w = 120;
  const h = 28;
  const points = values
    .map((y, i) => {
      const px = (i / (values.length - 1)) * (w - 4) + 2;
      const py = h - 2 - ((y - min) / (max - min || 1)) * (h - 4);
      return `${px.toFixed(1)},${py.toFixed(1)}`;
    })
    .join(' ');
  return (
    <svg
      className="refuel-trend"
      width={w}
      height={h}
      role="img"
      aria-label={text.trendOf(v.plate)}
    >
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

const columns: ColumnDef<VehicleConsumption>[] = [
  {
    id: 'plate',
    label: text.vehicle,
    rowHeader: true,
    render: (v) => (
      <span className="refuel-who">
        <strong>{v.plate}</strong>
        <span className="muted">{v.name}</span>
      </span>
    ),
  },
  { id: 'refuels', label: text.refuels, render: (v) => String(v.refuels) },
  { id: 'liters', label: text.liters, render: (v) => n(v.liters, 1) },
  { id: 'spent', label: text.spent, render: (v) => formatCurrency(v.spent) },
  { id: 'km', label: text.km, render: (v) => n(v.km, 0) },
  { id: 'kmpl', label: text.kmPerLiter, render: (v) => n(v.kmPerLiter) },
  { id: 'cpk', label: text.costPerKm, render: (v) => n(v.costPerKm) },
  { id: 'trend', label: text.trend, render: (v) => <Trend v={v} /> },
];

export function ConsumptionPanel(props: {
  clientId: string;
  vehicleId: string | undefined;
  from: string | undefined;
  to: string | undefined;
}) {
  const query = useQuery({
    queryKey: ['refuels-consumption', props],
    queryFn: () => refuelConsumption(props),
  });
  return (
    <section className="panel refuel-consumption" aria-labelledby="consumption-title">
      <h2 id="consumption-title">{text.consumption}</h2>
      <p className="muted">{text.consumptionHint}</p>
      <DataTable
        label={text.consumption}
        columns={columns}
        rows={(query.data?.vehicles ?? []).map((v) => ({ ...v, id: v.vehicleId }))}
        empty={text.noConsumption}
        loading={query.isLoading}
      />
    </section>
  );
}
