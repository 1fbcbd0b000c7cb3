/** Vehicles (SPEC §7 registros/vehicle): mirrored on the device, searched by plate as typed. */
import { vehiclesApi } from '../../api/resources';
import { VEHICLE_TYPES, type Vehicle, VehicleCreateSchema } from '../../contract';
import { useMirroredVehicle, useMirroredVehicles } from '../../db/hooks';
import { t } from '../../i18n/pt-BR';
import { maskPlate } from '../../lib/masks';
import { matchesSearch } from '../../lib/text';
import { clear, messages, num, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { PlateLookup } from './PlateLookup';
import { VehicleExtras } from './VehicleExtras';
import '../../ui/Choice.css';

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
  fuelTankLiters: string;
  active: boolean;
};
export const vehicleScreen: ResourceConfig<
  Vehicle,
  Awaited<ReturnType<typeof vehiclesApi.list>>,
  VehicleValues
> = {
  title: t.screens.vehicles.veiculos2,
  newTitle: t.screens.vehicles.novoVeiculo,
  basePath: '/management/vehicles',
  api: vehiclesApi,
  items: (p) => p.vehicles,
  total: (p) => p.total,
  nameOf: (v) => `${maskPlate(v.plate)} | ${v.name}`,
  byClient: true,
  searchLabel: t.screens.vehicles.buscarVeiculosPlacaNome,
  defaultSort: 'plate',
  columns: [
    {
      id: 'plate',
      label: t.screens.vehicles.placa,
      sortable: true,
      render: (v) => maskPlate(v.plate),
    },
    { id: 'name', label: t.screens.vehicles.nome, sortable: true, render: (v) => v.name },
    { id: 'type', label: t.screens.vehicles.tipo, render: (v) => v.type.label },
    {
      id: 'brand',
      label: t.screens.vehicles.marcaModelo,
      render: (v) => [v.brand, v.model].filter(Boolean).join(' ') || '—',
    },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: t.screens.vehicles.cliente, kind: 'customer' },
    {
      key: 'plate',
      label: t.screens.vehicles.placa,
      mask: maskPlate,
      required: true,
      description: t.screens.vehicles.aaa9999OuAaa9a99,
    },
    { key: 'name', label: t.screens.vehicles.nome, required: true },
    {
      key: 'type',
      label: t.screens.vehicles.tipo,
      kind: 'select',
      required: true,
      options: VEHICLE_TYPES.map(([value, label]) => ({ value, label })),
    },
    { key: 'brand', label: t.screens.vehicles.marca },
    { key: 'model', label: t.screens.vehicles.modelo },
    { key: 'year', label: t.screens.vehicles.anoDeFabricacao, kind: 'number' },
    { key: 'modelYear', label: t.screens.vehicles.anoDoModelo, kind: 'number' },
    { key: 'color', label: t.screens.vehicles.cor },
    { key: 'chassis', label: t.screens.vehicles.chassi },
    { key: 'renavam', label: t.screens.vehicles.renavam, kind: 'number' },
    { key: 'fuelTankLiters', label: t.screens.vehicles.tanque, kind: 'number' },
    { key: 'active', label: t.screens.vehicles.status, kind: 'switch' },
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
    fuelTankLiters: '',
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
    fuelTankLiters: v.fuelTankLiters ? String(v.fuelTankLiters) : '',
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
    fuelTankLiters: num(x.fuelTankLiters.replace(',', '.'), editing),
    active: x.active,
  }),
  schema: VehicleCreateSchema,
  // SPEC §8: a vehicle list that fails to load from the network.
  messages: {
    ...messages(t.screens.vehicles.veiculo, 'o', t.screens.vehicles.veiculos),
    fetchError: t.vehicles.loadError,
  },
  loadingToast: t.vehicles.loading,
  tools: (values, patch) => <PlateLookup plate={values.plate} onFound={patch} />,
  extra: (vehicle, reload) => <VehicleExtras vehicle={vehicle} onChange={reload} />,
  mirror: {
    useRows: useMirroredVehicles,
    useItem: useMirroredVehicle,
    matches: (v, q) => matchesSearch(`${v.plate} ${v.name} ${v.brand ?? ''} ${v.model ?? ''}`, q),
    sortValue: (v, column) =>
      column === 'name' ? v.name : column === 'createdAt' ? v.createdAt : v.plate,
  },
};
