/**
 * Report files and automated reports. Downloads (SPEC §7, blob) take the report
 * query (SPEC §3: beginAt, endAt, format, deliveryMethod, vehicleIds, driverIds) and an
 * optional `emails` list (SPEC §5 rule) for e-mail delivery. An automated report rule has the
 * wire shape fixed for integrators: { id, clientId, name, reportType, format, periodicity,
 * vehicleIds, driverIds, emailDelivery, sendHour, weekday, monthDay, active, lastRun,
 * createdAt, updatedAt }.
 */
import * as v from 'valibot';
import {
  EmailListSchema,
  IdSchema,
  IsoTimestampSchema,
  OrderSchema,
  PagingSchema,
  queryInt,
  REQUIRED,
  SearchSchema,
} from './common';
import * as o from './objects';
import { DELIVERY_METHODS, idList, REPORT_TYPES } from './reports';

const fileQuery = {
  beginAt: IsoTimestampSchema,
  endAt: IsoTimestampSchema,
  deliveryMethod: v.optional(v.picklist(DELIVERY_METHODS, 'Use download ou email'), 'download'),
  emails: v.optional(EmailListSchema),
};
const tableFormat = v.optional(v.picklist(['pdf', 'excel'], 'Use pdf ou excel'), 'excel');
const historyFormat = v.optional(
  v.picklist(['pdf', 'excel', 'kml'], 'Use pdf, excel ou kml'),
  'excel',
);

/** `download/{kind}/{vehicleId}`: one vehicle. */
export const FileQuerySchema = o.strictObject({ ...fileQuery, format: tableFormat });
export const HistoryFileQuerySchema = o.strictObject({ ...fileQuery, format: historyFormat });
/** `v2/download/{kind}?vehicleIds=`. */
export const VehiclesFileQuerySchema = o.strictObject({
  ...fileQuery,
  format: tableFormat,
  vehicleIds: idList(500, 'ao menos um veículo'),
});
export const VehiclesHistoryFileQuerySchema = o.strictObject({
  ...fileQuery,
  format: historyFormat,
  vehicleIds: idList(50, 'ao menos um veículo'),
});
export const DriversFileQuerySchema = o.strictObject({
  ...fileQuery,
  format: tableFormat,
  driverIds: idList(200, 'ao menos um motorista'),
});
/** `v2/geofence/download?vehicleIds=` (and optionally the geofences). */
export const GeofenceFileQuerySchema = o.strictObject({
  ...fileQuery,
  format: tableFormat,
  vehicleIds: idList(500, 'ao menos um veículo'),
  geofenceIds: v.optional(idList(500, 'ao menos uma cerca')),
});
export type FileQuery = v.InferOutput<typeof FileQuerySchema>;

/** The answer of a download asked with deliveryMethod=email (202). */
export const FileQueuedSchema = o.object({ message: v.string(), id: v.string() });

/* ---------- automated reports ---------- */

export const PERIODICITIES = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type Periodicity = (typeof PERIODICITIES)[number];
export const PERIODICITY_LABELS: Record<Periodicity, string> = {
  DAILY: 'Diário',
  WEEKLY: 'Semanal',
  MONTHLY: 'Mensal',
};
export const WEEKDAY_LABELS = [
  '',
  'Segunda-feira',
  'Terça-feira',
  'Quarta-feira',
  'Quinta-feira',
  'Sexta-feira',
  'Sábado',
  'Domingo',
] as const;

export const AutoReportRunSchema = o.object({
  at: v.string(),
  status: v.picklist(['sent', 'failed']),
  error: v.nullable(v.string()),
  periodStart: v.string(),
  periodEnd: v.string(),
});
export type AutoReportRun = v.InferOutput<typeof AutoReportRunSchema>;

export const AutoReportRuleSchema = o.object({
  id: v.string(),
  clientId: v.string(),
  name: v.string(),
  reportType: v.picklist(REPORT_TYPES),
  format: v.picklist(['pdf', 'excel']),
  periodicity: v.picklist(PERIODICITIES),
  vehicleIds: v.array(v.string()),
  driverIds: v.array(v.string()),
  emailDelivery: v.string(),
  sendHour: v.number(),
  weekday: v.number(),
  monthDay: v.number(),
  active: v.boolean(),
  lastRun: v.nullable(AutoReportRunSchema),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type AutoReportRule = v.InferOutput<typeof AutoReportRuleSchema>;

export const AutoReportRulePageSchema = o.object({
  rules: v.array(AutoReportRuleSchema),
  ...PagingSchema.entries,
});

const ruleFields = {
  name: v.pipe(v.string(), v.trim(), v.nonEmpty(REQUIRED), v.maxLength(120, 'Nome longo demais')),
  reportType: v.picklist(REPORT_TYPES, 'Tipo de relatório inválido'),
  format: v.optional(v.picklist(['pdf', 'excel'], 'Use pdf ou excel'), 'excel'),
  periodicity: v.picklist(PERIODICITIES, 'Use DAILY, WEEKLY ou MONTHLY'),
  vehicleIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(500, 'No máximo 500 veículos')), []),
  driverIds: v.optional(
    v.pipe(v.array(IdSchema), v.maxLength(200, 'No máximo 200 motoristas')),
    [],
  ),
  emailDelivery: v.pipe(
    EmailListSchema,
    // No address at all is a missing field, said as every required field says it.
    v.check((value) => value.trim() !== '', REQUIRED),
  ),
  sendHour: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0, 'Hora de 0 a 23'),
      v.maxValue(23, 'Hora de 0 a 23'),
    ),
    7,
  ),
  weekday: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1, 'Dia da semana de 1 (segunda) a 7 (domingo)'),
      v.maxValue(7, 'Dia da semana de 1 (segunda) a 7 (domingo)'),
    ),
    1,
  ),
  monthDay: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1, 'Dia do mês de 1 a 28'),
      v.maxValue(28, 'Dia do mês de 1 a 28'),
    ),
    1,
  ),
  active: v.optional(v.boolean(), true),
};

export const AutoReportRuleInputSchema = o.strictObject({
  clientId: v.optional(IdSchema),
  ...ruleFields,
});
export type AutoReportRuleInput = v.InferOutput<typeof AutoReportRuleInputSchema>;

/** PUT takes any of the fields; what is left out stays as it was. */
export const AutoReportRuleUpdateSchema = o.strictObject({
  name: v.optional(ruleFields.name),
  reportType: v.optional(ruleFields.reportType),
  format: v.optional(v.picklist(['pdf', 'excel'], 'Use pdf ou excel')),
  periodicity: v.optional(ruleFields.periodicity),
  vehicleIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(500, 'No máximo 500 veículos'))),
  driverIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(200, 'No máximo 200 motoristas'))),
  emailDelivery: v.optional(ruleFields.emailDelivery),
  sendHour: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0, 'Hora de 0 a 23'),
      v.maxValue(23, 'Hora de 0 a 23'),
    ),
  ),
  weekday: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1, 'Dia da semana de 1 (segunda) a 7 (domingo)'),
      v.maxValue(7, 'Dia da semana de 1 (segunda) a 7 (domingo)'),
    ),
  ),
  monthDay: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1, 'Dia do mês de 1 a 28'),
      v.maxValue(28, 'Dia do mês de 1 a 28'),
    ),
  ),
  active: v.optional(v.boolean()),
});
export type AutoReportRuleUpdate = v.InferOutput<typeof AutoReportRuleUpdateSchema>;

export const AUTO_REPORT_SORTS = ['name', 'reportType', 'createdAt', 'updatedAt'] as const;

export const AutoReportRuleQuerySchema = o.strictObject({
  clientId: v.optional(IdSchema),
  search: SearchSchema,
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 100),
  sort: v.optional(
    v.picklist(AUTO_REPORT_SORTS, 'Ordene por name, reportType, createdAt ou updatedAt'),
    'createdAt',
  ),
  order: v.optional(OrderSchema, 'desc'),
});
