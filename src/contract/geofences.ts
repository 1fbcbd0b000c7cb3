/**
 * Geofences (SPEC §3, §7 `registros/geofence`): a customer's areas on the map, a polygon or a
 * circle, and the vehicles associated with each under a rule kind.
 *
 * The wire shape is fixed for integrators: `{ id, clientId, name, description, color,
 * speedLimit, geometry, createdAt, updatedAt }`, the geometry in GeoJSON order
 * ([longitude, latitude]): `{ type: 'Polygon', coordinates: [[[lng, lat], …]] }` or
 * `{ type: 'Circle', center: [lng, lat], radius }` with the radius in ground metres. The PWA
 * swaps to its own order where it needs to (SPEC §3).
 */
import * as v from 'valibot';
import { type Position, ringSelfIntersects } from '../lib/geo';
import { IdSchema, IsoTimestampSchema, OrderSchema, queryInt, SearchSchema } from './common';
import * as o from './objects';

export const DEFAULT_GEOFENCE_COLOR = '#FF0000';
export const MIN_RADIUS = 10;
export const MAX_RADIUS = 100_000;
export const MAX_RING_POSITIONS = 2000;

const Longitude = v.pipe(
  v.number('Coordenada inválida: use números'),
  v.minValue(-180, 'Longitude fora do intervalo (-180 a 180)'),
  v.maxValue(180, 'Longitude fora do intervalo (-180 a 180)'),
);
const Latitude = v.pipe(
  v.number('Coordenada inválida: use números'),
  v.minValue(-90, 'Latitude fora do intervalo (-90 a 90)'),
  v.maxValue(90, 'Latitude fora do intervalo (-90 a 90)'),
);
/** [longitude, latitude], GeoJSON order. */
export const PositionSchema = v.tuple(
  [Longitude, Latitude],
  'Posição inválida: use [longitude, latitude]',
);

const same = (a: Position | undefined, b: Position | undefined) =>
  Boolean(a && b && a[0] === b[0] && a[1] === b[1]);

const Ring = v.pipe(
  v.array(PositionSchema, 'Anel inválido: use uma lista de posições [longitude, latitude]'),
  v.minLength(4, 'O polígono precisa de pelo menos 4 posições (3 vértices e o fechamento)'),
  v.maxLength(MAX_RING_POSITIONS, `O polígono pode ter no máximo ${MAX_RING_POSITIONS} posições`),
  v.check(
    (ring) => same(ring[0] as Position, ring.at(-1) as Position),
    'O polígono precisa ser fechado: a última posição repete a primeira',
  ),
  v.check(
    (ring) => new Set(ring.slice(0, -1).map((p) => `${p[0]},${p[1]}`)).size >= 3,
    'O polígono precisa de pelo menos 3 vértices diferentes',
  ),
  v.check(
    (ring) => !ringSelfIntersects(ring as Position[]),
    'O polígono não pode cruzar a si mesmo',
  ),
);

export const PolygonSchema = o.strictObject({
  type: v.literal('Polygon'),
  coordinates: v.pipe(
    v.array(Ring, 'Coordenadas inválidas: use [[[longitude, latitude], …]]'),
    v.length(1, 'Use um único anel (polígonos com buracos não são aceitos)'),
  ),
});

export const CircleSchema = o.strictObject({
  type: v.literal('Circle'),
  center: PositionSchema,
  radius: v.pipe(
    v.number('Raio inválido: use metros'),
    v.minValue(MIN_RADIUS, 'O raio deve ter pelo menos 10 m'),
    v.maxValue(MAX_RADIUS, 'O raio deve ter no máximo 100 km'),
  ),
});

export const GeometrySchema = v.variant(
  'type',
  [PolygonSchema, CircleSchema],
  'Geometria inválida: use Polygon ou Circle',
);
export type Geometry = v.InferOutput<typeof GeometrySchema>;

const Name = v.pipe(v.string(), v.trim(), v.nonEmpty('Campo obrigatório'), v.maxLength(80));
const Description = v.pipe(v.string(), v.trim(), v.maxLength(500));
const Color = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^#[0-9a-fA-F]{6}$/, 'Cor inválida: use #RRGGBB'),
  v.toUpperCase(),
);
const SpeedLimit = v.pipe(
  v.number(),
  v.minValue(1, 'Limite de velocidade: de 1 a 300 km/h'),
  v.maxValue(300, 'Limite de velocidade: de 1 a 300 km/h'),
);

export const GeofenceCreateSchema = o.strictObject({
  clientId: IdSchema,
  name: Name,
  description: v.optional(v.nullable(Description)),
  color: v.optional(Color, DEFAULT_GEOFENCE_COLOR),
  speedLimit: v.optional(v.nullable(SpeedLimit)),
  geometry: GeometrySchema,
});
export const GeofenceUpdateSchema = o.strictObject({
  clientId: v.optional(IdSchema),
  name: v.optional(Name),
  description: v.optional(v.nullable(Description)),
  color: v.optional(Color),
  speedLimit: v.optional(v.nullable(SpeedLimit)),
  geometry: v.optional(GeometrySchema),
});
export type GeofenceCreate = v.InferOutput<typeof GeofenceCreateSchema>;
export type GeofenceUpdate = v.InferOutput<typeof GeofenceUpdateSchema>;

export const GEOFENCE_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export const GeofenceQuerySchema = o.strictObject({
  clientId: v.optional(IdSchema),
  search: SearchSchema,
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 10_000),
  sort: v.optional(v.picklist(GEOFENCE_SORTS, 'Ordenação inválida'), 'name'),
  order: OrderSchema,
  /**
   * Mirror sync: only geofences changed at or after this instant, every one of them in one
   * answer, plus `ids`: every live geofence in scope, so that a mirror drops removed ones.
   */
  updatedSince: v.optional(IsoTimestampSchema),
});

export const GeofenceSchema = o.object({
  id: v.string(),
  clientId: v.string(),
  name: v.string(),
  description: v.nullable(v.string()),
  color: v.string(),
  speedLimit: v.nullable(v.number()),
  geometry: GeometrySchema,
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Geofence = v.InferOutput<typeof GeofenceSchema>;

export const GeofencePageSchema = o.object({
  items: v.array(GeofenceSchema),
  page: v.number(),
  limit: v.number(),
  total: v.number(),
  /** Only in sync mode (updatedSince): the ids of every live geofence in scope. */
  ids: v.optional(v.array(v.string())),
});
export type GeofencePage = v.InferOutput<typeof GeofencePageSchema>;

// ── Associations ────────────────────────────────────────────────────────────────────────
export const RESTRICTION_TYPES = [
  'INSIDE_INTERVAL',
  'OUTSIDE_INTERVAL',
  'ALWAYS_INSIDE',
  'ALWAYS_OUTSIDE',
] as const;
export type RestrictionType = (typeof RESTRICTION_TYPES)[number];

/** SPEC §3 rule kinds, in pt-BR. */
export const RESTRICTION_LABELS: Record<RestrictionType, string> = {
  INSIDE_INTERVAL: 'Dentro no intervalo',
  OUTSIDE_INTERVAL: 'Fora no intervalo',
  ALWAYS_INSIDE: 'Sempre dentro',
  ALWAYS_OUTSIDE: 'Sempre fora',
};

/** What breaks each kind: leaving (GEOFENCE_EXIT) or entering (GEOFENCE_ENTER). */
export const RESTRICTION_ALERT: Record<RestrictionType, 'GEOFENCE_EXIT' | 'GEOFENCE_ENTER'> = {
  INSIDE_INTERVAL: 'GEOFENCE_EXIT',
  ALWAYS_INSIDE: 'GEOFENCE_EXIT',
  OUTSIDE_INTERVAL: 'GEOFENCE_ENTER',
  ALWAYS_OUTSIDE: 'GEOFENCE_ENTER',
};

/** A time of day, 'HH:MM' (00:00–23:59). */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const TimeSchema = v.pipe(v.string(), v.regex(TIME_PATTERN, 'Horário inválido: use HH:MM'));
export const WeekdaysSchema = v.pipe(
  v.array(
    v.pipe(
      v.number(),
      v.integer('Dia da semana inválido: use 0 (domingo) a 6 (sábado)'),
      v.minValue(0, 'Dia da semana inválido: use 0 (domingo) a 6 (sábado)'),
      v.maxValue(6, 'Dia da semana inválido: use 0 (domingo) a 6 (sábado)'),
    ),
  ),
  v.minLength(1, 'Escolha pelo menos um dia da semana'),
  v.maxLength(7),
  v.check((days) => new Set(days).size === days.length, 'Dia da semana repetido'),
  v.transform((days) => [...days].sort((a, b) => a - b)),
);
export const ALL_WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];

const Association = v.pipe(
  o.strictObject({
    vehicleId: IdSchema,
    restrictionType: v.picklist(
      RESTRICTION_TYPES,
      'Tipo de regra inválido: use INSIDE_INTERVAL, OUTSIDE_INTERVAL, ALWAYS_INSIDE ou ALWAYS_OUTSIDE',
    ),
    startTime: v.optional(v.nullable(TimeSchema)),
    endTime: v.optional(v.nullable(TimeSchema)),
    weekdays: v.optional(v.nullable(WeekdaysSchema)),
  }),
  v.forward(
    v.check(
      (a) => !a.restrictionType.endsWith('_INTERVAL') || Boolean(a.startTime),
      'Informe o início do intervalo (HH:MM)',
    ),
    ['startTime'],
  ),
  v.forward(
    v.check(
      (a) => !a.restrictionType.endsWith('_INTERVAL') || Boolean(a.endTime),
      'Informe o fim do intervalo (HH:MM)',
    ),
    ['endTime'],
  ),
  // Always-kinds have no interval: what was sent for one is dropped.
  v.transform((a) =>
    a.restrictionType.endsWith('_INTERVAL')
      ? {
          vehicleId: a.vehicleId,
          restrictionType: a.restrictionType,
          startTime: a.startTime ?? null,
          endTime: a.endTime ?? null,
          weekdays: a.weekdays ?? ALL_WEEKDAYS,
        }
      : {
          vehicleId: a.vehicleId,
          restrictionType: a.restrictionType,
          startTime: null,
          endTime: null,
          weekdays: ALL_WEEKDAYS,
        },
  ),
);

export const AssociationBodySchema = o.strictObject({
  geofenceId: IdSchema,
  vehicleAssociations: v.pipe(
    v.array(Association),
    v.minLength(1, 'Informe pelo menos um veículo'),
    v.maxLength(1000, 'No máximo 1000 veículos de uma vez'),
    v.check(
      (list) => new Set(list.map((a) => a.vehicleId)).size === list.length,
      'Um veículo aparece mais de uma vez',
    ),
  ),
});
export type AssociationBody = v.InferOutput<typeof AssociationBodySchema>;

export const AssociationQuerySchema = o.strictObject({
  geofenceId: v.optional(IdSchema),
  vehicleId: v.optional(IdSchema),
});

export const AssociationSchema = o.object({
  id: v.string(),
  geofenceId: v.string(),
  vehicleId: v.string(),
  restrictionType: v.picklist(RESTRICTION_TYPES),
  startTime: v.nullable(v.string()),
  endTime: v.nullable(v.string()),
  weekdays: v.array(v.number()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Association = v.InferOutput<typeof AssociationSchema>;
