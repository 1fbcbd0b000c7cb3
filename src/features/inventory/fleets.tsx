/** Fleets (SPEC §7 tech-integracao/v1/fleets): named groups of a customer's vehicles. */
import { fleetsApi } from '../../api/resources';
import { type Fleet, FleetCreateSchema } from '../../contract';
import { clear, messages, opt, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleOptions } from '../../shared/vehicles/useVehicleOptions';
import '../../ui/Choice.css';

type FleetValues = {
  clientId: string | null;
  name: string;
  description: string;
  vehicleIds: string[];
  active: boolean;
};
export const fleetScreen: ResourceConfig<
  Fleet,
  Awaited<ReturnType<typeof fleetsApi.list>>,
  FleetValues
> = {
  title: 'Frotas',
  newTitle: 'Nova frota',
  basePath: '/management/fleets',
  api: fleetsApi,
  items: (p) => p.fleets,
  total: (p) => p.total,
  nameOf: (f) => f.name,
  byClient: true,
  searchLabel: 'Buscar frotas',
  defaultSort: 'name',
  columns: [
    { id: 'name', label: 'Nome', sortable: true, render: (f) => f.name },
    { id: 'vehicles', label: 'Veículos', render: (f) => String(f.vehicleIds.length) },
    { id: 'description', label: 'Descrição', render: (f) => f.description ?? '—' },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: 'Cliente', kind: 'customer' },
    { key: 'name', label: 'Nome', required: true },
    { key: 'description', label: 'Descrição' },
    {
      key: 'vehicleIds',
      label: 'Veículos da frota',
      kind: 'checkboxes',
      noun: ['veículo', 'veículos'],
    },
    { key: 'active', label: 'Status', kind: 'switch' },
  ],
  useOptions: (values) => ({ vehicleIds: useVehicleOptions(values.clientId) }),
  empty: (clientId) => ({ clientId, name: '', description: '', vehicleIds: [], active: true }),
  fromItem: (f) => ({
    clientId: f.clientId,
    name: f.name,
    description: f.description ?? '',
    vehicleIds: f.vehicleIds,
    active: f.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    name: x.name,
    description: editing ? clear(x.description, editing) : opt(x.description),
    vehicleIds: x.vehicleIds,
    active: x.active,
  }),
  schema: FleetCreateSchema,
  messages: messages('frota', 'a', 'frotas'),
};
