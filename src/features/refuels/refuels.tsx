import { refuelsApi } from '../../api/refuels';
import { type Refuel, RefuelCreateSchema } from '../../contract';
import { t } from '../../i18n/pt-BR';
import { refuelsText } from '../../i18n/refuels';
import { formatDateTime } from '../../lib/day-range';
import { dayStart, reportDay } from '../../lib/report-period';
import { withFirst } from '../../shared/choices';
import { useDriverChoices } from '../../shared/drivers/useDriverOptions';
import { clear, messages, opt } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';

const text = refuelsText;
const NO_DRIVER = 'none';

type RefuelValues = {
  clientId: string | null;
  vehicleId: string;
  driverId: string;
  date: string;
  time: string;
  liters: string;
  pricePerLiter: string;
  total: string;
  odometerKm: string;
  station: string;
  fullTank: boolean;
  notes: string;
  active: boolean;
};

/** '1.234,56', '45,3' or '45.3': a number, or undefined when empty. */
export function decimal(value: string): number | undefined {
  const t0 = value.trim();
  if (t0 === '') return undefined;
  const plain = t0.includes(',') ? t0.replace(/\./g, '').replace(',', '.') : t0;
  return Number(plain);
}
const br = (n: number) => String(n).replace('.', ',');

/** The São Paulo clock 'hh:mm' of an instant. */
const clockOf = (iso: string) => {
  const ms = Date.parse(iso);
  const minutes = Math.round((ms - dayStart(reportDay(ms)).getTime()) / 60_000);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
};
/** The instant of a São Paulo date and 'hh:mm'. */
const instantOf = (date: string, time: string) => {
  const [h = 0, m = 0] = (time || '00:00').split(':').map(Number);
  return new Date(dayStart(date).getTime() + (h * 60 + m) * 60_000).toISOString();
};

export const refuelScreen: ResourceConfig<
  Refuel,
  Awaited<ReturnType<typeof refuelsApi.list>>,
  RefuelValues
> = {
  title: text.title,
  newTitle: text.newRefuel,
  basePath: '/fleet-management/refuels',
  api: refuelsApi,
  items: (p) => p.refuels,
  total: (p) => p.total,
  nameOf: (r) => `${r.plate ?? ''} ${formatDateTime(r.at)}`.trim(),
  byClient: true,
  searchLabel: text.search,
  defaultSort: 'at',
  columns: [
    { id: 'at', label: text.at, rowHeader: true, render: (r) => formatDateTime(r.at) },
    { id: 'plate', label: text.vehicle, render: (r) => r.plate ?? '—' },
    { id: 'liters', label: text.liters, render: (r) => br(r.liters) },
  ],
  fields: [
    { key: 'clientId', label: text.customer, kind: 'customer' },
    { key: 'vehicleId', label: text.vehicle, kind: 'select', required: true },
    { key: 'driverId', label: text.driver, kind: 'select' },
    { key: 'date', label: text.date, type: 'date', required: true },
    { key: 'time', label: text.time, type: 'time', required: true },
    { key: 'liters', label: text.liters, required: true },
    { key: 'pricePerLiter', label: text.pricePerLiter, description: text.totalHint },
    { key: 'total', label: text.total },
    { key: 'odometerKm', label: text.odometer, required: true, description: text.odometerHint },
    { key: 'station', label: text.station },
    { key: 'fullTank', label: text.fullTank, kind: 'switch', switchLabel: text.fullTankOn },
    { key: 'notes', label: text.notes },
    { key: 'active', label: t.screens.fleets.status, kind: 'switch' },
  ],
  useOptions: (values) => ({
    vehicleId: useVehicleChoices(values.clientId),
    driverId: withFirst(
      [{ value: NO_DRIVER, label: text.noDriver }],
      useDriverChoices(values.clientId),
    ),
  }),
  empty: (clientId) => ({
    clientId,
    vehicleId: '',
    driverId: NO_DRIVER,
    date: reportDay(Date.now()),
    time: clockOf(new Date().toISOString()),
    liters: '',
    pricePerLiter: '',
    total: '',
    odometerKm: '',
    station: '',
    fullTank: true,
    notes: '',
    active: true,
  }),
  fromItem: (r) => ({
    clientId: r.clientId,
    vehicleId: r.vehicleId,
    driverId: r.driverId ?? NO_DRIVER,
    date: reportDay(Date.parse(r.at)),
    time: clockOf(r.at),
    liters: br(r.liters),
    pricePerLiter: br(r.pricePerLiter),
    total: br(r.total),
    odometerKm: br(r.odometerKm),
    station: r.station ?? '',
    fullTank: r.fullTank,
    notes: r.notes ?? '',
    active: r.active,
  }),
  // The price wins: the total is sent only without one, and the server computes the other.
  toPayload: (x, editing) => {
    const price = decimal(x.pricePerLiter);
    return {
      clientId: x.clientId ?? undefined,
      vehicleId: x.vehicleId || undefined,
      driverId: x.driverId && x.driverId !== NO_DRIVER ? x.driverId : editing ? null : undefined,
      at: x.date ? instantOf(x.date, x.time) : undefined,
      liters: decimal(x.liters),
      pricePerLiter: price,
      total: price === undefined ? decimal(x.total) : undefined,
      odometerKm: decimal(x.odometerKm),
      station: editing ? clear(x.station, editing) : opt(x.station),
      fullTank: x.fullTank,
      notes: editing ? clear(x.notes, editing) : opt(x.notes),
      active: x.active,
    };
  },
  schema: RefuelCreateSchema,
  messages: messages(text.refuelMessages.one, 'o', text.refuelMessages.many),
};
