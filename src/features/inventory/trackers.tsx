/** Trackers (SPEC §7 registros/tracker), with their type, vehicle and SIM card. */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { simCardsApi, trackersApi, trackerTypesApi } from '../../api/resources';
import {
  CONFIG_MODE_LABELS,
  CONFIG_MODES,
  PROVIDER_LABELS,
  PROVIDERS,
  type Tracker,
  TrackerCreateSchema,
} from '../../contract';
import { clear, messages, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleOptions } from '../../shared/vehicles/useVehicleOptions';
import { TrackerActions } from './TrackerActions';
import '../../ui/Choice.css';

type TrackerValues = {
  clientId: string | null;
  identifier: string;
  provider: string;
  configMode: string;
  trackerTypeId: string;
  vehicleId: string;
  simCardId: string;
  /** Write-only: blank keeps the tracker's current Wialon IPS password. */
  wialonPassword: string;
  wialonPasswordSet: boolean;
  removeWialonPassword: boolean;
  active: boolean;
};
export const trackerScreen: ResourceConfig<
  Tracker,
  Awaited<ReturnType<typeof trackersApi.list>>,
  TrackerValues
> = {
  title: 'Rastreadores',
  newTitle: 'Novo rastreador',
  basePath: '/management/trackers',
  api: trackersApi,
  items: (p) => p.trackers,
  total: (p) => p.total,
  nameOf: (x) => x.identifier,
  byClient: true,
  searchLabel: 'Buscar rastreadores (IMEI ou identificador)',
  defaultSort: 'identifier',
  columns: [
    { id: 'identifier', label: 'Identificador', sortable: true, render: (x) => x.identifier },
    {
      id: 'provider',
      label: 'Provedor',
      sortable: true,
      render: (x) => PROVIDER_LABELS[x.provider],
    },
    { id: 'mode', label: 'Configuração', render: (x) => CONFIG_MODE_LABELS[x.configMode] },
    { id: 'enabled', label: 'Habilitado', render: (x) => (x.enabled ? 'Sim' : 'Não') },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: 'Cliente', kind: 'customer' },
    { key: 'identifier', label: 'Identificador (IMEI ou do provedor)', required: true },
    {
      key: 'provider',
      label: 'Provedor',
      kind: 'select',
      required: true,
      options: PROVIDERS.map((p) => ({ value: p, label: PROVIDER_LABELS[p] })),
    },
    {
      key: 'configMode',
      label: 'Modo de configuração',
      kind: 'select',
      options: CONFIG_MODES.map((m) => ({ value: m, label: CONFIG_MODE_LABELS[m] })),
    },
    { key: 'trackerTypeId', label: 'Tipo de rastreador', kind: 'select' },
    { key: 'vehicleId', label: 'Veículo', kind: 'select' },
    { key: 'simCardId', label: 'Chip (SIM)', kind: 'select' },
    {
      key: 'wialonPassword',
      label: 'Senha Wialon IPS do rastreador',
      type: 'password',
      description:
        'Opcional. O rastreador a envia no login (#L#imei;senha). Em branco, a senha atual é mantida.',
      shownWhen: (x) => x.provider === 'rastro' && !x.removeWialonPassword,
    },
    {
      key: 'removeWialonPassword',
      label: 'Senha própria do rastreador',
      kind: 'switch',
      switchLabel: 'Remover ao salvar',
      shownWhen: (x) => x.provider === 'rastro' && x.wialonPasswordSet,
    },
    { key: 'active', label: 'Status', kind: 'switch' },
  ],
  useOptions(values) {
    const typeParams = { limit: 1000 };
    const types = useQuery({
      queryKey: keys.resourceList(trackerTypesApi.path, typeParams),
      queryFn: () => trackerTypesApi.list(typeParams),
      staleTime: 5 * 60_000,
      ...LOOKUP_QUERY,
    });
    const simParams = { clientId: values.clientId, limit: 1000 };
    const sims = useQuery({
      queryKey: keys.resourceList(simCardsApi.path, simParams),
      queryFn: () => simCardsApi.list(simParams),
      enabled: Boolean(values.clientId),
      ...LOOKUP_QUERY,
    });
    const none = { value: '', label: 'Nenhum' };
    return {
      trackerTypeId: [
        none,
        ...(types.data?.trackerTypes ?? []).map((x) => ({
          value: x.id,
          label: `${x.manufacturer} ${x.model}`,
        })),
      ],
      vehicleId: [none, ...useVehicleOptions(values.clientId)],
      simCardId: [
        none,
        ...(sims.data?.simcards ?? []).map((s) => ({
          value: s.id,
          label: `${s.iccid}${s.carrier ? ` | ${s.carrier}` : ''}`,
        })),
      ],
    };
  },
  empty: (clientId) => ({
    clientId,
    identifier: '',
    provider: 'rastro',
    configMode: 'default',
    trackerTypeId: '',
    vehicleId: '',
    simCardId: '',
    wialonPassword: '',
    wialonPasswordSet: false,
    removeWialonPassword: false,
    active: true,
  }),
  fromItem: (x) => ({
    clientId: x.clientId,
    identifier: x.identifier,
    provider: x.provider,
    configMode: x.configMode,
    trackerTypeId: x.trackerTypeId ?? '',
    vehicleId: x.vehicleId ?? '',
    simCardId: x.simCardId ?? '',
    wialonPassword: '',
    wialonPasswordSet: x.wialonPasswordSet ?? false,
    removeWialonPassword: false,
    active: x.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    identifier: x.identifier,
    provider: x.provider,
    configMode: x.configMode,
    trackerTypeId: clear(x.trackerTypeId, editing),
    vehicleId: clear(x.vehicleId, editing),
    simCardId: clear(x.simCardId, editing),
    wialonPassword:
      editing && x.removeWialonPassword
        ? null
        : x.wialonPassword === ''
          ? undefined
          : x.wialonPassword,
    active: x.active,
  }),
  schema: TrackerCreateSchema,
  messages: messages('rastreador', 'o', 'rastreadores'),
  extra: (tracker, reload) => <TrackerActions tracker={tracker} onChange={reload} />,
};
