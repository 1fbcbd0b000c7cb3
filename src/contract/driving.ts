/**
 * "How they drive" (report 'Comportamento do motorista', `registros/reports/v2/driving`): the
 * driving events of a month per driver, the score 0–100 and the ranking of a company's drivers
 * with the change since the month before. The events are computed from the positions
 * (server/reports/driving.ts); nothing is stored.
 */
import * as v from 'valibot';
import { IdSchema } from './common';
import * as o from './objects';

export const DRIVING_EVENT_KINDS = [
  'speedingVerySerious',
  'speedingSerious',
  'speedingMedium',
  'harshBraking',
  'harshAcceleration',
  'harshCornering',
  'idling',
] as const;
export type DrivingEventKind = (typeof DRIVING_EVENT_KINDS)[number];

export type DrivingWeights = Record<DrivingEventKind, number>;

/**
 * Points each event takes from 100 per 100 km (idling: per 10 minutes of it). Speeding climbs
 * faster than the CTB's points (4, 5, 7) because a crash's energy grows with the square of the
 * speed: 50 % over the limit is more than twice the harm of 20 % over. A harsh braking (3)
 * weighs more than a harsh start or curve (2): it is the near miss of one who follows too
 * close. Idling (1 per 10 min) costs fuel and engine, not lives, so it weighs least.
 */
export const DRIVING_WEIGHTS: DrivingWeights = {
  speedingVerySerious: 10,
  speedingSerious: 5,
  speedingMedium: 2,
  harshBraking: 3,
  harshAcceleration: 2,
  harshCornering: 2,
  idling: 1,
};

/** Idling longer than this many minutes is an event, unless the company says otherwise. */
export const DEFAULT_IDLE_MINUTES = 5;

/** The bounds of a company's weights (points) and idling time (minutes). */
export const DRIVING_WEIGHT_MAX = 50;
export const DRIVING_IDLE_MIN = 1;
export const DRIVING_IDLE_MAX = 60;

/**
 * A company's scoring: the points of each event and the idling time that makes one. A company
 * that never changed them scores with DRIVING_WEIGHTS and DEFAULT_IDLE_MINUTES.
 */
export const DrivingSettingsSchema = o.object({
  clientId: v.string(),
  weights: o.object(
    Object.fromEntries(DRIVING_EVENT_KINDS.map((k) => [k, v.number()])) as Record<
      DrivingEventKind,
      v.NumberSchema<undefined>
    >,
  ),
  idleMinutes: v.number(),
  /** Whether any value differs from the defaults. */
  custom: v.boolean(),
});
export type DrivingSettings = v.InferOutput<typeof DrivingSettingsSchema>;

export const DrivingSettingsQuerySchema = o.strictObject({ clientId: IdSchema });

const weight = v.pipe(
  v.number('Informe o peso em pontos'),
  v.finite('Informe o peso em pontos'),
  v.minValue(0, `Cada peso vai de 0 a ${DRIVING_WEIGHT_MAX} pontos`),
  v.maxValue(DRIVING_WEIGHT_MAX, `Cada peso vai de 0 a ${DRIVING_WEIGHT_MAX} pontos`),
);

/** The whole set is sent: what the form shows is what is saved. */
export const DrivingSettingsUpdateSchema = o.strictObject({
  clientId: IdSchema,
  weights: o.strictObject(
    Object.fromEntries(DRIVING_EVENT_KINDS.map((k) => [k, weight])) as Record<
      DrivingEventKind,
      typeof weight
    >,
    'Informe os pesos de todos os eventos',
  ),
  idleMinutes: v.pipe(
    v.number('Informe os minutos de marcha lenta'),
    v.integer('Marcha lenta: minutos inteiros'),
    v.minValue(
      DRIVING_IDLE_MIN,
      `Marcha lenta: de ${DRIVING_IDLE_MIN} a ${DRIVING_IDLE_MAX} minutos`,
    ),
    v.maxValue(
      DRIVING_IDLE_MAX,
      `Marcha lenta: de ${DRIVING_IDLE_MIN} a ${DRIVING_IDLE_MAX} minutos`,
    ),
  ),
});
export type DrivingSettingsUpdate = v.InferOutput<typeof DrivingSettingsUpdateSchema>;

/** Under this many km in the period a driver has no score ('km insuficientes'). */
export const MIN_SCORE_KM = 20;

/** The pt-BR words of the report files, shared with the screen (src/i18n/driving.ts). */
export const DRIVING_FILE_TEXT = {
  title: 'Comportamento do motorista',
  month: 'Mês',
  rank: 'Posição',
  driver: 'Motorista',
  vehicle: 'Veículo',
  km: 'Km',
  score: 'Nota',
  previousScore: 'Mês anterior',
  trend: 'Tendência',
  events: 'Eventos',
  noScore: 'km insuficientes',
  none: 'Nenhum motorista identificado dirigiu neste mês.',
  noEvents: 'Nenhum evento neste mês.',
  unassigned: 'Sem motorista identificado',
  at: 'Quando',
  kind: 'Evento',
  detail: 'Detalhe',
  source: 'Origem',
  sources: { device: 'aparelho', speed: 'velocidade' } as Record<'device' | 'speed', string>,
  /** The weights in the file's header: 'Pontos: Gravíssima' '10'. */
  weightOf: (short: string) => `Pontos: ${short}`,
  idlingWeight: (points: string) => `${points} a cada 10 min`,
  idleAfter: 'Marcha lenta acima de',
  idleMinutes: (minutes: number) => `${minutes} min`,
};

/** The pt-BR names of the events (screens and report files). */
export const DRIVING_EVENT_LABELS: Record<DrivingEventKind, string> = {
  speedingVerySerious: 'Excesso gravíssimo (mais de 50%)',
  speedingSerious: 'Excesso grave (20% a 50%)',
  speedingMedium: 'Excesso médio (até 20%)',
  harshBraking: 'Frenagem brusca',
  harshAcceleration: 'Aceleração brusca',
  harshCornering: 'Curva brusca',
  idling: 'Marcha lenta',
};

/** Short column headers of the event counts. */
export const DRIVING_EVENT_SHORT: Record<DrivingEventKind, string> = {
  speedingVerySerious: 'Gravíssima',
  speedingSerious: 'Grave',
  speedingMedium: 'Média',
  harshBraking: 'Frenagem',
  harshAcceleration: 'Aceleração',
  harshCornering: 'Curva',
  idling: 'Marcha lenta',
};

/** The pt-BR detail of one event: its peak over the limit, its deceleration, its length. */
export function drivingEventDetail(e: {
  kind: DrivingEventKind;
  value: number | null;
  limit: number | null;
}): string {
  if (e.value === null) return '';
  if (e.kind === 'idling') return `${Math.round(e.value / 60)} min`;
  if (e.limit !== null) return `${Math.round(e.value)} km/h (limite ${Math.round(e.limit)})`;
  return `${e.value.toLocaleString('pt-BR')} m/s²`;
}

/** `?month=AAAA-MM[&clientId=]`: a São Paulo calendar month; the company and those below it. */
export const DrivingQuerySchema = o.strictObject({
  month: v.pipe(
    v.string('Informe o mês'),
    v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Mês inválido: use AAAA-MM'),
  ),
  clientId: v.optional(IdSchema),
  format: v.optional(v.picklist(['pdf', 'excel'], 'Use pdf ou excel')),
});
export type DrivingQuery = v.InferOutput<typeof DrivingQuerySchema>;

const counts = o.object(
  Object.fromEntries(DRIVING_EVENT_KINDS.map((k) => [k, v.number()])) as Record<
    DrivingEventKind,
    v.NumberSchema<undefined>
  >,
);

export const DrivingEventSchema = o.object({
  kind: v.picklist(DRIVING_EVENT_KINDS),
  at: v.string(),
  vehicleId: v.string(),
  plate: v.string(),
  /** Speeding: peak km/h; harsh from the speed: m/s²; idling: seconds. */
  value: v.nullable(v.number()),
  limit: v.nullable(v.number()),
  source: v.picklist(['device', 'speed']),
});
export type DrivingEvent = v.InferOutput<typeof DrivingEventSchema>;

export const DrivingRowSchema = o.object({
  /** Null: the fixes without a known driver, per vehicle of the company. */
  driverId: v.nullable(v.string()),
  name: v.string(),
  clientId: v.string(),
  km: v.number(),
  /** Null under MIN_SCORE_KM. */
  score: v.nullable(v.number()),
  previousScore: v.nullable(v.number()),
  /** score − previousScore, when both exist. */
  delta: v.nullable(v.number()),
  counts,
  events: v.array(DrivingEventSchema),
});
export type DrivingRow = v.InferOutput<typeof DrivingRowSchema>;

export const DrivingReportSchema = o.object({
  month: v.string(),
  beginAt: v.string(),
  endAt: v.string(),
  /** The weights the scores were made with: the company's, of both months. */
  weights: o.record(v.string(), v.number()),
  /** The idling time (minutes) past which idling was an event. */
  idleMinutes: v.number(),
  minKm: v.number(),
  /** Ranked: scores high to low, then those without one. */
  drivers: v.array(DrivingRowSchema),
  /** Events without an identified driver, per vehicle (never ranked). */
  unassigned: v.array(DrivingRowSchema),
});
export type DrivingReport = v.InferOutput<typeof DrivingReportSchema>;
