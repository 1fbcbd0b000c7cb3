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
import { alertRulesText } from '../../i18n/alert-rules';
import { documentsText } from '../../i18n/documents';
import { t } from '../../i18n/pt-BR';
import { WEEKDAY_LABELS } from '../../lib/schedule';
import { AlertTypeChip } from '../../shared/alerts/AlertTypeChip';
import { choicesOf } from '../../shared/choices';
import { messages, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
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
  daysBefore: string;
  minDropLiters: string;
  minDropPercent: string;
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
  LOW_BATTERY: alertRulesText.bateriaAbaixoDe,
  LOW_FUEL: alertRulesText.combustivelAbaixoDe,
  HIGH_ENGINE_TEMP: alertRulesText.temperaturaDoMotorAcima,
  HIGH_RPM: alertRulesText.rotacaoAcimaDeRpm,
  DEVICE_POWER_DISCONNECTED: alertRulesText.alimentacaoAbaixoDeV,
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
    case 'DOCUMENT_EXPIRING':
      return { daysBefore: number(x.daysBefore) };
    case 'FUEL_DROP':
      return {
        minDropLiters: number(x.minDropLiters),
        minDropPercent: number(x.minDropPercent),
      };
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
  const vehicleIds = useVehicleChoices(values.clientId);
  const fleets = useQuery({
    queryKey: keys.resourceList(fleetsApi.path, { clientId: values.clientId, limit: 1000 }),
    queryFn: () => fleetsApi.list({ clientId: values.clientId, limit: 1000, sort: 'name' }),
    enabled: Boolean(values.clientId),
    ...LOOKUP_QUERY,
  });
  const geofences = useMirroredGeofences(values.clientId);
  return {
    vehicleIds,
    fleetIds: choicesOf(
      fleets,
      (fleets.data?.fleets ?? []).map((f) => ({ label: f.name, value: f.id })),
    ),
    geofenceIds: {
      options: (geofences.rows ?? []).map((g) => ({ label: g.name, value: g.id })),
      // None kept on this device yet: the first sync is on its way, or failed without signal.
      loading:
        geofences.rows === undefined ||
        (geofences.rows.length === 0 && geofences.syncing && !geofences.syncedAt),
      unavailable:
        geofences.rows?.length === 0 &&
        !geofences.syncing &&
        !geofences.syncedAt &&
        Boolean(geofences.error),
    },
  };
}

export const alertRuleScreen: ResourceConfig<
  AlertRule,
  Awaited<ReturnType<typeof alertRulesApi.list>>,
  RuleValues
> = {
  title: alertRulesText.regrasDeAlerta2,
  newTitle: alertRulesText.novaRegraDeAlerta,
  basePath: '/fleet-management/alerts',
  api: alertRulesApi,
  items: (p) => p.items,
  total: (p) => p.total,
  nameOf: (r) => r.name,
  byClient: true,
  searchLabel: alertRulesText.buscarRegras,
  defaultSort: 'name',
  sortChoices: [
    { label: alertRulesText.nomeAZ, column: 'name', direction: 'asc' },
    { label: alertRulesText.nomeZA, column: 'name', direction: 'desc' },
    { label: alertRulesText.criadasPorUltimo, column: 'createdAt', direction: 'desc' },
    { label: alertRulesText.criadasPrimeiro, column: 'createdAt', direction: 'asc' },
    { label: alertRulesText.alteradasPorUltimo, column: 'updatedAt', direction: 'desc' },
  ],
  columns: [
    { id: 'name', label: alertRulesText.nome, sortable: true, render: (r) => r.name },
    {
      id: 'type',
      label: alertRulesText.tipo,
      render: (r) => <AlertTypeChip type={r.type} />,
    },
    {
      id: 'vehicles',
      label: alertRulesText.veiculos2,
      render: (r) =>
        r.vehicleIds.length + r.fleetIds.length === 0
          ? alertRulesText.todosDoCliente
          : [
              r.vehicleIds.length ? `${r.vehicleIds.length} veículo(s)` : '',
              r.fleetIds.length ? `${r.fleetIds.length} frota(s)` : '',
            ]
              .filter(Boolean)
              .join(' e '),
    },
    {
      id: 'schedule',
      label: alertRulesText.quando,
      render: (r) =>
        r.schedule
          ? `${r.schedule.weekdays.map((d) => WEEKDAY_LABELS[d]).join(', ')} · ${r.schedule.startTime}–${r.schedule.endTime}`
          : 'Sempre',
    },
    {
      id: 'email',
      label: alertRulesText.eMail,
      render: (r) => (r.emailDelivery ? r.emailDelivery : '—'),
    },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: alertRulesText.cliente, kind: 'customer', createOnly: true },
    { key: 'name', label: alertRulesText.nome, required: true },
    {
      key: 'type',
      label: alertRulesText.tipoDeAlerta,
      kind: 'select',
      required: true,
      options: ALERT_TYPES.map((type) => ({ label: ALERT_TYPE_LABELS[type], value: type })),
    },
    {
      key: 'speedLimit',
      label: alertRulesText.limiteDeVelocidadeKm,
      kind: 'number',
      required: true,
      shownWhen: is('OVERSPEED'),
      description: alertRulesText.dentroDeUmaCerca,
    },
    {
      key: 'tolerancePercent',
      label: alertRulesText.tolerancia,
      kind: 'number',
      shownWhen: is('OVERSPEED'),
    },
    {
      key: 'minDurationSeconds',
      label: alertRulesText.duracaoMinimaAcimaDo,
      kind: 'number',
      shownWhen: is('OVERSPEED'),
      description: alertRulesText.umAlertaPorEpisodio,
    },
    {
      key: 'threshold',
      label: alertRulesText.limite,
      labelOf: (values) => THRESHOLD_LABELS[values.type as AlertType] ?? 'Limite',
      kind: 'number',
      required: true,
      shownWhen: (values) => values.type in THRESHOLD_LABELS,
    },
    {
      key: 'minutes',
      label: alertRulesText.minutosSemPosicao,
      kind: 'number',
      required: true,
      shownWhen: is('LOCATION_TIMEOUT'),
    },
    {
      key: 'minDropLiters',
      label: alertRulesText.quedaMinimaLitros,
      kind: 'number',
      shownWhen: is('FUEL_DROP'),
      description: alertRulesText.quedaDeCombustivelHint,
    },
    {
      key: 'minDropPercent',
      label: alertRulesText.quedaMinimaPercent,
      kind: 'number',
      shownWhen: is('FUEL_DROP'),
    },
    {
      key: 'daysBefore',
      label: documentsText.daysBeforeLabel,
      kind: 'number',
      shownWhen: is('DOCUMENT_EXPIRING'),
      description: documentsText.daysBeforeHint,
    },
    {
      key: 'geofenceIds',
      label: alertRulesText.cercasNenhumaAsCercas,
      kind: 'checkboxes',
      noun: [alertRulesText.cerca, alertRulesText.cercas],
      shownWhen: is('GEOFENCE_ENTER', 'GEOFENCE_EXIT'),
    },
    {
      key: 'vehicleIds',
      label: alertRulesText.veiculosNenhumENenhuma,
      kind: 'checkboxes',
      noun: [alertRulesText.veiculo, alertRulesText.veiculos],
    },
    {
      key: 'fleetIds',
      label: alertRulesText.frotas2,
      kind: 'checkboxes',
      noun: [alertRulesText.frota, alertRulesText.frotas],
    },
    {
      key: 'scheduled',
      label: alertRulesText.quando,
      kind: 'switch',
      switchLabel: alertRulesText.soEmAlgunsDias,
    },
    {
      key: 'weekdays',
      label: alertRulesText.diasDaSemana,
      kind: 'checkboxes',
      noun: [alertRulesText.dia, alertRulesText.dias],
      options: WEEKDAY_LABELS.map((label, i) => ({ label, value: String(i) })),
      shownWhen: (values) => values.scheduled,
    },
    {
      key: 'startTime',
      label: alertRulesText.dasHorarioDeBrasilia,
      type: 'time',
      required: true,
      shownWhen: (values) => values.scheduled,
    },
    {
      key: 'endTime',
      label: alertRulesText.ateAntesDoInicio,
      type: 'time',
      required: true,
      shownWhen: (values) => values.scheduled,
    },
    {
      key: 'sendEmail',
      label: alertRulesText.eMail,
      kind: 'switch',
      switchLabel: alertRulesText.enviarPorEMail,
    },
    {
      key: 'emailDelivery',
      label: alertRulesText.eMailsParaEnvio,
      type: 'email',
      description: alertRulesText.separeOsEMails,
      shownWhen: (values) => values.sendEmail,
    },
    { key: 'active', label: alertRulesText.status, kind: 'switch' },
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
    daysBefore: '30',
    minDropLiters: '20',
    minDropPercent: '10',
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
    daysBefore: text(r.params.daysBefore ?? 30),
    minDropLiters: text(r.params.minDropLiters ?? 20),
    minDropPercent: text(r.params.minDropPercent ?? 10),
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
  messages: messages(alertRulesText.regraDeAlerta, 'a', alertRulesText.regrasDeAlerta),
};
