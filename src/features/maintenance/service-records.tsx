/**
 * Services done on a vehicle (date, odometer, hours, items, cost, workshop): each restarts the
 * cycle of the plans it names.
 */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { maintenancePlansApi, serviceRecordsApi } from '../../api/maintenance';
import { LOOKUP_QUERY } from '../../api/query';
import { type ServiceRecord, ServiceRecordCreateSchema } from '../../contract';
import { maintenanceText } from '../../i18n/maintenance';
import { t } from '../../i18n/pt-BR';
import { formatCurrency, formatDay } from '../../lib/format';
import { AttachmentsPanel } from '../../shared/attachments/AttachmentsPanel';
import { choicesOf } from '../../shared/choices';
import { clear, messages, num, opt, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
import type { Choices } from '../../ui/Select';

const text = maintenanceText;

type RecordValues = {
  clientId: string | null;
  vehicleId: string;
  date: string;
  odometerKm: string;
  hours: string;
  items: string;
  cost: string;
  workshop: string;
  notes: string;
  planIds: string[];
  active: boolean;
};

/** The customer's plans, to name those a service restarts. */
function usePlanChoices(clientId: string | null): Choices {
  const params = { clientId, limit: 1000, sort: 'name' };
  const query = useQuery({
    queryKey: keys.resourceList(maintenancePlansApi.path, params),
    queryFn: () => maintenancePlansApi.list(params),
    enabled: Boolean(clientId),
    ...LOOKUP_QUERY,
  });
  return choicesOf(
    query,
    (query.data?.plans ?? []).map((p) => ({ value: p.id, label: p.name })),
  );
}

const str = (n: number | null) => (n === null ? '' : String(n));
/** '1.234,50' or '1234.5' as typed in Brazil or not: a number of reais. */
const reais = (value: string) =>
  value
    .trim()
    .replace(/\.(?=\d{3}(\D|$))/g, '')
    .replace(',', '.');

export const serviceRecordScreen: ResourceConfig<
  ServiceRecord,
  Awaited<ReturnType<typeof serviceRecordsApi.list>>,
  RecordValues
> = {
  title: text.records,
  newTitle: text.newRecord,
  basePath: '/fleet-management/service-records',
  api: serviceRecordsApi,
  items: (p) => p.records,
  total: (p) => p.total,
  nameOf: (r) => `${formatDay(r.date)} ${r.workshop ?? ''}`.trim(),
  byClient: true,
  searchLabel: text.searchRecords,
  defaultSort: 'date',
  columns: [
    {
      id: 'date',
      label: text.date,
      sortable: true,
      rowHeader: true,
      render: (r) => formatDay(r.date),
    },
    { id: 'items', label: text.items, render: (r) => r.items.join('; ') || '—' },
    { id: 'workshop', label: text.workshop, render: (r) => r.workshop ?? '—' },
    {
      id: 'cost',
      label: text.cost,
      render: (r) => (r.cost === null ? '—' : formatCurrency(r.cost)),
    },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: text.customer, kind: 'customer' },
    { key: 'vehicleId', label: text.vehicle, kind: 'select', required: true },
    { key: 'date', label: text.date, type: 'date', required: true },
    { key: 'odometerKm', label: text.odometer, kind: 'number', description: text.odometerHint },
    { key: 'hours', label: text.hours, kind: 'number' },
    { key: 'items', label: text.items, description: text.itemsHint },
    { key: 'cost', label: text.cost },
    { key: 'workshop', label: text.workshop },
    { key: 'notes', label: text.notes },
    { key: 'planIds', label: text.coveredPlans, kind: 'checkboxes', noun: text.planNoun },
    { key: 'active', label: t.screens.fleets.status, kind: 'switch' },
  ],
  useOptions: (values) => ({
    vehicleId: useVehicleChoices(values.clientId),
    planIds: usePlanChoices(values.clientId),
  }),
  empty: (clientId) => ({
    clientId,
    vehicleId: '',
    date: '',
    odometerKm: '',
    hours: '',
    items: '',
    cost: '',
    workshop: '',
    notes: '',
    planIds: [],
    active: true,
  }),
  fromItem: (r) => ({
    clientId: r.clientId,
    vehicleId: r.vehicleId,
    date: r.date,
    odometerKm: str(r.odometerKm),
    hours: str(r.hours),
    items: r.items.join('; '),
    cost: r.cost === null ? '' : String(r.cost).replace('.', ','),
    workshop: r.workshop ?? '',
    notes: r.notes ?? '',
    planIds: r.planIds,
    active: r.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    vehicleId: x.vehicleId || undefined,
    date: x.date || undefined,
    odometerKm: num(x.odometerKm, editing),
    hours: num(x.hours, editing),
    items: x.items
      .split(';')
      .map((item) => item.trim())
      .filter(Boolean),
    cost: num(reais(x.cost), editing),
    workshop: editing ? clear(x.workshop, editing) : opt(x.workshop),
    notes: editing ? clear(x.notes, editing) : opt(x.notes),
    planIds: x.planIds,
    active: x.active,
  }),
  // Photos and PDFs: the invoice, the scanned paper; attached once the record is saved.
  aside: (_values, item) => <AttachmentsPanel owner="service-record" id={item?.id} />,
  schema: ServiceRecordCreateSchema,
  messages: messages(text.recordMessages.one, 'o', text.recordMessages.many),
};
