/** The tracker type catalogue (SPEC §7 registros/tracker-types), common to every customer. */
import { trackerTypesApi } from '../../api/resources';
import { PROTOCOLS, type TrackerType, TrackerTypeCreateSchema } from '../../contract';
import { messages } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';

type TypeValues = { manufacturer: string; model: string; protocol: string; inputs: string };
export const trackerTypeScreen: ResourceConfig<
  TrackerType,
  Awaited<ReturnType<typeof trackerTypesApi.list>>,
  TypeValues
> = {
  title: 'Tipos de rastreador',
  newTitle: 'Novo tipo de rastreador',
  basePath: '/management/tracker-types',
  api: trackerTypesApi,
  items: (p) => p.trackerTypes,
  total: (p) => p.total,
  nameOf: (x) => `${x.manufacturer} ${x.model}`,
  searchLabel: 'Buscar tipos (fabricante, modelo, protocolo)',
  defaultSort: 'manufacturer',
  columns: [
    { id: 'manufacturer', label: 'Fabricante', sortable: true, render: (x) => x.manufacturer },
    { id: 'model', label: 'Modelo', sortable: true, render: (x) => x.model },
    { id: 'protocol', label: 'Protocolo', render: (x) => x.protocol },
    { id: 'inputs', label: 'Entradas', render: (x) => x.inputs.join(', ') || '—' },
  ],
  fields: [
    { key: 'manufacturer', label: 'Fabricante', required: true },
    { key: 'model', label: 'Modelo', required: true },
    {
      key: 'protocol',
      label: 'Protocolo',
      kind: 'select',
      required: true,
      options: PROTOCOLS.map((p) => ({ value: p, label: p })),
    },
    { key: 'inputs', label: 'Entradas', description: 'Separadas por vírgula, ex.: DIN1, ignition' },
  ],
  empty: () => ({ manufacturer: '', model: '', protocol: 'osmand', inputs: '' }),
  fromItem: (x) => ({
    manufacturer: x.manufacturer,
    model: x.model,
    protocol: x.protocol,
    inputs: x.inputs.join(', '),
  }),
  toPayload: (x) => ({
    manufacturer: x.manufacturer,
    model: x.model,
    protocol: x.protocol,
    inputs: x.inputs
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  }),
  schema: TrackerTypeCreateSchema,
  messages: messages('tipo de rastreador', 'o', 'tipos de rastreador'),
};
