/**
 * Alert rules (SPEC §7 `registros/alert-rules`), declared on the shared list and form screens:
 * the type decides which params the form asks (speed limit, tolerance and duration; a
 * threshold in the type's unit; minutes without a position; geofences), vehicles and fleets
 * (none: every vehicle of the customer), the schedule (weekdays and hours, São Paulo time,
 * possibly across midnight), and the e-mail list behind a 'send e-mail' switch (SPEC §5: the
 * switch is not sent, and the list goes as '' when it is off).
 */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { alertRulesApi, fleetsApi } from '../../api/resources';
import {
  ALERT_TYPE_LABELS,
  ALERT_TYPES,
  type AlertRule,
  AlertRuleCreateSchema,
  type AlertType,
  emailDeliveryOf,
} from '../../contract';
import { useMirroredGeofences } from '../../db/geofences';
import { t } from '../../i18n/pt-BR';
import { WEEKDAY_LABELS } from '../../lib/schedule';
import { AlertTypeChip } from '../../shared/alerts/AlertTypeChip';
import { messages, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleOptions } from '../../shared/vehicles/useVehicleOptions';
import '../../ui/Choice.css';

type RuleValues = {
  clientId: string | null;
  name: string;
  type: string;
  speedLimit: string;
  tolerancePercent: string;
  minDurationSeconds: string;
  threshold: string;
  minutes: string;
  geofenceIds: string[];
  vehicleIds: string[];
  fleetIds: string[];
  scheduled: boolean;
  weekdays: string[];
  startTime: string;
  endTime: string;
  active: boolean;
  sendEmail: boolean;
  emailDelivery: string;
};

const THRESHOLD_LABELS: Partial<Record<AlertType, string>> = {
  LOW_BATTERY: 'Bateria abaixo de (%)',
  LOW_FUEL: 'Combustível abaixo de (%)',
  HIGH_ENGINE_TEMP: 'Temperatura do motor acima de (°C)',
  HIGH_RPM: 'Rotação acima de (RPM)',
  DEVICE_POWER_DISCONNECTED: 'Alimentação abaixo de (V)',
};
const is =
  (...types: AlertType[]) =>
  (values: RuleValues) =>
    types.includes(values.type as AlertType);

/** A number typed as text; empty is absent (the schema then says what is missing). */
const number = (text: string) => (text.trim() === '' ? undefined : Number(text.replace(',', '.')));

function paramsOf(x: RuleValues): Record<string, unknown> {
  switch (x.type) {
    case 'OVERSPEED':
      return {
        speedLimit: number(x.speedLimit),
        tolerancePercent: number(x.tolerancePercent),
        minDurationSeconds: number(x.minDurationSeconds),
      };
    case 'LOCATION_TIMEOUT':
      return { minutes: number(x.minutes) };
    case 'GEOFENCE_ENTER':
    case 'GEOFENCE_EXIT':
      return { geofenceIds: x.geofenceIds };
    default:
      if (x.type in THRESHOLD_LABELS) return { threshold: number(x.threshold) };
      return {};
  }
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

function useRuleOptions(values: RuleValues) {
  const vehicleIds = useVehicleOptions(values.clientId);
  const fleets = useQuery({
    queryKey: keys.resourceList(fleetsApi.path, { clientId: values.clientId, limit: 1000 }),
    queryFn: () => fleetsApi.list({ clientId: values.clientId, limit: 1000, sort: 'name' }),
    enabled: Boolean(values.clientId),
    ...LOOKUP_QUERY,
  });
  const geofences = useMirroredGeofences(values.clientId);
  return {
    vehicleIds,
    fleetIds: (fleets.data?.fleets ?? []).map((f) => ({ label: f.name, value: f.id })),
    geofenceIds: (geofences.rows ?? []).map((g) => ({ label: g.name, value: g.id })),
  };
}

export const alertRuleScreen: ResourceConfig<
  AlertRule,
  Awaited<ReturnType<typeof alertRulesApi.list>>,
  RuleValues
> = {
  title: 'Regras de alerta',
  newTitle: 'Nova regra de alerta',
  basePath: '/fleet-management/alerts',
  api: alertRulesApi,
  items: (p) => p.items,
  total: (p) => p.total,
  nameOf: (r) => r.name,
  byClient: true,
  searchLabel: 'Buscar regras',
  defaultSort: 'name',
  sortChoices: [
    { label: 'Nome (A–Z)', column: 'name', direction: 'asc' },
    { label: 'Nome (Z–A)', column: 'name', direction: 'desc' },
    { label: 'Criadas por último', column: 'createdAt', direction: 'desc' },
    { label: 'Criadas primeiro', column: 'createdAt', direction: 'asc' },
    { label: 'Alteradas por último', column: 'updatedAt', direction: 'desc' },
  ],
  columns: [
    { id: 'name', label: 'Nome', sortable: true, render: (r) => r.name },
    { id: 'type', label: 'Tipo', render: (r) => <AlertTypeChip type={r.type} /> },
    {
      id: 'vehicles',
      label: 'Veículos',
      render: (r) =>
        r.vehicleIds.length + r.fleetIds.length === 0
          ? 'Todos do cliente'
          : [
              r.vehicleIds.length ? `${r.vehicleIds.length} veículo(s)` : '',
              r.fleetIds.length ? `${r.fleetIds.length} frota(s)` : '',
            ]
              .filter(Boolean)
              .join(' e '),
    },
    {
      id: 'schedule',
      label: 'Quando',
      render: (r) =>
        r.schedule
          ? `${r.schedule.weekdays.map((d) => WEEKDAY_LABELS[d]).join(', ')} · ${r.schedule.startTime}–${r.schedule.endTime}`
          : 'Sempre',
    },
    { id: 'email', label: 'E-mail', render: (r) => (r.emailDelivery ? r.emailDelivery : '—') },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: 'Cliente', kind: 'customer', createOnly: true },
    { key: 'name', label: 'Nome', required: true },
    {
      key: 'type',
      label: 'Tipo de alerta',
      kind: 'select',
      required: true,
      options: ALERT_TYPES.map((type) => ({ label: ALERT_TYPE_LABELS[type], value: type })),
    },
    {
      key: 'speedLimit',
      label: 'Limite de velocidade (km/h)',
      kind: 'number',
      required: true,
      shownWhen: is('OVERSPEED'),
      description: 'Dentro de uma cerca com limite próprio, vale o limite da cerca.',
    },
    {
      key: 'tolerancePercent',
      label: 'Tolerância (%)',
      kind: 'number',
      shownWhen: is('OVERSPEED'),
    },
    {
      key: 'minDurationSeconds',
      label: 'Duração mínima acima do limite (s)',
      kind: 'number',
      shownWhen: is('OVERSPEED'),
      description: 'Um alerta por episódio, depois desse tempo acima do limite.',
    },
    {
      key: 'threshold',
      label: 'Limite',
      labelOf: (values) => THRESHOLD_LABELS[values.type as AlertType] ?? 'Limite',
      kind: 'number',
      required: true,
      shownWhen: (values) => values.type in THRESHOLD_LABELS,
    },
    {
      key: 'minutes',
      label: 'Minutos sem posição',
      kind: 'number',
      required: true,
      shownWhen: is('LOCATION_TIMEOUT'),
    },
    {
      key: 'geofenceIds',
      label: 'Cercas (nenhuma: as cercas associadas a cada veículo, pelo tipo de regra)',
      kind: 'checkboxes',
      noun: ['cerca', 'cercas'],
      shownWhen: is('GEOFENCE_ENTER', 'GEOFENCE_EXIT'),
    },
    {
      key: 'vehicleIds',
      label: 'Veículos (nenhum e nenhuma frota: todos do cliente)',
      kind: 'checkboxes',
      noun: ['veículo', 'veículos'],
    },
    { key: 'fleetIds', label: 'Frotas', kind: 'checkboxes', noun: ['frota', 'frotas'] },
    {
      key: 'scheduled',
      label: 'Quando',
      kind: 'switch',
      switchLabel: 'Só em alguns dias e horários',
    },
    {
      key: 'weekdays',
      label: 'Dias da semana',
      kind: 'checkboxes',
      noun: ['dia', 'dias'],
      options: WEEKDAY_LABELS.map((label, i) => ({ label, value: String(i) })),
      shownWhen: (values) => values.scheduled,
    },
    {
      key: 'startTime',
      label: 'Das (horário de Brasília)',
      type: 'time',
      required: true,
      shownWhen: (values) => values.scheduled,
    },
    {
      key: 'endTime',
      label: 'Até (antes do início: passa da meia-noite)',
      type: 'time',
      required: true,
      shownWhen: (values) => values.scheduled,
    },
    {
      key: 'sendEmail',
      label: 'E-mail',
      kind: 'switch',
      switchLabel: 'Enviar por e-mail',
    },
    {
      key: 'emailDelivery',
      label: 'E-mails para envio',
      type: 'email',
      description: 'Separe os e-mails por vírgula. Um e-mail por minuto com os alertas da regra.',
      shownWhen: (values) => values.sendEmail,
    },
    { key: 'active', label: 'Status', kind: 'switch' },
  ],
  useOptions: useRuleOptions,
  empty: (clientId) => ({
    clientId,
    name: '',
    type: '',
    speedLimit: '',
    tolerancePercent: '0',
    minDurationSeconds: '0',
    threshold: '',
    minutes: '',
    geofenceIds: [],
    vehicleIds: [],
    fleetIds: [],
    scheduled: false,
    weekdays: ['1', '2', '3', '4', '5'],
    startTime: '',
    endTime: '',
    active: true,
    sendEmail: false,
    emailDelivery: '',
  }),
  fromItem: (r) => ({
    clientId: r.clientId,
    name: r.name,
    type: r.type,
    speedLimit: text(r.params.speedLimit),
    tolerancePercent: text(r.params.tolerancePercent ?? 0),
    minDurationSeconds: text(r.params.minDurationSeconds ?? 0),
    threshold: text(r.params.threshold),
    minutes: text(r.params.minutes),
    geofenceIds: Array.isArray(r.params.geofenceIds) ? (r.params.geofenceIds as string[]) : [],
    vehicleIds: r.vehicleIds,
    fleetIds: r.fleetIds,
    scheduled: r.schedule !== null,
    weekdays: (r.schedule?.weekdays ?? [1, 2, 3, 4, 5]).map(String),
    startTime: r.schedule?.startTime ?? '',
    endTime: r.schedule?.endTime ?? '',
    active: r.active,
    sendEmail: r.emailDelivery !== '',
    emailDelivery: r.emailDelivery,
  }),
  toPayload: (x) => ({
    clientId: x.clientId ?? undefined,
    name: x.name,
    type: x.type || undefined,
    params: paramsOf(x),
    vehicleIds: x.vehicleIds,
    fleetIds: x.fleetIds,
    schedule: x.scheduled
      ? { weekdays: x.weekdays.map(Number), startTime: x.startTime, endTime: x.endTime }
      : null,
    active: x.active,
    // SPEC §5: the list only with the switch on and something in it; the switch is not sent.
    emailDelivery: emailDeliveryOf(x.sendEmail, x.emailDelivery),
  }),
  schema: AlertRuleCreateSchema,
  // The switch is not sent: on with no address, the rule would be saved without e-mail.
  problems: (x) =>
    x.sendEmail && x.emailDelivery.trim() === '' ? { emailDelivery: t.alerts.emailNeeded } : {},
  fieldOf: (path) => {
    const [head, tail] = path.split('.');
    return (head === 'params' || head === 'schedule') && tail ? tail : (head ?? path);
  },
  messages: messages('regra de alerta', 'a', 'regras de alerta'),
};
