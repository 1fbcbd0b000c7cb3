/**
 * The reports room's tables: every report asked for, the time-limited links to files too large
 * to attach, the automated reports and their runs, and each customer's rules for trips and for
 * scoring how drivers drive. server/schema.ts re-exports them; the tables they point at are read from their
 * rooms' schema files and referenced lazily.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';
import { timestamps } from '../platform/db/columns';
import { clients } from '../tenancy/schema';

/**
 * A company's driving-score weights: the points each event takes from 100 per 100 km (idling:
 * per 10 minutes of it) and the idling time that makes an event. No row: DRIVING_WEIGHTS and
 * DEFAULT_IDLE_MINUTES of src/contract/driving.ts, whose values the column defaults repeat.
 */
export const drivingSettings = pgTable('driving_settings', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id),
  speedingVerySerious: doublePrecision('speeding_very_serious').notNull().default(10),
  speedingSerious: doublePrecision('speeding_serious').notNull().default(5),
  speedingMedium: doublePrecision('speeding_medium').notNull().default(2),
  harshBraking: doublePrecision('harsh_braking').notNull().default(3),
  harshAcceleration: doublePrecision('harsh_acceleration').notNull().default(2),
  harshCornering: doublePrecision('harsh_cornering').notNull().default(2),
  idling: doublePrecision('idling').notNull().default(1),
  idleMinutes: integer('idle_minutes').notNull().default(5),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A customer's rules for telling trips from stops (defaults: Traccar's, see reports/motion.ts). */
export const tripSettings = pgTable('trip_settings', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id),
  minDistance: integer('min_distance').notNull().default(200),
  stopSeconds: integer('stop_seconds').notNull().default(180),
  gapSeconds: integer('gap_seconds').notNull().default(3600),
  useIgnition: boolean('use_ignition').notNull().default(true),
  ...timestamps,
});

/**
 * Every report a user asked for (SPEC §3 Report): what, for which vehicles or drivers, over
 * which period, and how it went. Reports viewed on screen are 'done' when recorded; files and
 * e-mail delivery (format, delivery_method) move through pending → processing → done | failed.
 */
export const reportRequests = pgTable(
  'report_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    reportType: text('report_type').notNull(),
    vehicleIds: uuid('vehicle_ids').array().notNull().default(sql`'{}'::uuid[]`),
    driverIds: uuid('driver_ids').array().notNull().default(sql`'{}'::uuid[]`),
    beginAt: timestamp('begin_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    format: text('format'),
    deliveryMethod: text('delivery_method'),
    status: text('status').notNull().default('pending'),
    error: text('error'),
    /** Who a file delivered by e-mail goes to (comma-separated). */
    recipients: text('recipients'),
    ...timestamps,
  },
  (t) => [
    index('report_requests_client_idx').on(t.clientId, t.createdAt),
    index('report_requests_user_idx').on(t.userId),
  ],
);

/* ---------- Report files, e-mail delivery and automated reports ---------- */

/**
 * A report file too large to attach, kept for a time-limited download link: the link carries
 * a random token, only its SHA-256 is stored; past `expires_at` the link answers 410.
 */
export const reportLinks = pgTable(
  'report_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    clientId: uuid('client_id').notNull(),
    path: text('path').notNull(),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('report_links_token_key').on(t.tokenHash),
    index('report_links_expiry_idx').on(t.expiresAt),
  ],
);

/** Automated reports (Relatórios Automatizados): what to send, to whom, how often, when. */
export const autoReportRules = pgTable(
  'auto_report_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    createdBy: uuid('created_by').references(() => users.id),
    name: text('name').notNull(),
    reportType: text('report_type').notNull(),
    format: text('format').notNull().default('excel'),
    periodicity: text('periodicity').notNull(),
    vehicleIds: uuid('vehicle_ids').array().notNull().default(sql`'{}'::uuid[]`),
    driverIds: uuid('driver_ids').array().notNull().default(sql`'{}'::uuid[]`),
    emailDelivery: text('email_delivery').notNull(),
    sendHour: integer('send_hour').notNull().default(7),
    weekday: integer('weekday').notNull().default(1),
    monthDay: integer('month_day').notNull().default(1),
    active: boolean('active').notNull().default(true),
    lastRun: jsonb('last_run').$type<{
      at: string;
      status: 'sent' | 'failed';
      error: string | null;
      periodStart: string;
      periodEnd: string;
    } | null>(),
    ...timestamps,
  },
  (t) => [index('auto_report_rules_client_idx').on(t.clientId)],
);

/**
 * The scheduler's jobs: one row per rule and period (unique, so two processes planning the
 * same period insert it once), claimed with `for update skip locked` and a lease, retried
 * with back-off after an SMTP failure. 'Enviar agora' adds manual rows outside that key.
 */
export const autoReportRuns = pgTable(
  'auto_report_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => autoReportRules.id, { onDelete: 'cascade' }),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    manual: boolean('manual').notNull().default(false),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('auto_report_runs_period_key')
      .on(t.ruleId, t.periodStart)
      .where(sql`not ${t.manual}`),
    index('auto_report_runs_due_idx').on(t.status, t.nextAttemptAt),
  ],
);
