/**
 * Trackers (SPEC §7 registros/tracker), with their type, vehicle and SIM card, and for our own
 * ingestion the protocol the device speaks and its password: the list shows what each device
 * last told us, the form proposes a strong password and how to set the device up.
 */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { simCardsApi, trackersApi, trackerTypesApi } from '../../api/resources';
import {
  CONFIG_MODE_LABELS,
  CONFIG_MODES,
  DEVICE_PROTOCOLS,
  isDeviceProtocol,
  isImeiProtocol,
  PROVIDER_LABELS,
  PROVIDERS,
  type Tracker,
  TrackerCreateSchema,
} from '../../contract';
import { DEVICE_SETUP } from '../../i18n/device-setup';
import { devices } from '../../i18n/devices';
import { generateDevicePassword } from '../../lib/device-setup';
import { choicesOf, withFirst } from '../../shared/choices';
import { clear, messages, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
import { DeviceSetup } from './DeviceSetup';
import { TrackerActions } from './TrackerActions';
import {
  LastCommunication,
  protocolLabel,
  TrackerBadges,
  TrackerCommunicationPanel,
} from './TrackerStatus';
import '../../ui/Choice.css';

const text = devices.tracker;
const words = devices;

type TrackerValues = {
  clientId: string | null;
  identifier: string;
  provider: string;
  configMode: string;
  trackerTypeId: string;
  vehicleId: string;
  simCardId: string;
  /** The listener it speaks to ('': its type's). */
  protocol: string;
  /** Write-only: blank keeps the tracker's current device password. */
  devicePassword: string;
  devicePasswordSet: boolean;
  removePassword: boolean;
  allowUnauthenticated: boolean;
  /** Write-only: blank keeps the current one (or the model's default). */
  commandPassword: string;
  commandPasswordSet: boolean;
  active: boolean;
};

/** Our own ingestion: the device speaks to Rastro's listeners. */
const own = (x: { provider: string }) => x.provider === 'rastro';

export const trackerScreen: ResourceConfig<
  Tracker,
  Awaited<ReturnType<typeof trackersApi.list>>,
  TrackerValues
> = {
  title: text.title,
  newTitle: text.newTitle,
  basePath: '/management/trackers',
  api: trackersApi,
  items: (p) => p.trackers,
  total: (p) => p.total,
  nameOf: (x) => x.identifier,
  byClient: true,
  searchLabel: text.search,
  defaultSort: 'identifier',
  columns: [
    { id: 'identifier', label: text.identifier, sortable: true, render: (x) => x.identifier },
    {
      id: 'protocol',
      label: words.protocol,
      sortable: true,
      render: (x) => (own(x) ? protocolLabel(x.protocol) : PROVIDER_LABELS[x.provider]),
    },
    {
      id: 'lastSeenAt',
      label: words.status.column,
      sortable: true,
      render: (x) => <LastCommunication tracker={x} />,
    },
    { id: 'state', label: words.status.state, render: (x) => <TrackerBadges tracker={x} /> },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: text.customer, kind: 'customer' },
    { key: 'identifier', label: text.identifierField, required: true },
    {
      key: 'provider',
      label: text.provider,
      kind: 'select',
      required: true,
      options: PROVIDERS.map((p) => ({ value: p, label: PROVIDER_LABELS[p] })),
    },
    { key: 'trackerTypeId', label: text.type, kind: 'select' },
    {
      key: 'protocol',
      label: words.protocol,
      kind: 'select',
      description: words.protocolHint,
      options: [
        { value: '', label: words.protocolFromType },
        ...DEVICE_PROTOCOLS.map((p) => ({ value: p, label: words.protocols[p] })),
      ],
      shownWhen: own,
    },
    {
      key: 'devicePassword',
      label: words.password,
      type: 'password',
      description: words.passwordHint,
      warningOf: (x) =>
        !x.devicePassword &&
        !x.devicePasswordSet &&
        !x.allowUnauthenticated &&
        x.protocol !== 'flespi'
          ? words.noPasswordRequired
          : undefined,
      // The makers' protocols carry no password (the setup panel says so).
      shownWhen: (x) => own(x) && !x.removePassword && !isImeiProtocol(x.protocol),
      action: { label: words.generate, fill: () => ({ devicePassword: generateDevicePassword() }) },
    },
    {
      key: 'removePassword',
      label: words.removePassword,
      kind: 'switch',
      switchLabel: words.removePasswordSwitch,
      shownWhen: (x) => own(x) && x.devicePasswordSet && !isImeiProtocol(x.protocol),
    },
    {
      key: 'commandPassword',
      label: DEVICE_SETUP.commandPassword,
      type: 'password',
      description: DEVICE_SETUP.commandPasswordHint,
      shownWhen: (x) => own(x) && x.protocol === 'queclink',
    },
    {
      key: 'allowUnauthenticated',
      label: words.allowUnauthenticated,
      kind: 'switch',
      switchLabel: words.allowUnauthenticated,
      description: words.allowUnauthenticatedHint,
      warningOf: (x) => (x.allowUnauthenticated ? words.noPasswordWarning : undefined),
      // A makers' device has no password to skip: bound to its protocol, it is its IMEI.
      shownWhen: (x) => own(x) && !isImeiProtocol(x.protocol),
    },
    { key: 'vehicleId', label: text.vehicle, kind: 'select' },
    { key: 'simCardId', label: text.simCard, kind: 'select' },
    {
      key: 'configMode',
      label: text.configMode,
      kind: 'select',
      options: CONFIG_MODES.map((m) => ({ value: m, label: CONFIG_MODE_LABELS[m] })),
    },
    { key: 'active', label: text.status, kind: 'switch' },
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
    const none = { value: '', label: text.none };
    return {
      trackerTypeId: withFirst(
        [none],
        choicesOf(
          types,
          (types.data?.trackerTypes ?? []).map((x) => ({
            value: x.id,
            label: `${x.manufacturer} ${x.model}`,
          })),
        ),
      ),
      vehicleId: withFirst([none], useVehicleChoices(values.clientId)),
      simCardId: withFirst(
        [none],
        choicesOf(
          sims,
          (sims.data?.simcards ?? []).map((s) => ({
            value: s.id,
            label: `${s.iccid}${s.carrier ? ` | ${s.carrier}` : ''}`,
          })),
        ),
      ),
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
    protocol: '',
    // A new tracker of ours starts with a strong password the installer notes down.
    devicePassword: generateDevicePassword(),
    devicePasswordSet: false,
    removePassword: false,
    allowUnauthenticated: false,
    commandPassword: '',
    commandPasswordSet: false,
    active: true,
  }),
  // An unknown device becoming a tracker (Aparelhos desconhecidos): its identifier and protocol.
  prefill: (params) => ({
    identifier: params.get('identifier') ?? '',
    protocol: isDeviceProtocol(params.get('protocol')) ? (params.get('protocol') ?? '') : '',
  }),
  fromItem: (x) => ({
    clientId: x.clientId,
    identifier: x.identifier,
    provider: x.provider,
    configMode: x.configMode,
    trackerTypeId: x.trackerTypeId ?? '',
    vehicleId: x.vehicleId ?? '',
    simCardId: x.simCardId ?? '',
    protocol: x.protocol ?? '',
    devicePassword: '',
    devicePasswordSet: x.devicePasswordSet ?? false,
    removePassword: false,
    allowUnauthenticated: x.allowUnauthenticated ?? false,
    commandPassword: '',
    commandPasswordSet: x.commandPasswordSet ?? false,
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
    ...(own(x)
      ? {
          protocol: isDeviceProtocol(x.protocol) ? x.protocol : undefined,
          devicePassword: isImeiProtocol(x.protocol)
            ? undefined
            : editing && x.removePassword
              ? null
              : x.devicePassword === ''
                ? undefined
                : x.devicePassword,
          allowUnauthenticated: x.allowUnauthenticated,
          commandPassword:
            x.protocol === 'queclink' && x.commandPassword !== '' ? x.commandPassword : undefined,
        }
      : {}),
    active: x.active,
  }),
  schema: TrackerCreateSchema,
  messages: messages('rastreador', 'o', 'rastreadores'),
  aside: (x, item) =>
    own(x) ? (
      <DeviceSetup
        protocol={x.protocol || item?.protocol}
        trackerTypeId={x.trackerTypeId}
        identifier={x.identifier}
        password={x.removePassword ? '' : x.devicePassword}
        passwordSet={x.devicePasswordSet && !x.removePassword}
        commandPassword={x.commandPassword}
      />
    ) : null,
  extra: (tracker, reload) => (
    <>
      {tracker.provider === 'rastro' && <TrackerCommunicationPanel tracker={tracker} />}
      <TrackerActions tracker={tracker} onChange={reload} />
    </>
  ),
};
