/**
 * Maintenance plans: a service every N km, engine hours or days, whichever comes first, for a
 * vehicle, for every vehicle of a fleet or for every vehicle of a type, with a warning margin
 * before each.
 */
import { maintenancePlansApi } from '../../api/maintenance';
import {
  type MaintenancePlan,
  MaintenancePlanCreateSchema,
  VEHICLE_TYPE_LABELS,
  VEHICLE_TYPES,
  type VehicleTypeId,
} from '../../contract';
import { maintenanceText } from '../../i18n/maintenance';
import { t } from '../../i18n/pt-BR';
import { formatDay } from '../../lib/format';
import { withFirst } from '../../shared/choices';
import { messages, num, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useFleetChoices } from '../../shared/vehicles/useFleetChoices';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';

const text = maintenanceText;

type PlanValues = {
  clientId: string | null;
  name: string;
  vehicleId: string;
  fleetId: string;
  vehicleType: string;
  everyKm: string;
  everyHours: string;
  everyDays: string;
  warnKm: string;
  warnHours: string;
  warnDays: string;
  startDate: string;
  startKm: string;
  startHours: string;
  active: boolean;
};

const TYPE_OPTIONS = [
  { value: '', label: '—' },
  ...VEHICLE_TYPES.map(([value, label]) => ({ value, label })),
];

const str = (n: number | null) => (n === null ? '' : String(n));
/** A margin or start left empty is zero, never cleared (the column has no null). */
const zero = (value: string) => (value.trim() === '' ? undefined : Number(value));

export const planScreen: ResourceConfig<
  MaintenancePlan,
  Awaited<ReturnType<typeof maintenancePlansApi.list>>,
  PlanValues
> = {
  title: text.plans,
  newTitle: text.newPlan,
  basePath: '/fleet-management/maintenance-plans',
  api: maintenancePlansApi,
  items: (p) => p.plans,
  total: (p) => p.total,
  nameOf: (p) => p.name,
  byClient: true,
  searchLabel: text.searchPlans,
  defaultSort: 'name',
  columns: [
    { id: 'name', label: text.name, sortable: true, rowHeader: true, render: (p) => p.name },
    {
      id: 'every',
      label: text.every,
      render: (p) => text.everyText(p.everyKm, p.everyHours, p.everyDays),
    },
    {
      id: 'target',
      label: text.target,
      render: (p) =>
        p.vehicleType
          ? `${text.vehicleType}: ${VEHICLE_TYPE_LABELS[p.vehicleType as VehicleTypeId] ?? p.vehicleType}`
          : p.fleetId
            ? text.fleet
            : text.vehicle,
    },
    { id: 'startDate', label: text.startDate, render: (p) => formatDay(p.startDate) },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: text.customer, kind: 'customer' },
    { key: 'name', label: text.name, required: true },
    { key: 'vehicleId', label: text.vehicle, kind: 'select', description: text.targetHint },
    { key: 'fleetId', label: text.fleet, kind: 'select' },
    { key: 'vehicleType', label: text.vehicleType, kind: 'select' },
    { key: 'everyKm', label: text.everyKm, kind: 'number', description: text.whicheverFirst },
    { key: 'warnKm', label: text.warnKm, kind: 'number' },
    { key: 'everyHours', label: text.everyHours, kind: 'number', description: text.hoursHint },
    { key: 'warnHours', label: text.warnHours, kind: 'number' },
    { key: 'everyDays', label: text.everyDays, kind: 'number' },
    { key: 'warnDays', label: text.warnDays, kind: 'number' },
    { key: 'startDate', label: text.startDate, type: 'date' },
    { key: 'startKm', label: text.startKm, kind: 'number' },
    { key: 'startHours', label: text.startHours, kind: 'number' },
    { key: 'active', label: t.screens.fleets.status, kind: 'switch' },
  ],
  useOptions: (values) => {
    const none = { value: '', label: '—' };
    return {
      vehicleId: withFirst([none], useVehicleChoices(values.clientId)),
      fleetId: withFirst([none], useFleetChoices(values.clientId)),
      vehicleType: TYPE_OPTIONS,
    };
  },
  empty: (clientId) => ({
    clientId,
    name: '',
    vehicleId: '',
    fleetId: '',
    vehicleType: '',
    everyKm: '',
    everyHours: '',
    everyDays: '',
    warnKm: '',
    warnHours: '',
    warnDays: '',
    startDate: '',
    startKm: '',
    startHours: '',
    active: true,
  }),
  fromItem: (p) => ({
    clientId: p.clientId,
    name: p.name,
    vehicleId: p.vehicleId ?? '',
    fleetId: p.fleetId ?? '',
    vehicleType: p.vehicleType ?? '',
    everyKm: str(p.everyKm),
    everyHours: str(p.everyHours),
    everyDays: str(p.everyDays),
    warnKm: str(p.warnKm),
    warnHours: str(p.warnHours),
    warnDays: str(p.warnDays),
    startDate: p.startDate,
    startKm: str(p.startKm),
    startHours: str(p.startHours),
    active: p.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    name: x.name,
    vehicleId: x.vehicleId || (editing ? null : undefined),
    fleetId: x.fleetId || (editing ? null : undefined),
    vehicleType: (x.vehicleType as VehicleTypeId) || (editing ? null : undefined),
    everyKm: num(x.everyKm, editing),
    everyHours: num(x.everyHours, editing),
    everyDays: num(x.everyDays, editing),
    warnKm: zero(x.warnKm),
    warnHours: zero(x.warnHours),
    warnDays: zero(x.warnDays),
    startDate: x.startDate || undefined,
    startKm: zero(x.startKm),
    startHours: zero(x.startHours),
    active: x.active,
  }),
  schema: MaintenancePlanCreateSchema,
  messages: messages(text.planMessages.one, 'o', text.planMessages.many),
};
