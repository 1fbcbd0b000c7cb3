/** The tracker type catalogue (SPEC §7 registros/tracker-types), common to every customer. */
import { trackerTypesApi } from '../../api/resources';
import { PROTOCOLS, type TrackerType, TrackerTypeCreateSchema } from '../../contract';
import { t } from '../../i18n/pt-BR';
import { messages } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';

type TypeValues = { manufacturer: string; model: string; protocol: string; inputs: string };
export const trackerTypeScreen: ResourceConfig<
  TrackerType,
  Awaited<ReturnType<typeof trackerTypesApi.list>>,
  TypeValues
> = {
  title: t.screens.trackerTypes.tiposDeRastreador2,
  newTitle: t.screens.trackerTypes.novoTipoDeRastreador,
  basePath: '/management/tracker-types',
  api: trackerTypesApi,
  items: (p) => p.trackerTypes,
  total: (p) => p.total,
  nameOf: (x) => `${x.manufacturer} ${x.model}`,
  searchLabel: t.screens.trackerTypes.buscarTiposFabricanteModelo,
  defaultSort: 'manufacturer',
  columns: [
    {
      id: 'manufacturer',
      label: t.screens.trackerTypes.fabricante,
      sortable: true,
      render: (x) => x.manufacturer,
    },
    { id: 'model', label: t.screens.trackerTypes.modelo, sortable: true, render: (x) => x.model },
    { id: 'protocol', label: t.screens.trackerTypes.protocolo, render: (x) => x.protocol },
    {
      id: 'inputs',
      label: t.screens.trackerTypes.entradas,
      render: (x) => x.inputs.join(', ') || '—',
    },
  ],
  fields: [
    { key: 'manufacturer', label: t.screens.trackerTypes.fabricante, required: true },
    { key: 'model', label: t.screens.trackerTypes.modelo, required: true },
    {
      key: 'protocol',
      label: t.screens.trackerTypes.protocolo,
      kind: 'select',
      required: true,
      options: PROTOCOLS.map((p) => ({ value: p, label: p })),
    },
    {
      key: 'inputs',
      label: t.screens.trackerTypes.entradas,
      description: t.screens.trackerTypes.separadasPorVirgulaEx,
    },
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
  messages: messages(
    t.screens.trackerTypes.tipoDeRastreador,
    'o',
    t.screens.trackerTypes.tiposDeRastreador,
  ),
};
