/**
 * The alerts room's tables: the rules, the alerts the engine raises, its memory of each vehicle,
 * the e-mail outbox, the counter that tells the engine its configuration changed, and the push
 * registration tokens the alerts are sent to. server/schema.ts re-exports them with every
 * room's tables; the tables they point at (clients, users) are imported from their rooms'
 * schemas and referenced lazily.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';
import { ownedColumns, timestamps } from '../platform/db/columns';
import { clients } from '../tenancy/schema';

const owned = ownedColumns(() => clients.id);

/** Alert rules (src/contract/alerts.ts): what raises an alert, for which vehicles, when. */
export const alertRules = pgTable(
  'alert_rules',
  {
    ...owned,
    name: text('name').notNull(),
    type: text('type').notNull(),
    vehicleIds: uuid('vehicle_ids').array().notNull().default(sql`'{}'::uuid[]`),
    fleetIds: uuid('fleet_ids').array().notNull().default(sql`'{}'::uuid[]`),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    schedule: jsonb('schedule').$type<{
      weekdays: number[];
      startTime: string;
      endTime: string;
    } | null>(),
    emailDelivery: text('email_delivery').notNull().default(''),
  },
  (t) => [index('alert_rules_client_idx').on(t.clientId)],
);

/**
 * Alerts raised by the engine. `dedupe_key` names what raised it (rule, vehicle, type and the
 * fix, silence or command behind it): the same cause again, from a retransmission, a restart
 * or a second server process, inserts nothing.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id').notNull(),
    /**
     * What the alert is about: a vehicle, or (a driver's document expiring, the CNH included)
     * a driver, who belongs to no vehicle. At least one of the two.
     */
    vehicleId: uuid('vehicle_id'),
    driverId: uuid('driver_id'),
    ruleId: uuid('rule_id'),
    type: text('type').notNull(),
    geofenceId: uuid('geofence_id'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    speed: real('speed'),
    fixTime: timestamp('fix_time', { withTimezone: true }),
    /** Received more than 15 minutes after the fix: stored, never pushed nor e-mailed. */
    late: boolean('late').notNull().default(false),
    dedupeKey: text('dedupe_key').notNull(),
    /** What was measured (speed, voltage, temperature…) and the geofence's name, if any. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('alerts_dedupe_key').on(t.dedupeKey),
    index('alerts_client_time_idx').on(t.clientId, t.createdAt),
    index('alerts_vehicle_time_idx').on(t.vehicleId, t.createdAt),
    index('alerts_driver_time_idx').on(t.driverId, t.createdAt),
    check('alerts_subject', sql`${t.vehicleId} is not null or ${t.driverId} is not null`),
    index('alerts_open_idx').on(t.clientId).where(sql`${t.acknowledgedAt} is null`),
  ],
);

/**
 * The alert engine's memory of each vehicle (which geofences it is in, its overspeed
 * episode, last ignition and input, which side of each threshold…), read and written under a
 * row lock in the ingest transaction, so that a restart or another process continues from it.
 */
export const alertStates = pgTable('alert_states', {
  vehicleId: uuid('vehicle_id').primaryKey(),
  state: jsonb('state').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Alerts waiting to be e-mailed, one message per rule per minute: a periodic job in every
 * process claims the minutes that are over (`for update skip locked`, with a lease so that a
 * crashed process's claim expires), sends, and deletes what it sent.
 */
export const alertMailOutbox = pgTable(
  'alert_mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').notNull(),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alert_mail_outbox_minute_idx').on(t.minute, t.ruleId)],
);

/**
 * One counter that every change to rules, geofences, associations, fleets, vehicles or the
 * customer tree moves forward (statement triggers, in the migration): each process's engine
 * compares it once per batch and reloads its cached configuration when it moved.
 */
export const alertConfigVersion = pgTable('alert_config_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * Browser push registration tokens of signed-in users: an FCM registration token, or a Web
 * Push subscription (its JSON) when no Firebase project is configured. `alertTypes`: the alert
 * types this device receives (null: all).
 */
export const pushTokens = pgTable(
  'push_tokens',
  {
    token: text('token').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['fcm', 'webpush'] })
      .notNull()
      .default('fcm'),
    alertTypes: text('alert_types').array(),
    ...timestamps,
  },
  (t) => [index('push_tokens_user_idx').on(t.userId)],
);
