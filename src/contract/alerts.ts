/**
 * Alert rules and alerts (SPEC §3, §7 `registros/alert-rules` and `registros/alerts`).
 *
 * A rule: `{ id, clientId, name, type, vehicleIds, fleetIds, params, schedule, active,
 * emailDelivery }`; empty vehicleIds and fleetIds mean every vehicle of the customer (and of
 * the companies below it). `params` depends on the type; `schedule` (weekdays and hours in
 * São Paulo time, possibly across midnight) limits when it raises alerts, null for always.
 * An alert: `{ id, type, vehicleId, plate, vehicleName, driverId, driverName, document, ruleId,
 * ruleName, latitude, longitude, speed, fixTime, createdAt, updatedAt, acknowledgedAt,
 * acknowledgedBy, late }`. It is about a vehicle, or about a driver (vehicleId null: a driver's document
 * expiring, the CNH included).
 */
import * as v from 'valibot';
import { validateEmailList } from '../lib/emails';
import {
  IdSchema,
  IsoTimestampSchema,
  OrderSchema,
  QueryBoolSchema,
  queryInt,
  REQUIRED,
  SearchSchema,
} from './common';
import { ALL_WEEKDAYS, TIME_PATTERN, WeekdaysSchema } from './geofences';
import * as o from './objects';

/**
 * Alarms the device itself raises (GT06, Suntech, Teltonika, Queclink; an OsmAnd `alarm`): a
 * panic button, a jammer blinding its radio, the vehicle towed with the ignition off, and harsh
 * driving. PANIC is raised for every customer, with or without a rule, like DUPLICATE_DEVICE;
 * the others through rules.
 */
export const DEVICE_ALARM_TYPES = [
  'PANIC',
  'JAMMING',
  'TOWING',
  'HARSH_BRAKING',
  'HARSH_ACCELERATION',
  'HARSH_CORNERING',
] as const;
export type DeviceAlarmType = (typeof DEVICE_ALARM_TYPES)[number];

export const ALERT_TYPES = [
  'OVERSPEED',
  'DIN1',
  'IGNITION_ON',
  'IGNITION_OFF',
  'LOW_BATTERY',
  'DEVICE_POWER_DISCONNECTED',
  'LOCK_ACTIVATED',
  'GEOFENCE_ENTER',
  'GEOFENCE_EXIT',
  'LOCATION_TIMEOUT',
  'HIGH_ENGINE_TEMP',
  'HIGH_RPM',
  'LOW_FUEL',
  /**
   * Fuel gone while the vehicle stands with its engine off (the theft case): the fuel sensor's
   * reading fell by the rule's amount below where it stood when the vehicle stopped, and stayed
   * there for two readings in a row. A refuel while stopped raises nothing.
   */
  'FUEL_DROP',
  /**
   * Two live sessions speak for one tracker (an impostor, or a cloned device). Raised by the
   * device links for every customer, with or without a rule; a rule adds its e-mails.
   */
  'DUPLICATE_DEVICE',
  ...DEVICE_ALARM_TYPES,
  /**
   * A maintenance plan entering its warning margin or passing its limit: raised by a periodic
   * check through rules, once per plan cycle and stage (details.stage 'soon' or 'overdue').
   */
  'MAINTENANCE_DUE',
  /**
   * A vehicle's document within `daysBefore` São Paulo days of its expiry (or past it): raised
   * by the same periodic check, once per document and expiry day.
   */
  'DOCUMENT_EXPIRING',
  /**
   * A driver at 5 h of continuous driving: 30 min before the 5 h 30 the law allows (CTB art.
   * 67-C). Raised by a periodic check over the drivers' RFID tags, once per driving stretch.
   */
  'JORNADA_DRIVING_LIMIT',
  /**
   * A driver's working day began after less than 11 h of unbroken rest (CLT art. 235-C §3):
   * raised by the same check, once per journey.
   */
  'JORNADA_REST_SHORT',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const ALERT_TYPE_LABELS: Record<AlertType, string> = {
  OVERSPEED: 'Excesso de velocidade',
  DIN1: 'Entrada 1 acionada',
  IGNITION_ON: 'Ignição ligada',
  IGNITION_OFF: 'Ignição desligada',
  LOW_BATTERY: 'Bateria baixa',
  DEVICE_POWER_DISCONNECTED: 'Alimentação desconectada',
  LOCK_ACTIVATED: 'Bloqueio ativado',
  GEOFENCE_ENTER: 'Entrada em cerca',
  GEOFENCE_EXIT: 'Saída de cerca',
  LOCATION_TIMEOUT: 'Sem posição',
  HIGH_ENGINE_TEMP: 'Temperatura do motor alta',
  HIGH_RPM: 'Rotação do motor alta',
  LOW_FUEL: 'Combustível baixo',
  FUEL_DROP: 'Queda de combustível',
  DUPLICATE_DEVICE: 'Dois aparelhos com o mesmo identificador',
  PANIC: 'Pânico',
  JAMMING: 'Interferência de sinal',
  TOWING: 'Reboque',
  HARSH_BRAKING: 'Frenagem brusca',
  HARSH_ACCELERATION: 'Aceleração brusca',
  HARSH_CORNERING: 'Curva brusca',
  MAINTENANCE_DUE: 'Manutenção vencendo',
  DOCUMENT_EXPIRING: 'Documento vencendo',
  JORNADA_DRIVING_LIMIT: 'Pausa obrigatória em 30 min',
  JORNADA_REST_SHORT: 'Descanso insuficiente',
};

/** Alert types raised by periodic checks over the fleet's records, not by positions. */
export const UPKEEP_ALERT_TYPES = [
  'MAINTENANCE_DUE',
  'DOCUMENT_EXPIRING',
] as const satisfies readonly AlertType[];

/** Alert types raised by the periodic check of the drivers' working day (server/jornada). */
export const JORNADA_ALERT_TYPES = [
  'JORNADA_DRIVING_LIMIT',
  'JORNADA_REST_SHORT',
] as const satisfies readonly AlertType[];

/** An alert's label, told by its details where one type has two ('vencendo' / 'vencida'). */
export function alertLabel(type: AlertType, details?: Record<string, unknown> | null): string {
  if (type === 'MAINTENANCE_DUE' && details?.stage === 'overdue') return 'Manutenção vencida';
  return ALERT_TYPE_LABELS[type];
}

/** Alerts that stay on screen until someone acknowledges them, and are pushed urgently. */
export const STICKY_ALERT_TYPES: readonly AlertType[] = ['PANIC'];

/** SPEC §3 colours, by name and as drawn. */
export const ALERT_COLORS = {
  darkYellow: '#A67C00',
  green: '#2E7D32',
  red: '#C62828',
  orange: '#E65100',
  blue: '#1565C0',
} as const;
export type AlertColor = keyof typeof ALERT_COLORS;

/** OVERSPEED and LOCATION_TIMEOUT dark yellow; DIN1 and IGNITION_ON green; IGNITION_OFF and
 * DEVICE_POWER_DISCONNECTED red; LOW_BATTERY orange; all others blue (SPEC §3). */
export function alertColorName(type: AlertType): AlertColor {
  switch (type) {
    case 'OVERSPEED':
    case 'LOCATION_TIMEOUT':
      return 'darkYellow';
    case 'DIN1':
    case 'IGNITION_ON':
      return 'green';
    case 'IGNITION_OFF':
    case 'DEVICE_POWER_DISCONNECTED':
    // A security alert (somebody else speaks for the vehicle), red like a power cut.
    case 'DUPLICATE_DEVICE':
    // Someone in danger, or a thief's jammer: the colour of the gravest alerts.
    case 'PANIC':
    case 'JAMMING':
    // Fuel taken from a parked vehicle: a theft in progress.
    case 'FUEL_DROP':
      return 'red';
    // The vehicle moved without its engine (towed), like a lost battery: act soon.
    case 'TOWING':
      return 'orange';
    // Driving events, like a speeding episode: a driver's matter, not an emergency.
    case 'HARSH_BRAKING':
    case 'HARSH_ACCELERATION':
    case 'HARSH_CORNERING':
      return 'darkYellow';
    case 'LOW_BATTERY':
    // A driver about to break the law: stop within 30 min, or rested too little.
    case 'JORNADA_DRIVING_LIMIT':
    case 'JORNADA_REST_SHORT':
      return 'orange';
    default:
      return 'blue';
  }
}

export const alertColor = (type: AlertType) => ALERT_COLORS[alertColorName(type)];

export const AlertTypeSchema = v.picklist(ALERT_TYPES, 'Tipo de alerta inválido');

// ── Params per type ─────────────────────────────────────────────────────────────────────
const num = (min: number, max: number, what: string) =>
  v.pipe(
    v.number(`${what}: informe um número`),
    v.minValue(min, `${what}: de ${min} a ${max}`),
    v.maxValue(max, `${what}: de ${min} a ${max}`),
  );
const Empty = o.strictObject({});

export const RULE_PARAMS = {
  OVERSPEED: o.strictObject({
    speedLimit: num(1, 300, 'Limite de velocidade (km/h)'),
    tolerancePercent: v.optional(num(0, 100, 'Tolerância (%)'), 0),
    minDurationSeconds: v.optional(
      v.pipe(num(0, 3600, 'Duração mínima (s)'), v.integer('Duração mínima: segundos inteiros')),
      0,
    ),
  }),
  LOW_BATTERY: o.strictObject({ threshold: num(1, 100, 'Limite da bateria (%)') }),
  HIGH_ENGINE_TEMP: o.strictObject({ threshold: num(40, 200, 'Temperatura (°C)') }),
  HIGH_RPM: o.strictObject({ threshold: num(500, 15_000, 'Rotação (RPM)') }),
  LOW_FUEL: o.strictObject({ threshold: num(1, 100, 'Nível de combustível (%)') }),
  /**
   * The drop that raises FUEL_DROP: in litres where the sensor reads litres (`fuelLiters`),
   * in points of the tank's percentage where it reads percent (`fuelLevel`).
   */
  FUEL_DROP: o.strictObject({
    minDropLiters: v.optional(num(1, 2000, 'Queda mínima (litros)'), 20),
    minDropPercent: v.optional(num(1, 100, 'Queda mínima (% do tanque)'), 10),
  }),
  /** External power under `threshold` volts (or the tracker's power-cut flag). */
  DEVICE_POWER_DISCONNECTED: o.strictObject({
    threshold: v.optional(num(0, 60, 'Tensão mínima da alimentação (V)'), 6),
  }),
  LOCATION_TIMEOUT: o.strictObject({
    minutes: v.pipe(
      num(1, 10_080, 'Tempo sem posição (min)'),
      v.integer('Tempo sem posição: minutos inteiros'),
    ),
  }),
  GEOFENCE_ENTER: o.strictObject({
    geofenceIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(1000)), []),
  }),
  GEOFENCE_EXIT: o.strictObject({
    geofenceIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(1000)), []),
  }),
  IGNITION_ON: Empty,
  IGNITION_OFF: Empty,
  DIN1: Empty,
  LOCK_ACTIVATED: Empty,
  DUPLICATE_DEVICE: Empty,
  PANIC: Empty,
  JAMMING: Empty,
  TOWING: Empty,
  HARSH_BRAKING: Empty,
  HARSH_ACCELERATION: Empty,
  HARSH_CORNERING: Empty,
  MAINTENANCE_DUE: Empty,
  JORNADA_DRIVING_LIMIT: Empty,
  JORNADA_REST_SHORT: Empty,
  DOCUMENT_EXPIRING: o.strictObject({
    daysBefore: v.optional(
      v.pipe(
        num(1, 365, 'Avisar com quantos dias de antecedência'),
        v.integer('Dias de antecedência: use um número inteiro'),
      ),
      30,
    ),
  }),
} satisfies Record<AlertType, v.GenericSchema>;

export type RuleParams = {
  [K in AlertType]: v.InferOutput<(typeof RULE_PARAMS)[K]>;
};
export type AnyRuleParams = RuleParams[AlertType];

/** The params of a type, checked and with defaults; the issues in pt-BR when they are wrong. */
export function parseRuleParams(
  type: AlertType,
  params: unknown,
): { ok: true; params: Record<string, unknown> } | { ok: false; issues: v.BaseIssue<unknown>[] } {
  const result = v.safeParse(RULE_PARAMS[type], params ?? {});
  return result.success
    ? { ok: true, params: result.output as Record<string, unknown> }
    : { ok: false, issues: result.issues as v.BaseIssue<unknown>[] };
}

/** A time of the schedule: empty is a missing field; anything else not 'HH:MM' is wrong. */
const ScheduleTime = v.pipe(
  v.string(),
  v.regex(TIME_PATTERN, (issue) =>
    String(issue.input).trim() === '' ? REQUIRED : 'Horário inválido: use HH:MM',
  ),
);

export const ScheduleSchema = v.nullable(
  o.strictObject({
    weekdays: v.optional(WeekdaysSchema, ALL_WEEKDAYS),
    startTime: ScheduleTime,
    endTime: ScheduleTime,
  }),
);
export type Schedule = v.InferOutput<typeof ScheduleSchema>;

/** SPEC §5: an empty list is fine; otherwise every item must be an e-mail. */
export const EmailDeliverySchema = v.pipe(
  v.string(),
  v.maxLength(2000),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const result = validateEmailList(dataset.value);
    if (result.valid) return;
    addIssue({
      message: result.invalid.length
        ? `E-mail inválido: ${result.invalid.join(', ')}`
        : 'Lista de e-mails inválida: separe os e-mails por vírgula',
    });
  }),
  v.transform((text) => validateEmailList(text).emails.join(', ')),
);

const Name = v.pipe(v.string(), v.trim(), v.nonEmpty('Campo obrigatório'), v.maxLength(80));
const Ids = v.pipe(v.array(IdSchema), v.maxLength(10_000));

const ruleFields = {
  clientId: IdSchema,
  name: Name,
  type: v.nonOptional(AlertTypeSchema, REQUIRED),
  vehicleIds: v.optional(Ids, []),
  fleetIds: v.optional(Ids, []),
  params: v.optional(o.record(v.string(), v.unknown()), {}),
  schedule: v.optional(ScheduleSchema, null),
  active: v.optional(v.boolean(), true),
  emailDelivery: v.optional(EmailDeliverySchema, ''),
};

/** A params issue placed under `params` of the rule, for the form to show at its field. */
function paramsIssue(
  input: Record<string, unknown>,
  issue: v.BaseIssue<unknown>,
): { message: string; path: [v.IssuePathItem, ...v.IssuePathItem[]] } {
  const head: v.IssuePathItem = {
    type: 'object',
    origin: 'value',
    input,
    key: 'params',
    value: input.params,
  };
  return { message: issue.message, path: [head, ...(issue.path ?? [])] };
}

/** Create: the params are checked against the type (and get their defaults). */
export const AlertRuleCreateSchema = v.pipe(
  o.strictObject(ruleFields),
  // Another field wrong (an empty name) stops the transform below: the params are checked
  // here then, so that every problem of the form shows at once.
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.issues) return;
    // Params that are not an object (a list) already have their issue.
    if (dataset.issues.some((issue) => v.getDotPath(issue) === 'params')) return;
    const input = dataset.value as unknown;
    if (typeof input !== 'object' || input === null) return;
    const rule = input as Record<string, unknown>;
    if (!v.is(AlertTypeSchema, rule.type)) return;
    const parsed = parseRuleParams(rule.type, rule.params);
    if (!parsed.ok) for (const issue of parsed.issues) addIssue(paramsIssue(rule, issue));
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parseRuleParams(dataset.value.type, dataset.value.params);
    if (!parsed.ok) {
      for (const issue of parsed.issues) addIssue(paramsIssue(dataset.value, issue));
      return NEVER;
    }
    return { ...dataset.value, params: parsed.params };
  }),
);
/** Update: every field optional; the route checks the params against the resulting type. */
export const AlertRuleUpdateSchema = o.strictObject({
  clientId: v.optional(IdSchema),
  name: v.optional(Name),
  type: v.optional(AlertTypeSchema),
  vehicleIds: v.optional(Ids),
  fleetIds: v.optional(Ids),
  params: v.optional(o.record(v.string(), v.unknown())),
  schedule: v.optional(ScheduleSchema),
  active: v.optional(v.boolean()),
  emailDelivery: v.optional(EmailDeliverySchema),
});
export type AlertRuleCreate = v.InferOutput<typeof AlertRuleCreateSchema>;
export type AlertRuleUpdate = v.InferOutput<typeof AlertRuleUpdateSchema>;

export const ALERT_RULE_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export const AlertRuleQuerySchema = o.strictObject({
  clientId: v.optional(IdSchema),
  search: SearchSchema,
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 1000),
  sort: v.optional(v.picklist(ALERT_RULE_SORTS, 'Ordenação inválida'), 'name'),
  order: OrderSchema,
  active: v.optional(QueryBoolSchema),
  type: v.optional(AlertTypeSchema),
  /** Unused (no mirror of rules); accepted so the shared list controls work. */
  updatedSince: v.optional(IsoTimestampSchema),
  afterId: v.optional(IdSchema),
});

export const AlertRuleSchema = o.object({
  id: v.string(),
  clientId: v.string(),
  name: v.string(),
  type: v.picklist(ALERT_TYPES),
  vehicleIds: v.array(v.string()),
  fleetIds: v.array(v.string()),
  params: o.record(v.string(), v.unknown()),
  schedule: v.nullable(
    o.object({ weekdays: v.array(v.number()), startTime: v.string(), endTime: v.string() }),
  ),
  active: v.boolean(),
  emailDelivery: v.string(),
});
export type AlertRule = v.InferOutput<typeof AlertRuleSchema>;
export const AlertRulePageSchema = o.object({
  items: v.array(AlertRuleSchema),
  page: v.number(),
  limit: v.number(),
  total: v.number(),
});
export type AlertRulePage = v.InferOutput<typeof AlertRulePageSchema>;

// ── Alerts ───────────────────────────────────────────────────────────────────────────────
export const AlertSchema = o.object({
  id: v.string(),
  type: v.picklist(ALERT_TYPES),
  /** Null for an alert about a driver (DOCUMENT_EXPIRING of a driver's document). */
  vehicleId: v.nullable(v.string()),
  plate: v.nullable(v.string()),
  vehicleName: v.nullable(v.string()),
  /** The driver an alert is about, when it is about a driver rather than a vehicle. */
  driverId: v.nullable(v.string()),
  driverName: v.nullable(v.string()),
  /**
   * DOCUMENT_EXPIRING: which document ('CNH', 'Licenciamento (CRLV)', a course's name) and its
   * expiry (São Paulo day 'AAAA-MM-DD'); null for the other types.
   */
  document: v.nullable(o.object({ label: v.string(), expiry: v.string() })),
  ruleId: v.nullable(v.string()),
  ruleName: v.nullable(v.string()),
  latitude: v.nullable(v.number()),
  longitude: v.nullable(v.number()),
  speed: v.nullable(v.number()),
  fixTime: v.nullable(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
  acknowledgedAt: v.nullable(v.string()),
  /** The name of who acknowledged it. */
  acknowledgedBy: v.nullable(v.string()),
  /** Raised from a fix received more than 15 minutes after its time: not pushed nor e-mailed. */
  late: v.boolean(),
});
export type Alert = v.InferOutput<typeof AlertSchema>;

/** An alert's `document`, from what the engine stored of it (its details). */
export function alertDocument(type: string, details: Record<string, unknown>): Alert['document'] {
  if (type !== 'DOCUMENT_EXPIRING') return null;
  const { label, expiry } = details;
  return typeof label === 'string' && typeof expiry === 'string' ? { label, expiry } : null;
}

export const ALERT_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export const AlertQuerySchema = o.strictObject({
  clientId: v.optional(IdSchema),
  vehicleId: v.optional(IdSchema),
  type: v.optional(AlertTypeSchema),
  acknowledged: v.optional(QueryBoolSchema),
  /** The period, on the time the alert was raised. */
  beginAt: v.optional(IsoTimestampSchema),
  endAt: v.optional(IsoTimestampSchema),
  page: queryInt(1, 1, 100_000),
  limit: queryInt(20, 1, 1000),
  /** name: the vehicle's name (the driver's, for an alert about a driver). */
  sort: v.optional(v.picklist(ALERT_SORTS, 'Ordenação inválida'), 'createdAt'),
  order: v.optional(v.picklist(['asc', 'desc'], 'Use asc ou desc'), 'desc'),
});
export type AlertQuery = v.InferInput<typeof AlertQuerySchema>;

export const AlertPageSchema = o.object({
  items: v.array(AlertSchema),
  page: v.number(),
  limit: v.number(),
  total: v.number(),
});
export type AlertPage = v.InferOutput<typeof AlertPageSchema>;

/**
 * The header the service worker adds to an alert page it answers from its copy, when the
 * network cannot: when that copy was kept (ISO time). Network answers never carry it.
 */
export const KEPT_AT_HEADER = 'x-rastro-kept-at';

export const AckSchema = o.strictObject({
  alertIds: v.pipe(
    v.array(IdSchema),
    v.minLength(1, 'Escolha pelo menos um alerta'),
    v.maxLength(1000, 'No máximo 1000 alertas de uma vez'),
  ),
});
export const AckResultSchema = o.object({ count: v.number() });

/** SPEC §5 alert-rule edit: the list only when the e-mail flag is on and it is not empty. */
export function emailDeliveryOf(sendEmail: boolean, emailDelivery: string): string {
  return sendEmail && emailDelivery.trim() !== '' ? emailDelivery : '';
}
