/**
 * The dashboard (SPEC §3 "Dashboard returns clients, users, trackers and tracker activity by
 * time range", §7 `registros/dashboard/*`): counts over the caller's customer subtree (or a
 * chosen customer's), plus the series its charts draw (alerts per day by type, km per day).
 *
 * Activity buckets are exclusive: each tracker falls in exactly one, by its last fix: within
 * the last hour, 1–24 h, 24 h–7 days, 7–30 days, more than 30 days ago, or never.
 */
import * as v from 'valibot';
import { IdSchema } from './common';
import * as o from './objects';

export const DashboardQuerySchema = o.strictObject({ clientId: v.optional(IdSchema) });

const Count = v.number();

export const DashboardClientsSchema = o.object({ total: Count, active: Count, inactive: Count });
export const DashboardUsersSchema = o.object({
  total: Count,
  active: Count,
  inactive: Count,
  byRole: o.record(v.string(), Count),
});

export const VEHICLE_NOW_STATES = ['moving', 'idle', 'off', 'offline', 'never'] as const;
export type VehicleNowState = (typeof VEHICLE_NOW_STATES)[number];

export const DashboardTrackersSchema = o.object({
  trackers: o.object({
    total: Count,
    active: Count,
    inactive: Count,
    /** Active trackers let in without a password ("Aceitar sem senha"): they take no command. */
    withoutPassword: v.optional(Count),
    /** Active trackers two live devices speak for now. */
    duplicated: v.optional(Count),
  }),
  vehicles: o.object({
    total: Count,
    /** Vehicles by what their last location says now (the map's states; never: no fix). */
    now: o.object({
      moving: Count,
      idle: Count,
      off: Count,
      offline: Count,
      never: Count,
    }),
  }),
});

export const ACTIVITY_BUCKETS = [
  'lastHour',
  'last24h',
  'last7d',
  'last30d',
  'over30d',
  'never',
] as const;
export type ActivityBucket = (typeof ACTIVITY_BUCKETS)[number];
export const ACTIVITY_LABELS: Record<ActivityBucket, string> = {
  lastHour: 'Última hora',
  last24h: 'Até 24 horas',
  last7d: 'Até 7 dias',
  last30d: 'Até 30 dias',
  over30d: 'Mais de 30 dias',
  never: 'Nunca',
};
export const ACTIVITY_COLORS: Record<ActivityBucket, string> = {
  lastHour: '#1b7f3b',
  last24h: '#5a9e2f',
  last7d: '#b26a00',
  last30d: '#c2410c',
  over30d: '#b3261e',
  never: '#5f6368',
};

const Buckets = o.object({
  lastHour: Count,
  last24h: Count,
  last7d: Count,
  last30d: Count,
  over30d: Count,
  never: Count,
});
export type ActivityCounts = v.InferOutput<typeof Buckets>;

export const DashboardActivitySchema = o.object({
  totals: Buckets,
  byClient: v.array(o.object({ clientId: v.string(), name: v.string(), ...Buckets.entries })),
});
export type DashboardActivity = v.InferOutput<typeof DashboardActivitySchema>;

export const DashboardAlertsSchema = o.object({
  unacknowledged: Count,
  /** The last 30 days (São Paulo calendar days), oldest first: per day, count per type. */
  perDay: v.array(o.object({ day: v.string(), counts: o.record(v.string(), Count) })),
});
export type DashboardAlerts = v.InferOutput<typeof DashboardAlertsSchema>;

export const DashboardDistanceSchema = o.object({
  /** The last 30 days, oldest first, every day present (0 when nothing was driven). */
  perDay: v.array(o.object({ day: v.string(), km: v.number() })),
});
export type DashboardDistance = v.InferOutput<typeof DashboardDistanceSchema>;

export const DashboardUpkeepSchema = o.object({
  /** Vehicle plans past one of their limits (km, hours or days). */
  maintenanceOverdue: Count,
  /** Documents (and CNHs) whose last valid day is within the next 30 days. */
  documentsExpiring: Count,
  /** Those already expired. */
  documentsExpired: Count,
  /** Refuels of this São Paulo month and of the last one, in reais. */
  fuelThisMonth: v.number(),
  fuelLastMonth: v.number(),
});
export type DashboardUpkeep = v.InferOutput<typeof DashboardUpkeepSchema>;
