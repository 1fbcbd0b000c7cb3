/** The inventory screens of SPEC §7, declared once each. */
import {
  driversApi,
  fleetsApi,
  simCardsApi,
  trackersApi,
  trackerTypesApi,
  vehiclesApi,
} from '../../api/resources';
import { useAsync } from '../../app/useAsync';
import {
  CONFIG_MODE_LABELS,
  CONFIG_MODES,
  type Driver,
  DriverCreateSchema,
  type Fleet,
  FleetCreateSchema,
  LICENSE_CATEGORIES,
  PROTOCOLS,
  PROVIDER_LABELS,
  PROVIDERS,
  type SimCard,
  SimCardCreateSchema,
  type Tracker,
  TrackerCreateSchema,
  type TrackerType,
  TrackerTypeCreateSchema,
  VEHICLE_SEARCH_BY_CLIENT,
  VEHICLE_TYPES,
  type Vehicle,
  VehicleCreateSchema,
  vehicleOption,
} from '../../contract';
import { useMirroredDrivers, useMirroredVehicles } from '../../db/hooks';
import { maskCpf, maskPhone, maskPlate } from '../../lib/masks';
import { foldText } from '../../lib/text';
import type { SelectOption } from '../../ui/Select';
import { PlateLookup } from './PlateLookup';
import type { ResourceConfig, ResourceMessages } from './resource';
import { TrackerActions } from './TrackerActions';
import { VehicleExtras } from './VehicleExtras';

const statusColumn = {
  id: 'status',
  label: 'Status',
  render: (item: { active: boolean }) => (
    <span className={`badge ${item.active ? 'badge-success' : 'badge-neutral'}`}>
      {item.active ? 'Ativo' : 'Inativo'}
    </span>
  ),
};

function messages(one: string, article: 'o' | 'a', plural: string): ResourceMessages {
  const removed = article === 'o' ? 'removido' : 'removida';
  return {
    fetchError: `Erro ao buscar ${plural}`,
    saveError: `Erro ao salvar ${one}`,
    removeError: `Erro ao remover ${one}`,
    created: `${one[0]?.toUpperCase()}${one.slice(1)} ${article === 'o' ? 'criado' : 'criada'}.`,
    saved: `${one[0]?.toUpperCase()}${one.slice(1)} ${article === 'o' ? 'salvo' : 'salva'}.`,
    removed: `${one[0]?.toUpperCase()}${one.slice(1)} ${removed}.`,
    confirmRemove: `Remover ${one}?`,
    confirmRemoveText: `${article === 'o' ? 'O' : 'A'} ${one} deixa de aparecer nas listas.`,
    empty: `Nenhum${article === 'a' ? 'a' : ''} ${one} encontrad${article}.`,
  };
}

const opt = (value: string) => (value.trim() === '' ? undefined : value.trim());
const clear = (value: string, editing: boolean) =>
  value.trim() === '' ? (editing ? null : undefined) : value.trim();
const num = (value: string, editing: boolean) =>
  value.trim() === '' ? (editing ? null : undefined) : Number(value);

/** Vehicles of the form's customer, as 'plate | name' options (a search by customer, SPEC §9). */
function useVehicleOptions(clientId: string | null): SelectOption[] {
  const state = useAsync(
    clientId
      ? () => vehiclesApi.list({ clientId, limit: VEHICLE_SEARCH_BY_CLIENT, sort: 'plate' })
      : null,
    [clientId],
  );
  return (state.data?.vehicles ?? []).map(vehicleOption);
}

// ── Vehicles ──────────────────────────────────────────────────────────────────────────────
type VehicleValues = {
  clientId: string | null;
  name: string;
  plate: string;
  type: string;
  brand: string;
  model: string;
  year: string;
  modelYear: string;
  color: string;
  chassis: string;
  renavam: string;
  active: boolean;
};
export const vehicleScreen: ResourceConfig<
  Vehicle,
  Awaited<ReturnType<typeof vehiclesApi.list>>,
  VehicleValues
> = {
  title: 'Veículos',
  newTitle: 'Novo veículo',
  basePath: '/management/vehicles',
  api: vehiclesApi,
  items: (p) => p.vehicles,
  total: (p) => p.total,
  nameOf: (v) => `${maskPlate(v.plate)} | ${v.name}`,
  byClient: true,
  searchLabel: 'Buscar veículos (placa, nome, marca)',
  defaultSort: 'plate',
  columns: [
    { id: 'plate', label: 'Placa', sortable: true, render: (v) => maskPlate(v.plate) },
    { id: 'name', label: 'Nome', sortable: true, render: (v) => v.name },
    { id: 'type', label: 'Tipo', render: (v) => v.type.label },
    {
      id: 'brand',
      label: 'Marca/modelo',
      render: (v) => [v.brand, v.model].filter(Boolean).join(' ') || '—',
    },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: 'Cliente', kind: 'customer' },
    {
      key: 'plate',
      label: 'Placa',
      mask: maskPlate,
      required: true,
      description: 'AAA-9999 ou AAA9A99 (Mercosul)',
    },
    { key: 'name', label: 'Nome', required: true },
    {
      key: 'type',
      label: 'Tipo',
      kind: 'select',
      required: true,
      options: VEHICLE_TYPES.map(([value, label]) => ({ value, label })),
    },
    { key: 'brand', label: 'Marca' },
    { key: 'model', label: 'Modelo' },
    { key: 'year', label: 'Ano de fabricação', kind: 'number' },
    { key: 'modelYear', label: 'Ano do modelo', kind: 'number' },
    { key: 'color', label: 'Cor' },
    { key: 'chassis', label: 'Chassi' },
    { key: 'renavam', label: 'RENAVAM', kind: 'number' },
    { key: 'active', label: 'Status', kind: 'switch' },
  ],
  empty: (clientId) => ({
    clientId,
    name: '',
    plate: '',
    type: 'car',
    brand: '',
    model: '',
    year: '',
    modelYear: '',
    color: '',
    chassis: '',
    renavam: '',
    active: true,
  }),
  fromItem: (v) => ({
    clientId: v.clientId,
    name: v.name,
    plate: maskPlate(v.plate),
    type: v.type.id,
    brand: v.brand ?? '',
    model: v.model ?? '',
    year: v.year ? String(v.year) : '',
    modelYear: v.modelYear ? String(v.modelYear) : '',
    color: v.color ?? '',
    chassis: v.chassis ?? '',
    renavam: v.renavam ?? '',
    active: v.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    name: x.name,
    plate: x.plate,
    type: x.type,
    brand: clear(x.brand, editing),
    model: clear(x.model, editing),
    year: num(x.year, editing),
    modelYear: num(x.modelYear, editing),
    color: clear(x.color, editing),
    chassis: clear(x.chassis, editing),
    renavam: clear(x.renavam, editing),
    active: x.active,
  }),
  schema: VehicleCreateSchema,
  messages: messages('veículo', 'o', 'veículos'),
  permissions: { write: 'CrudProduct', remove: 'delete_resources' },
  tools: (values, patch) => <PlateLookup plate={values.plate} onFound={patch} />,
  extra: (vehicle, reload) => <VehicleExtras vehicle={vehicle} onChange={reload} />,
  mirror: {
    useRows: useMirroredVehicles,
    matches: (v, q) =>
      foldText(
        `${v.plate} ${maskPlate(v.plate)} ${v.name} ${v.brand ?? ''} ${v.model ?? ''}`,
      ).includes(q),
    sortValue: (v, column) =>
      column === 'name' ? v.name : column === 'createdAt' ? v.createdAt : v.plate,
  },
};
vehicleScreen.messages.fetchError = 'Erro ao buscar veículos';

// ── Drivers ───────────────────────────────────────────────────────────────────────────────
type DriverValues = {
  clientId: string | null;
  completName: string;
  cpf: string;
  rfidCode: string;
  licenseNumber: string;
  licenseCategory: string;
  licenseExpiry: string;
  phone: string;
  active: boolean;
};
export const driverScreen: ResourceConfig<
  Driver,
  Awaited<ReturnType<typeof driversApi.list>>,
  DriverValues
> = {
  title: 'Motoristas',
  newTitle: 'Novo motorista',
  basePath: '/management/drivers',
  api: driversApi,
  items: (p) => p.drivers,
  total: (p) => p.total,
  nameOf: (d) => d.completName,
  byClient: true,
  searchLabel: 'Buscar motoristas (nome, CPF, RFID)',
  defaultSort: 'completName',
  columns: [
    { id: 'completName', label: 'Nome', sortable: true, render: (d) => d.completName },
    { id: 'cpf', label: 'CPF', render: (d) => maskCpf(d.cpf) },
    { id: 'rfid', label: 'RFID', render: (d) => d.rfidCode ?? '—' },
    {
      id: 'license',
      label: 'CNH',
      render: (d) =>
        [
          d.licenseCategory,
          d.licenseExpiry &&
            `vence ${new Date(`${d.licenseExpiry}T12:00:00`).toLocaleDateString('pt-BR')}`,
        ]
          .filter(Boolean)
          .join(' · ') || '—',
    },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: 'Cliente', kind: 'customer' },
    { key: 'completName', label: 'Nome completo', required: true },
    { key: 'cpf', label: 'CPF', mask: maskCpf, required: true },
    {
      key: 'rfidCode',
      label: 'Código RFID / iButton',
      description: 'Em hexadecimal, como lido pelo rastreador',
    },
    { key: 'licenseNumber', label: 'Número da CNH', kind: 'number' },
    {
      key: 'licenseCategory',
      label: 'Categoria da CNH',
      kind: 'select',
      options: LICENSE_CATEGORIES.map((c) => ({ value: c, label: c })),
    },
    { key: 'licenseExpiry', label: 'Validade da CNH', type: 'date' },
    { key: 'phone', label: 'Telefone', type: 'tel', mask: maskPhone },
    { key: 'active', label: 'Status', kind: 'switch' },
  ],
  empty: (clientId) => ({
    clientId,
    completName: '',
    cpf: '',
    rfidCode: '',
    licenseNumber: '',
    licenseCategory: '',
    licenseExpiry: '',
    phone: '',
    active: true,
  }),
  fromItem: (d) => ({
    clientId: d.clientId,
    completName: d.completName,
    cpf: maskCpf(d.cpf),
    rfidCode: d.rfidCode ?? '',
    licenseNumber: d.licenseNumber ?? '',
    licenseCategory: d.licenseCategory ?? '',
    licenseExpiry: d.licenseExpiry ?? '',
    phone: d.phone ? maskPhone(d.phone) : '',
    active: d.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    completName: x.completName,
    cpf: x.cpf,
    rfidCode: clear(x.rfidCode, editing),
    licenseNumber: clear(x.licenseNumber, editing),
    licenseCategory: clear(x.licenseCategory, editing),
    licenseExpiry: clear(x.licenseExpiry, editing),
    phone: clear(x.phone, editing),
    active: x.active,
  }),
  schema: DriverCreateSchema,
  messages: messages('motorista', 'o', 'motoristas'),
  permissions: { write: 'CrudProduct', remove: 'delete_resources' },
  mirror: {
    useRows: useMirroredDrivers,
    matches: (d, q) =>
      foldText(`${d.completName} ${d.cpf} ${d.rfidCode ?? ''}`).includes(q.replace(/[.-]/g, '')) ||
      foldText(d.completName).includes(q),
    sortValue: (d, column) => (column === 'createdAt' ? d.createdAt : d.completName),
    shown: (d) => d.active,
  },
};

// ── SIM cards ─────────────────────────────────────────────────────────────────────────────
type SimValues = {
  clientId: string | null;
  iccid: string;
  phoneNumber: string;
  carrier: string;
  apn: string;
  active: boolean;
};
export const simCardScreen: ResourceConfig<
  SimCard,
  Awaited<ReturnType<typeof simCardsApi.list>>,
  SimValues
> = {
  title: 'Chips (SIM)',
  newTitle: 'Novo chip',
  basePath: '/management/simcards',
  api: simCardsApi,
  items: (p) => p.simcards,
  total: (p) => p.total,
  nameOf: (s) => s.iccid,
  byClient: true,
  searchLabel: 'Buscar chips (ICCID, linha, operadora)',
  defaultSort: 'iccid',
  columns: [
    { id: 'iccid', label: 'ICCID', sortable: true, render: (s) => s.iccid },
    {
      id: 'phone',
      label: 'Linha',
      render: (s) => (s.phoneNumber ? maskPhone(s.phoneNumber) : '—'),
    },
    { id: 'carrier', label: 'Operadora', sortable: true, render: (s) => s.carrier ?? '—' },
    { id: 'apn', label: 'APN', render: (s) => s.apn ?? '—' },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: 'Cliente', kind: 'customer' },
    {
      key: 'iccid',
      label: 'ICCID',
      required: true,
      kind: 'number',
      description: '19 ou 20 dígitos, começando por 89',
    },
    { key: 'phoneNumber', label: 'Linha', type: 'tel', mask: maskPhone },
    { key: 'carrier', label: 'Operadora' },
    { key: 'apn', label: 'APN' },
    { key: 'active', label: 'Status', kind: 'switch' },
  ],
  empty: (clientId) => ({
    clientId,
    iccid: '',
    phoneNumber: '',
    carrier: '',
    apn: '',
    active: true,
  }),
  fromItem: (s) => ({
    clientId: s.clientId,
    iccid: s.iccid,
    phoneNumber: s.phoneNumber ? maskPhone(s.phoneNumber) : '',
    carrier: s.carrier ?? '',
    apn: s.apn ?? '',
    active: s.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    iccid: x.iccid,
    phoneNumber: clear(x.phoneNumber, editing),
    carrier: clear(x.carrier, editing),
    apn: clear(x.apn, editing),
    active: x.active,
  }),
  schema: SimCardCreateSchema,
  messages: messages('chip', 'o', 'chips'),
  permissions: { write: 'CrudProduct', remove: 'delete_resources' },
};

// ── Tracker types ─────────────────────────────────────────────────────────────────────────
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
  permissions: { write: 'AdvancedCommands', remove: 'AdvancedCommands' },
};

// ── Trackers ──────────────────────────────────────────────────────────────────────────────
type TrackerValues = {
  clientId: string | null;
  identifier: string;
  provider: string;
  configMode: string;
  trackerTypeId: string;
  vehicleId: string;
  simCardId: string;
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
    { key: 'active', label: 'Status', kind: 'switch' },
  ],
  useOptions(values) {
    const types = useAsync(() => trackerTypesApi.list({ limit: 1000 }), []);
    const sims = useAsync(
      values.clientId ? () => simCardsApi.list({ clientId: values.clientId, limit: 1000 }) : null,
      [values.clientId],
    );
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
    active: x.active,
  }),
  schema: TrackerCreateSchema,
  messages: messages('rastreador', 'o', 'rastreadores'),
  permissions: { write: 'CrudProduct', remove: 'delete_resources' },
  extra: (tracker, reload) => <TrackerActions tracker={tracker} onChange={reload} />,
};

// ── Fleets ────────────────────────────────────────────────────────────────────────────────
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
    { key: 'vehicleIds', label: 'Veículos da frota', kind: 'checkboxes' },
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
  permissions: { write: 'CrudProduct', remove: 'delete_resources' },
};
