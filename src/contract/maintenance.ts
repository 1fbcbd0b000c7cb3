/**
 * Maintenance: plans (a service every N km, N engine hours or N days, whichever comes first,
 * with a warning margin before each), the service records that restart them, and the list of
 * what is due. The km are the tracked odometer's (the distance the trackers measured); the
 * engine hours are the device's `hours` reading of the vehicle's newest position.
 */
import * as v from 'valibot';
import { IdSchema, isoDateSchema } from './common';
import { listQuery, ownedOut, page } from './inventory';
import * as o from './objects';
import { VEHICLE_TYPE_IDS } from './vehicle-types';

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max));
const required = (max: number) =>
  v.pipe(v.string(), v.trim(), v.nonEmpty('Campo obrigatório'), v.maxLength(max));
const clearable = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));
const whole = (min: number, max: number, what: string) =>
  v.pipe(
    v.number(`${what}: informe um número`),
    v.integer(`${what}: use um número inteiro`),
    v.minValue(min, `${what}: de ${min} a ${max}`),
    v.maxValue(max, `${what}: de ${min} a ${max}`),
  );
const amount = (max: number, what: string) =>
  v.pipe(
    v.number(`${what}: informe um número`),
    v.minValue(0, `${what}: não pode ser negativo`),
    v.maxValue(max, `${what}: até ${max}`),
  );
export const DATE_MESSAGE = 'Data inválida: use AAAA-MM-DD';
const Day = isoDateSchema(DATE_MESSAGE);

export const PLAN_TARGET_MESSAGE = 'Escolha um veículo, uma frota ou um tipo de veículo (só um)';
export const PLAN_INTERVAL_MESSAGE = 'Informe ao menos um intervalo: km, horas ou dias';

// ── Plans ─────────────────────────────────────────────────────────────────────────────────
const planFields = {
  clientId: IdSchema,
  name: required(80),
  vehicleId: v.optional(IdSchema),
  fleetId: v.optional(IdSchema),
  vehicleType: v.optional(v.picklist(VEHICLE_TYPE_IDS, 'Tipo de veículo inválido')),
  everyKm: v.optional(whole(1, 1_000_000, 'Intervalo em km')),
  everyHours: v.optional(whole(1, 100_000, 'Intervalo em horas')),
  everyDays: v.optional(whole(1, 3650, 'Intervalo em dias')),
  warnKm: v.optional(whole(0, 100_000, 'Aviso antes (km)')),
  warnHours: v.optional(whole(0, 10_000, 'Aviso antes (horas)')),
  warnDays: v.optional(whole(0, 365, 'Aviso antes (dias)')),
  /** The day the first cycle counts from (default: the day it is created). */
  startDate: v.optional(Day),
  startKm: v.optional(amount(10_000_000, 'Km inicial')),
  startHours: v.optional(amount(1_000_000, 'Horas iniciais')),
  active: v.optional(v.boolean()),
};
const hasInterval = (p: { everyKm?: unknown; everyHours?: unknown; everyDays?: unknown }) =>
  [p.everyKm, p.everyHours, p.everyDays].some((n) => typeof n === 'number');
export const MaintenancePlanCreateSchema = v.pipe(
  o.strictObject(planFields),
  v.forward(
    v.partialCheck(
      [['vehicleId'], ['fleetId'], ['vehicleType']],
      (p) => [p.vehicleId, p.fleetId, p.vehicleType].filter(Boolean).length === 1,
      PLAN_TARGET_MESSAGE,
    ),
    ['vehicleId'],
  ),
  v.forward(
    v.partialCheck(
      [['everyKm'], ['everyHours'], ['everyDays']],
      hasInterval,
      PLAN_INTERVAL_MESSAGE,
    ),
    ['everyKm'],
  ),
);
/** Every field optional, null clearing; the route checks the result still has a target. */
export const MaintenancePlanUpdateSchema = o.strictObject({
  ...planFields,
  clientId: v.optional(IdSchema),
  name: v.optional(planFields.name),
  vehicleId: clearable(IdSchema),
  fleetId: clearable(IdSchema),
  vehicleType: clearable(planFields.vehicleType.wrapped),
  everyKm: clearable(planFields.everyKm.wrapped),
  everyHours: clearable(planFields.everyHours.wrapped),
  everyDays: clearable(planFields.everyDays.wrapped),
});
export const MAINTENANCE_PLAN_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export const MaintenancePlanQuerySchema = listQuery(MAINTENANCE_PLAN_SORTS);
export const MaintenancePlanSchema = o.object({
  ...ownedOut,
  name: v.string(),
  vehicleId: v.nullable(v.string()),
  fleetId: v.nullable(v.string()),
  vehicleType: v.nullable(v.string()),
  everyKm: v.nullable(v.number()),
  everyHours: v.nullable(v.number()),
  everyDays: v.nullable(v.number()),
  warnKm: v.number(),
  warnHours: v.number(),
  warnDays: v.number(),
  startDate: v.string(),
  startKm: v.number(),
  startHours: v.number(),
});
export type MaintenancePlan = v.InferOutput<typeof MaintenancePlanSchema>;
export const MaintenancePlanPageSchema = page('plans', MaintenancePlanSchema);
export type MaintenancePlanPage = v.InferOutput<typeof MaintenancePlanPageSchema>;

// ── Service records ───────────────────────────────────────────────────────────────────────
const serviceFields = {
  clientId: IdSchema,
  vehicleId: IdSchema,
  date: Day,
  /** Absent: the vehicle's tracked odometer now. */
  odometerKm: v.optional(amount(10_000_000, 'Hodômetro (km)')),
  hours: v.optional(amount(1_000_000, 'Horas de motor')),
  items: v.optional(v.pipe(v.array(required(200)), v.maxLength(100, 'No máximo 100 itens'))),
  /** In reais, to the centavo. */
  cost: v.optional(amount(10_000_000, 'Custo (R$)')),
  workshop: v.optional(text(120)),
  notes: v.optional(text(1000)),
  /** The plans this service restarts. */
  planIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(100))),
  active: v.optional(v.boolean()),
};
export const ServiceRecordCreateSchema = o.strictObject(serviceFields);
export const ServiceRecordUpdateSchema = o.strictObject({
  ...serviceFields,
  clientId: v.optional(IdSchema),
  vehicleId: v.optional(IdSchema),
  date: v.optional(Day),
  odometerKm: clearable(serviceFields.odometerKm.wrapped),
  hours: clearable(serviceFields.hours.wrapped),
  cost: clearable(serviceFields.cost.wrapped),
  workshop: clearable(text(120)),
  notes: clearable(text(1000)),
});
export const SERVICE_RECORD_SORTS = ['date', 'createdAt', 'updatedAt'] as const;
export const ServiceRecordQuerySchema = listQuery(SERVICE_RECORD_SORTS);
export const ServiceRecordSchema = o.object({
  ...ownedOut,
  vehicleId: v.string(),
  date: v.string(),
  odometerKm: v.nullable(v.number()),
  hours: v.nullable(v.number()),
  items: v.array(v.string()),
  cost: v.nullable(v.number()),
  workshop: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  planIds: v.array(v.string()),
});
export type ServiceRecord = v.InferOutput<typeof ServiceRecordSchema>;
export const ServiceRecordPageSchema = page('records', ServiceRecordSchema);
export type ServiceRecordPage = v.InferOutput<typeof ServiceRecordPageSchema>;

// ── Due list ──────────────────────────────────────────────────────────────────────────────
/** ok: not yet in the warning margin; soon: within it; overdue: past one of the limits. */
export const DUE_STATUSES = ['ok', 'soon', 'overdue'] as const;
export type DueStatus = (typeof DUE_STATUSES)[number];

export const DueQuerySchema = o.strictObject({
  clientId: v.optional(IdSchema),
  /** Only these statuses (comma-separated); default all. */
  status: v.optional(
    v.pipe(
      v.string(),
      v.transform((s: string) => s.split(',').filter(Boolean)),
      v.array(v.picklist(DUE_STATUSES, 'Situação inválida')),
    ),
  ),
});

const Measure = o.object({
  /** The interval, where the cycle started, where it ends, what is there now, what is left. */
  every: v.number(),
  start: v.number(),
  due: v.number(),
  now: v.nullable(v.number()),
  left: v.nullable(v.number()),
});
export const DueItemSchema = o.object({
  planId: v.string(),
  planName: v.string(),
  vehicleId: v.string(),
  plate: v.string(),
  vehicleName: v.string(),
  status: v.picklist(DUE_STATUSES),
  /** Names the cycle: the service record it counts from, or 'start'. */
  cycle: v.string(),
  lastServiceDate: v.nullable(v.string()),
  km: v.nullable(Measure),
  hours: v.nullable(Measure),
  days: v.nullable(
    o.object({ every: v.number(), start: v.string(), due: v.string(), left: v.number() }),
  ),
});
export type DueItem = v.InferOutput<typeof DueItemSchema>;
export const DueListSchema = o.object({ items: v.array(DueItemSchema) });
export type DueList = v.InferOutput<typeof DueListSchema>;
