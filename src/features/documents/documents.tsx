import { documentsApi } from '../../api/documents';
import {
  DOCUMENT_KIND_LABELS,
  DocumentCreateSchema,
  type DocumentRecord,
  DRIVER_DOCUMENT_KINDS,
  VEHICLE_DOCUMENT_KINDS,
} from '../../contract';
import { documentsText } from '../../i18n/documents';
import { t } from '../../i18n/pt-BR';
import { formatDay } from '../../lib/format';
import { AttachmentsPanel } from '../../shared/attachments/AttachmentsPanel';
import { useDriverChoices } from '../../shared/drivers/useDriverOptions';
import { clear, messages, opt, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
import type { SelectOption } from '../../ui/Select';

const text = documentsText;

type Owner = 'vehicle' | 'driver';
type DocumentValues = {
  clientId: string | null;
  owner: Owner;
  vehicleId: string;
  driverId: string;
  kind: string;
  name: string;
  number: string;
  expiry: string;
  notes: string;
  active: boolean;
};

const kindsOf = (owner: Owner): SelectOption[] =>
  (owner === 'vehicle' ? VEHICLE_DOCUMENT_KINDS : DRIVER_DOCUMENT_KINDS).map((k) => ({
    value: k,
    label: DOCUMENT_KIND_LABELS[k],
  }));

export const documentScreen: ResourceConfig<
  DocumentRecord,
  Awaited<ReturnType<typeof documentsApi.list>>,
  DocumentValues
> = {
  title: text.title,
  newTitle: text.newDocument,
  basePath: '/fleet-management/documents',
  api: documentsApi,
  items: (p) => p.documents,
  total: (p) => p.total,
  nameOf: (d) => d.name ?? DOCUMENT_KIND_LABELS[d.kind],
  byClient: true,
  searchLabel: text.search,
  defaultSort: 'expiry',
  columns: [
    {
      id: 'kind',
      label: text.kind,
      rowHeader: true,
      render: (d) => d.name ?? DOCUMENT_KIND_LABELS[d.kind],
    },
    { id: 'number', label: text.number, render: (d) => d.number ?? '—' },
    { id: 'expiry', label: text.expiry, sortable: true, render: (d) => formatDay(d.expiry) },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: text.customer, kind: 'customer' },
    {
      key: 'owner',
      label: text.owner,
      kind: 'select',
      required: true,
      createOnly: true,
      options: [
        { value: 'vehicle', label: text.owners.vehicle },
        { value: 'driver', label: text.owners.driver },
      ],
      description: text.cnhHint,
    },
    {
      key: 'vehicleId',
      label: text.vehicle,
      kind: 'select',
      required: true,
      shownWhen: (x) => x.owner === 'vehicle',
    },
    {
      key: 'driverId',
      label: text.driver,
      kind: 'select',
      required: true,
      shownWhen: (x) => x.owner === 'driver',
    },
    { key: 'kind', label: text.kind, kind: 'select', required: true },
    {
      key: 'name',
      label: text.name,
      shownWhen: (x) => x.kind === 'course' || x.kind === 'other',
    },
    { key: 'number', label: text.number },
    { key: 'expiry', label: text.expiry, type: 'date', required: true },
    { key: 'notes', label: text.notes },
    { key: 'active', label: t.screens.fleets.status, kind: 'switch' },
  ],
  useOptions: (values) => ({
    vehicleId: useVehicleChoices(values.clientId),
    driverId: useDriverChoices(values.clientId),
    kind: kindsOf(values.owner),
  }),
  empty: (clientId) => ({
    clientId,
    owner: 'vehicle',
    vehicleId: '',
    driverId: '',
    kind: '',
    name: '',
    number: '',
    expiry: '',
    notes: '',
    active: true,
  }),
  fromItem: (d) => ({
    clientId: d.clientId,
    owner: d.vehicleId ? 'vehicle' : 'driver',
    vehicleId: d.vehicleId ?? '',
    driverId: d.driverId ?? '',
    kind: d.kind,
    name: d.name ?? '',
    number: d.number ?? '',
    expiry: d.expiry,
    notes: d.notes ?? '',
    active: d.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    vehicleId: x.owner === 'vehicle' ? x.vehicleId || undefined : editing ? null : undefined,
    driverId: x.owner === 'driver' ? x.driverId || undefined : editing ? null : undefined,
    kind: x.kind || undefined,
    name:
      x.kind === 'course' || x.kind === 'other'
        ? editing
          ? clear(x.name, editing)
          : opt(x.name)
        : editing
          ? null
          : undefined,
    number: editing ? clear(x.number, editing) : opt(x.number),
    expiry: x.expiry || undefined,
    notes: editing ? clear(x.notes, editing) : opt(x.notes),
    active: x.active,
  }),
  // Photos and PDFs: the invoice, the scanned paper; attached once the record is saved.
  aside: (_values, item) => <AttachmentsPanel owner="document" id={item?.id} />,
  schema: DocumentCreateSchema,
  messages: messages('documento', 'o', 'documentos'),
};
