/**
 * The driver's working day ("jornada do motorista", Lei 13.103/2015: CLT art. 235-C and CTB
 * art. 67-C): the driver's marks, a manager's corrections, the company's rules, and the day
 * the server works out of them and of the trackers.
 */
import * as v from 'valibot';
import { IdSchema, IsoTimestampSchema, isoDateSchema, PERIOD_ORDER } from './common';
import * as o from './objects';

export const MARK_KINDS = [
  'journey_start',
  'meal_start',
  'meal_end',
  'rest_start',
  'rest_end',
  'wait_start',
  'wait_end',
  'journey_end',
] as const;
export type MarkKind = (typeof MARK_KINDS)[number];
export const MARK_SOURCES = ['motorista', 'gestor'] as const;
export type MarkSource = (typeof MARK_SOURCES)[number];

/** What a period of the day was. 'work' is other work than driving (loading, paperwork). */
export const PERIOD_KINDS = ['driving', 'work', 'waiting', 'meal', 'rest'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];
/**
 * Where a period comes from: a tracker (the driver's tag read), a tracker whose driver is the
 * one assigned to the vehicle then (no tag read), a mark, a manager's correction, or nothing
 * (inferred).
 */
export const PERIOD_SOURCES = [
  'rastreador',
  'designacao',
  'motorista',
  'gestor',
  'correcao',
  'inferido',
] as const;
export type PeriodSource = (typeof PERIOD_SOURCES)[number];

export const JORNADA_REGIMES = ['cargo', 'passageiros'] as const;
export type JornadaRegime = (typeof JORNADA_REGIMES)[number];

/** How far ahead of our clock a device's clock may run, and how old a mark may arrive. */
export const MARK_FUTURE_SKEW_MS = 5 * 60_000;
export const MARK_MAX_AGE_MS = 7 * 86_400_000;
export const MARK_FUTURE_MESSAGE = 'Horário da marcação no futuro: confira o relógio do aparelho';
export const MARK_TOO_OLD_MESSAGE = 'Marcação com mais de 7 dias: peça a correção ao gestor';
export const MARK_ID_TAKEN_MESSAGE = 'Este identificador já foi usado por outra marcação';

export const MarkCreateSchema = o.strictObject({
  /** Made by the device (a UUID): a mark sent twice is stored once. */
  id: IdSchema,
  kind: v.picklist(MARK_KINDS, 'Tipo de marcação inválido'),
  /** When the driver marked it, by the device's clock. */
  at: IsoTimestampSchema,
  note: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(300, 'Observação longa demais'))),
});
export type MarkCreate = v.InferOutput<typeof MarkCreateSchema>;

export const MarkSchema = o.object({
  id: v.string(),
  driverId: v.string(),
  kind: v.picklist(MARK_KINDS),
  at: v.string(),
  source: v.picklist(MARK_SOURCES),
  note: v.nullable(v.string()),
  receivedAt: v.string(),
});
export type Mark = v.InferOutput<typeof MarkSchema>;
export const MarkListSchema = o.object({ items: v.array(MarkSchema) });

const REASON_MESSAGE = 'Informe o motivo da correção';
export const CORRECTION_LENGTH_MESSAGE = 'Uma correção cobre no máximo 24 horas';

export const CorrectionCreateSchema = v.pipe(
  o.strictObject({
    kind: v.picklist(PERIOD_KINDS, 'Tipo de período inválido'),
    start: IsoTimestampSchema,
    end: IsoTimestampSchema,
    reason: v.pipe(
      v.string(REASON_MESSAGE),
      v.trim(),
      v.minLength(3, REASON_MESSAGE),
      v.maxLength(500, 'Motivo longo demais'),
    ),
  }),
  v.forward(
    v.partialCheck(
      [['start'], ['end']],
      (d) => Date.parse(d.end) > Date.parse(d.start),
      PERIOD_ORDER,
    ),
    ['end'],
  ),
  v.forward(
    v.partialCheck(
      [['start'], ['end']],
      (d) => Date.parse(d.end) - Date.parse(d.start) <= 86_400_000,
      CORRECTION_LENGTH_MESSAGE,
    ),
    ['end'],
  ),
);
export type CorrectionCreate = v.InferOutput<typeof CorrectionCreateSchema>;

export const CorrectionSchema = o.object({
  id: v.string(),
  driverId: v.string(),
  kind: v.picklist(PERIOD_KINDS),
  start: v.string(),
  end: v.string(),
  reason: v.string(),
  userId: v.nullable(v.string()),
  createdAt: v.string(),
});
export type Correction = v.InferOutput<typeof CorrectionSchema>;
export const CorrectionListSchema = o.object({ items: v.array(CorrectionSchema) });

const DAY_MESSAGE = 'Data inválida: use AAAA-MM-DD';
/** The São Paulo days of a list or report, at most 62 of them. */
export const JornadaRangeQuerySchema = v.pipe(
  o.object({ from: isoDateSchema(DAY_MESSAGE), to: isoDateSchema(DAY_MESSAGE) }),
  v.forward(
    v.partialCheck([['from'], ['to']], (d) => d.to >= d.from, PERIOD_ORDER),
    ['to'],
  ),
  v.forward(
    v.partialCheck(
      [['from'], ['to']],
      (d) => Date.parse(d.to) - Date.parse(d.from) <= 61 * 86_400_000,
      'Período de no máximo 62 dias',
    ),
    ['to'],
  ),
);

/** A file of a driver's days: 'jornada' (any period) or the month's 'espelho' de ponto. */
export const JornadaFileQuerySchema = v.pipe(
  o.object({
    from: isoDateSchema(DAY_MESSAGE),
    to: isoDateSchema(DAY_MESSAGE),
    format: v.picklist(['pdf', 'excel'], 'Formato inválido: use pdf ou excel'),
    kind: v.optional(v.picklist(['jornada', 'espelho'], 'Use jornada ou espelho'), 'jornada'),
  }),
  v.forward(
    v.partialCheck([['from'], ['to']], (d) => d.to >= d.from, PERIOD_ORDER),
    ['to'],
  ),
  v.forward(
    v.partialCheck(
      [['from'], ['to']],
      (d) => Date.parse(d.to) - Date.parse(d.from) <= 61 * 86_400_000,
      'Período de no máximo 62 dias',
    ),
    ['to'],
  ),
);

export const DriverParam = o.object({ driverId: IdSchema });

export const JornadaSettingsSchema = o.object({
  clientId: v.string(),
  regime: v.picklist(JORNADA_REGIMES),
  overtimeLimitMinutes: v.number(),
});
export type JornadaSettings = v.InferOutput<typeof JornadaSettingsSchema>;
export const JornadaSettingsQuerySchema = o.object({ clientId: IdSchema });
export const JornadaSettingsUpdateSchema = o.strictObject({
  clientId: IdSchema,
  regime: v.optional(v.picklist(JORNADA_REGIMES, 'Use cargo ou passageiros')),
  overtimeLimitMinutes: v.optional(
    v.picklist([120, 240], 'Horas extras: 2 h (lei) ou 4 h (acordo coletivo)'),
  ),
});

export const VIOLATION_RULES = [
  'continuous_driving',
  'driving_break',
  'daily_rest_first',
  'daily_rest',
  'meal_break',
  'overtime',
] as const;
export type ViolationRule = (typeof VIOLATION_RULES)[number];

/*
 * The words of periods, their sources and the rules, as the screens (src/i18n/jornada.ts) and
 * the report files (server/jornada/files.ts) both say them: one copy, so a file never names a
 * period otherwise than the screen the manager compares it with.
 */
export const PERIOD_KIND_LABELS = {
  driving: 'Direção',
  work: 'Outro trabalho',
  waiting: 'Espera',
  meal: 'Refeição',
  rest: 'Descanso',
} satisfies Record<PeriodKind, string>;
export const PERIOD_SOURCE_LABELS = {
  rastreador: 'pelo rastreador (RFID)',
  designacao: 'por designação do veículo',
  motorista: 'marcado pelo motorista',
  gestor: 'marcado pelo gestor',
  correcao: 'correção do gestor',
  inferido: 'inferido',
} satisfies Record<PeriodSource, string>;
export const VIOLATION_RULE_LABELS = {
  continuous_driving: 'Direção contínua acima de 5 h 30',
  driving_break: 'Sem 30 min de descanso na direção',
  daily_rest_first: 'Descanso entre jornadas: menos de 8 h seguidas',
  daily_rest: 'Menos de 11 h de descanso em 24 h',
  meal_break: 'Intervalo de refeição menor que 1 h',
  overtime: 'Horas extras acima do limite',
} satisfies Record<ViolationRule, string>;

const PeriodSchema = o.object({
  kind: v.picklist(PERIOD_KINDS),
  source: v.picklist(PERIOD_SOURCES),
  start: v.string(),
  end: v.string(),
  vehicleId: v.nullable(v.string()),
});
const ViolationSchema = o.object({
  rule: v.picklist(VIOLATION_RULES),
  start: v.string(),
  end: v.string(),
  /** By how much the rule was broken, in minutes. */
  minutes: v.number(),
});
const TotalsSchema = o.object({
  worked: v.number(),
  driving: v.number(),
  otherWork: v.number(),
  overtime: v.number(),
  waiting: v.number(),
  meal: v.number(),
  night: v.number(),
});
export const JornadaDaySchema = o.object({
  day: v.string(),
  start: v.nullable(v.string()),
  end: v.nullable(v.string()),
  periods: v.array(PeriodSchema),
  totals: TotalsSchema,
  violations: v.array(ViolationSchema),
});
export type JornadaDay = v.InferOutput<typeof JornadaDaySchema>;
export const JornadaReportSchema = o.object({
  driverId: v.string(),
  driverName: v.string(),
  regime: v.picklist(JORNADA_REGIMES),
  overtimeLimitMinutes: v.number(),
  /** Whether the driving comes from the RFID tag only (no vehicle is assigned to drivers). */
  days: v.array(JornadaDaySchema),
});
export type JornadaReport = v.InferOutput<typeof JornadaReportSchema>;
