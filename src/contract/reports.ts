/**
 * Reports (SPEC §3 Report, §7 `registros/reports`): histories, positions, trips and stops,
 * distances per day, drivers and the one-page summary (light_final_report), and the record of
 * each report a user asked for. Distances are metres, durations seconds, speeds km/h, times
 * ISO 8601; days are America/Sao_Paulo calendar days ('AAAA-MM-DD').
 */
import * as v from 'valibot';
import {
  IdSchema,
  IsoTimestampSchema,
  OrderSchema,
  PagingSchema,
  queryInt,
  SearchSchema,
} from './common';
import * as o from './objects';

export const REPORT_TYPES = [
  'HISTORY',
  'TRIPS',
  'DISTANCE',
  'POSITIONS',
  'DRIVERS',
  'light_final_report',
  'FLEET_COSTS',
  'DRIVING',
  'JORNADA',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
/** Report types made for chosen drivers, not vehicles. */
export const DRIVER_REPORT_TYPES: readonly ReportType[] = ['DRIVERS', 'JORNADA'];
export const isDriverReport = (type: ReportType) => DRIVER_REPORT_TYPES.includes(type);
export const REPORT_FORMATS = ['pdf', 'excel', 'kml'] as const;
export const DELIVERY_METHODS = ['download', 'email'] as const;
export const REPORT_STATUSES = ['pending', 'processing', 'done', 'failed'] as const;

/** Comma-separated ids (or the parameter repeated), at least one, at most `max`. */
export function idList(max: number, label: string) {
  return v.pipe(
    v.union([v.string(), v.array(v.string())]),
    v.transform((value: string | string[]) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .map((id) => id.trim())
        .filter(Boolean),
    ),
    v.array(IdSchema),
    v.minLength(1, `Informe ${label}`),
    v.maxLength(max, `No máximo ${max} por relatório`),
    v.transform((ids: string[]) => [...new Set(ids)]),
  );
}

const period = {
  beginAt: IsoTimestampSchema,
  endAt: IsoTimestampSchema,
  /** Accepted here; the file and its e-mail delivery are made by the report files (report-files.ts). */
  format: v.optional(v.picklist(REPORT_FORMATS, 'Use pdf, excel ou kml')),
  deliveryMethod: v.optional(v.picklist(DELIVERY_METHODS, 'Use download ou email')),
};

/** `?beginAt&endAt` of a one-vehicle (or one-driver) report. */
export const ReportQuerySchema = o.strictObject(period);
export type ReportQuery = v.InferOutput<typeof ReportQuerySchema>;

/** Reports of many vehicles at once (`v2/…?vehicleIds=`). */
export const VehiclesReportQuerySchema = o.strictObject({
  ...period,
  vehicleIds: idList(500, 'ao menos um veículo'),
});

/** Reports of many drivers at once (`v2/drivers?driverIds=`). */
export const DriversReportQuerySchema = o.strictObject({
  ...period,
  driverIds: idList(200, 'ao menos um motorista'),
});

export const VehicleParamSchema = o.object({ vehicleId: IdSchema });

const nullableNumber = v.nullable(v.number());

const VehicleHeader = {
  vehicleId: v.string(),
  plate: v.string(),
  name: v.string(),
};
const PeriodHeader = { beginAt: v.string(), endAt: v.string() };

export const TripSchema = o.object({
  vehicleId: v.string(),
  startTime: v.string(),
  endTime: v.string(),
  startLatitude: v.number(),
  startLongitude: v.number(),
  endLatitude: v.number(),
  endLongitude: v.number(),
  /** Metres, from the odometer. */
  distance: v.number(),
  /** Seconds. */
  duration: v.number(),
  maxSpeed: v.number(),
  averageSpeed: v.number(),
  startOdometer: v.number(),
  endOdometer: v.number(),
  driverRfid: v.nullable(v.string()),
  driverName: v.nullable(v.string()),
  /** True when the trip began after the driver's CNH had expired (absent otherwise). */
  driverLicenseExpired: v.optional(v.literal(true)),
});
export type Trip = v.InferOutput<typeof TripSchema>;

export const StopSchema = o.object({
  vehicleId: v.string(),
  startTime: v.string(),
  endTime: v.string(),
  latitude: v.number(),
  longitude: v.number(),
  duration: v.number(),
  /** Seconds with the ignition on (idling); null when the tracker does not report ignition. */
  idleTime: nullableNumber,
});
export type Stop = v.InferOutput<typeof StopSchema>;

export const TripTotalsSchema = o.object({
  trips: v.number(),
  distance: v.number(),
  drivingTime: v.number(),
  stops: v.number(),
  stopTime: v.number(),
  idleTime: v.number(),
  maxSpeed: v.number(),
});
export type TripTotals = v.InferOutput<typeof TripTotalsSchema>;

export const TripsReportSchema = o.object({
  ...VehicleHeader,
  ...PeriodHeader,
  trips: v.array(TripSchema),
  stops: v.array(StopSchema),
  totals: TripTotalsSchema,
});
export type TripsReport = v.InferOutput<typeof TripsReportSchema>;

export const TripsReportsSchema = o.object({
  ...PeriodHeader,
  vehicles: v.array(TripsReportSchema),
});

export const DayResultSchema = o.object({
  distance: v.number(),
  fixes: v.number(),
  maxSpeed: nullableNumber,
  firstFix: v.nullable(v.string()),
  lastFix: v.nullable(v.string()),
});
export type DayResult = v.InferOutput<typeof DayResultSchema>;

export const DistanceReportSchema = o.object({
  ...VehicleHeader,
  ...PeriodHeader,
  distance: v.number(),
  /** Every São Paulo day of the period, even those without a fix (distance 0). */
  dailyResults: o.record(v.string(), DayResultSchema),
});
export type DistanceReport = v.InferOutput<typeof DistanceReportSchema>;

export const DistanceReportsSchema = o.object({
  ...PeriodHeader,
  vehicles: v.array(DistanceReportSchema),
});

/** An alert shown with a history or counted in a summary (alerts come from the alert engine). */
export const ReportAlertSchema = o.object({
  id: v.string(),
  type: v.string(),
  time: v.string(),
  latitude: nullableNumber,
  longitude: nullableNumber,
});
export type ReportAlert = v.InferOutput<typeof ReportAlertSchema>;

export const HistoryPointSchema = o.object({
  fixTime: v.string(),
  latitude: v.number(),
  longitude: v.number(),
  speed: nullableNumber,
  course: nullableNumber,
  ignition: v.nullable(v.boolean()),
  odometer: v.number(),
});
export type HistoryPoint = v.InferOutput<typeof HistoryPointSchema>;

export const HistoryReportSchema = o.object({
  ...VehicleHeader,
  ...PeriodHeader,
  vehicleType: v.string(),
  positions: v.array(HistoryPointSchema),
  stops: v.array(StopSchema),
  alerts: v.array(ReportAlertSchema),
});
export type HistoryReport = v.InferOutput<typeof HistoryReportSchema>;

/** A stored position with every attribute (the positions report). */
export const PositionRowSchema = o.object({
  fixTime: v.string(),
  receivedAt: v.string(),
  trackerId: v.string(),
  latitude: v.number(),
  longitude: v.number(),
  speed: nullableNumber,
  course: nullableNumber,
  altitude: nullableNumber,
  accuracy: nullableNumber,
  ignition: v.nullable(v.boolean()),
  battery: nullableNumber,
  odometer: v.number(),
  driverRfid: v.nullable(v.string()),
  driverName: v.nullable(v.string()),
  attributes: v.nullable(o.record(v.string(), v.unknown())),
});
export type PositionRow = v.InferOutput<typeof PositionRowSchema>;

/**
 * GET registros/reports/positions/{vehicleId}: the vehicle and the period, then its positions
 * (streamed, one per line).
 */
export const PositionsReportSchema = o.object({
  ...VehicleHeader,
  ...PeriodHeader,
  positions: v.array(PositionRowSchema),
});
export type PositionsReport = v.InferOutput<typeof PositionsReportSchema>;

export const SummarySchema = o.object({
  ...VehicleHeader,
  ...PeriodHeader,
  distance: v.number(),
  drivingTime: v.number(),
  idleTime: v.number(),
  stopTime: v.number(),
  stops: v.number(),
  trips: v.number(),
  maxSpeed: v.number(),
  averageSpeed: v.number(),
  alertsByType: o.record(v.string(), v.number()),
});
export type Summary = v.InferOutput<typeof SummarySchema>;

export const SummariesSchema = o.object({ ...PeriodHeader, vehicles: v.array(SummarySchema) });

export const DriverTripSchema = o.object({
  ...TripSchema.entries,
  plate: v.string(),
  vehicleName: v.string(),
});

export const DriverReportSchema = o.object({
  driverId: v.string(),
  name: v.string(),
  rfid: v.nullable(v.string()),
  ...PeriodHeader,
  trips: v.array(DriverTripSchema),
  distance: v.number(),
  drivingTime: v.number(),
  vehicles: v.array(
    o.object({
      ...VehicleHeader,
      trips: v.number(),
      distance: v.number(),
      drivingTime: v.number(),
    }),
  ),
});
export type DriverReport = v.InferOutput<typeof DriverReportSchema>;

export const DriverReportsSchema = o.object({
  ...PeriodHeader,
  drivers: v.array(DriverReportSchema),
});

/** A customer's trip rules (see server/reports/motion.ts). */
/**
 * One stay of a vehicle inside a geofence, as the alert engine sees crossings (the same
 * geometry and hysteresis). `insideAtStart`: it was already inside at the period's first fix
 * (its entry is before the period); `exitedAt` null: still inside at the period's last fix.
 */
export const GeofenceVisitSchema = o.object({
  vehicleId: v.string(),
  plate: v.string(),
  geofenceId: v.string(),
  geofenceName: v.string(),
  enteredAt: v.string(),
  exitedAt: v.nullable(v.string()),
  insideAtStart: v.boolean(),
  durationSeconds: v.number(),
});
export type GeofenceVisit = v.InferOutput<typeof GeofenceVisitSchema>;

/** Per vehicle and geofence: entries and exits within the period, and the time inside. */
export const GeofenceTotalSchema = o.object({
  vehicleId: v.string(),
  plate: v.string(),
  geofenceId: v.string(),
  geofenceName: v.string(),
  entries: v.number(),
  exits: v.number(),
  insideSeconds: v.number(),
});
export type GeofenceTotal = v.InferOutput<typeof GeofenceTotalSchema>;

/** `geofence/{vehicleId}`: one vehicle's visits to every geofence that applies to it. */
export const GeofenceReportSchema = o.object({
  ...VehicleHeader,
  ...PeriodHeader,
  visits: v.array(GeofenceVisitSchema),
  totals: v.array(GeofenceTotalSchema),
});
export type GeofenceReport = v.InferOutput<typeof GeofenceReportSchema>;

/** `by-fence/{geofenceId}`: every vehicle's visits to one geofence. */
export const FenceReportSchema = o.object({
  geofenceId: v.string(),
  geofenceName: v.string(),
  ...PeriodHeader,
  visits: v.array(GeofenceVisitSchema),
  totals: v.array(GeofenceTotalSchema),
});
export type FenceReport = v.InferOutput<typeof FenceReportSchema>;

/** `by-fence/{geofenceId}`: the period and, optionally, only some vehicles. */
export const FenceReportQuerySchema = o.strictObject({
  ...period,
  vehicleIds: v.optional(idList(500, 'ao menos um veículo')),
});
export const GeofenceParamSchema = o.object({ geofenceId: IdSchema });

export const TripSettingsSchema = o.object({
  clientId: v.string(),
  minDistance: v.number(),
  stopSeconds: v.number(),
  gapSeconds: v.number(),
  useIgnition: v.boolean(),
});
export const TripSettingsInputSchema = o.strictObject({
  minDistance: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(50, 'Mínimo 50 m'),
      v.maxValue(5000, 'Máximo 5.000 m'),
    ),
  ),
  stopSeconds: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(30, 'Mínimo 30 s'),
      v.maxValue(3600, 'Máximo 3.600 s'),
    ),
  ),
  gapSeconds: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(300, 'Mínimo 300 s'),
      v.maxValue(86_400, 'Máximo 86.400 s'),
    ),
  ),
  useIgnition: v.optional(v.boolean()),
});

/** A report a user asked for (SPEC §3 Report). */
export const ReportRequestSchema = o.object({
  id: v.string(),
  clientId: v.string(),
  userId: v.string(),
  name: v.string(),
  reportType: v.picklist(REPORT_TYPES),
  vehicleIds: v.array(v.string()),
  driverIds: v.array(v.string()),
  beginAt: v.string(),
  endAt: v.string(),
  format: v.nullable(v.string()),
  deliveryMethod: v.nullable(v.string()),
  status: v.picklist(REPORT_STATUSES),
  error: v.nullable(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type ReportRequest = v.InferOutput<typeof ReportRequestSchema>;

export const ReportRequestPageSchema = o.object({
  reports: v.array(ReportRequestSchema),
  ...PagingSchema.entries,
});

export const REPORT_SORTS = ['name', 'reportType', 'createdAt', 'updatedAt'] as const;

export const ReportRequestQuerySchema = o.strictObject({
  clientId: v.optional(IdSchema),
  search: SearchSchema,
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 100),
  sort: v.optional(v.picklist(REPORT_SORTS, 'Ordene por name, reportType, createdAt ou updatedAt')),
  order: v.optional(OrderSchema, 'desc'),
});

export const ReportRequestInputSchema = o.strictObject({
  name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120, 'Nome longo demais'))),
  reportType: v.picklist(REPORT_TYPES, 'Tipo de relatório inválido'),
  vehicleIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(500, 'No máximo 500 veículos'))),
  driverIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(200, 'No máximo 200 motoristas'))),
  beginAt: IsoTimestampSchema,
  endAt: IsoTimestampSchema,
  format: v.optional(v.picklist(REPORT_FORMATS, 'Use pdf, excel ou kml')),
  deliveryMethod: v.optional(v.picklist(DELIVERY_METHODS, 'Use download ou email')),
  /** Who receives an e-mailed file (SPEC §5 list; the user when empty). */
  emails: v.optional(v.pipe(v.string(), v.maxLength(2000, 'Lista de e-mails longa demais'))),
});
export type ReportRequestInput = v.InferOutput<typeof ReportRequestInputSchema>;

/** pt-BR names of the report types, for lists and pickers. */
export const REPORT_TYPE_LABELS: Record<ReportType, string> = {
  HISTORY: 'Histórico',
  TRIPS: 'Jornadas',
  DISTANCE: 'Distâncias percorridas',
  POSITIONS: 'Posições',
  DRIVERS: 'Motoristas',
  light_final_report: 'Resumo do veículo',
  FLEET_COSTS: 'Custos da frota',
  DRIVING: 'Comportamento do motorista',
  JORNADA: 'Jornada do motorista',
};
