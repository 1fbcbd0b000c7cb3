/** Fleets (SPEC §7 tech-integracao/v1/fleets): named groups of a customer's vehicles. */
import { fleetsApi } from '../../api/resources';
import { type Fleet, FleetCreateSchema } from '../../contract';
import { clear, messages, opt, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
import '../../ui/Choice.css';
import { t } from '../../i18n/pt-BR';

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
  title: t.screens.fleets.frotas,
  newTitle: t.screens.fleets.novaFrota,
  basePath: '/management/fleets',
  api: fleetsApi,
  items: (p) => p.fleets,
  total: (p) => p.total,
  nameOf: (f) => f.name,
  byClient: true,
  searchLabel: t.screens.fleets.buscarFrotas,
  defaultSort: 'name',
  columns: [
    { id: 'name', label: t.screens.fleets.nome, sortable: true, render: (f) => f.name },
    {
      id: 'vehicles',
      label: t.screens.fleets.veiculos2,
      render: (f) => String(f.vehicleIds.length),
    },
    { id: 'description', label: t.screens.fleets.descricao, render: (f) => f.description ?? '—' },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: t.screens.fleets.cliente, kind: 'customer' },
    { key: 'name', label: t.screens.fleets.nome, required: true },
    { key: 'description', label: t.screens.fleets.descricao },
    {
      key: 'vehicleIds',
      label: t.screens.fleets.veiculosDaFrota,
      kind: 'checkboxes',
      noun: [t.screens.fleets.veiculo, t.screens.fleets.veiculos],
    },
    { key: 'active', label: t.screens.fleets.status, kind: 'switch' },
  ],
  useOptions: (values) => ({ vehicleIds: useVehicleChoices(values.clientId) }),
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
