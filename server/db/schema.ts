/**
 * The database schema (one PostgreSQL dialect for PGlite and PostgreSQL). Migrations are
 * generated from this file by drizzle-kit into ./migrations and applied at start.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';
import { drivers, trackers, vehicles } from '../inventory/schema';
import { clients } from '../tenancy/schema';
import { ownedColumns, timestamps } from './columns';

// The rooms' own tables (docs/architecture.md): drizzle-kit reads them through this file.
export {
  loginKnownAddresses,
  loginThrottle,
  passwordTokens,
  refreshTokens,
  twoFactorChallenges,
  twoFactorRecoveryCodes,
  users,
} from '../accounts/schema';
export {
  alertConfigVersion,
  alertMailOutbox,
  alertRules,
  alertStates,
  alerts,
  pushTokens,
} from '../alerts/schema';
export { auditEvents } from '../audit/schema';
export { geofences, geofenceVehicles } from '../geofences/schema';
export {
  drivers,
  fleets,
  simCards,
  trackers,
  trackerTypes,
  vehicleImages,
  vehicles,
} from '../inventory/schema';
export { paymentCharges, paymentCustomers } from '../payments/schema';
export { temporaryUsers, visitorVehicles } from '../sharing/schema';
export { clients } from '../tenancy/schema';
export {
  attachments,
  documents,
  maintenancePlans,
  refuels,
  serviceRecords,
  vehicleExpenses,
} from '../upkeep/schema';

/** Server-generated settings shared by every process (e.g. the signing secret). */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

const owned = ownedColumns(() => clients.id);

/**
 * A driver's mark of the working day (Lei 13.103/2015): start and end of the day, of a meal,
 * of a rest and of a waiting time. `id` is made by the device that marked it, so a mark sent
 * again after a lost answer is the same row; `at` is when the driver marked it (the device's
 * clock, bounded when it arrives), `receivedAt` when it reached us.
 */
export const driverMarks = pgTable(
  'driver_marks',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id),
    kind: text('kind').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** 'motorista' (the driver's own device or link) or 'gestor' (typed in by a manager). */
    source: text('source').notNull(),
    note: text('note'),
    userId: uuid('user_id'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('driver_marks_driver_at_idx').on(t.driverId, t.at)],
);

/**
 * A manager's correction of a driver's day: from `startAt` to `endAt` the driver was doing
 * `kind`, whatever the marks and the trackers say, for the reason given. Kept for good: a
 * correction is corrected by another one, and both stay in the audit log.
 */
export const jornadaCorrections = pgTable(
  'jornada_corrections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id),
    kind: text('kind').notNull(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    reason: text('reason').notNull(),
    userId: uuid('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('jornada_corrections_driver_idx').on(t.driverId, t.startAt)],
);

/**
 * A driver assigned to a vehicle for a period ('designação'): who drives it when no tag is
 * read. Many fleets have no RFID reader, and without this their drivers would have no driving
 * in the working day and no score. `endAt` null: until further notice. Periods of one vehicle
 * never overlap, nor those of one driver (the routes refuse it); a removed one (canceledAt)
 * counts for nothing.
 */
export const driverAssignments = pgTable(
  'driver_assignments',
  {
    ...owned,
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }),
  },
  (t) => [
    index('driver_assignments_vehicle_idx').on(t.vehicleId, t.startAt),
    index('driver_assignments_driver_idx').on(t.driverId, t.startAt),
    index('driver_assignments_client_idx').on(t.clientId),
  ],
);

/**
 * A company's working-day rules: cargo or passengers (30 min of rest within each 6 h or 4 h of
 * driving) and the overtime a day may carry (2 h by law, up to 4 h by collective agreement).
 * No row: cargo and 2 h.
 */
export const jornadaSettings = pgTable('jornada_settings', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id),
  regime: text('regime').notNull().default('cargo'),
  overtimeLimitMinutes: integer('overtime_limit_minutes').notNull().default(120),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

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

/**
 * Commands sent to vehicles and trackers (block, unblock, suspend, enable, disable). Those
 * for our own Wialon IPS trackers wait here as 'pending' (with the line to send and when they
 * expire) until the process holding the device's connection sends them ('sent', `sent_at`)
 * and the device's outputs show them done ('confirmed') or the time runs out ('failed').
 */
export const commands = pgTable(
  'commands',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    vehicleId: uuid('vehicle_id').references(() => vehicles.id),
    trackerId: uuid('tracker_id').references(() => trackers.id),
    kind: text('kind').notNull(),
    integration: text('integration').notNull(),
    status: text('status').notNull().default('pending'),
    detail: text('detail'),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The line sent to the device (Wialon IPS output control, e.g. `L1=1`). */
    payload: text('payload'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('commands_vehicle_idx').on(t.vehicleId, t.createdAt),
    index('commands_open_idx')
      .on(t.trackerId, t.status)
      .where(sql`${t.status} in ('pending', 'sent')`),
  ],
);

/**
 * Positions: one row per fix, keyed by tracker and fix time (a repeated fix is the same row,
 * so retransmissions are idempotent). Read by vehicle and time range.
 */
export const positions = pgTable(
  'positions',
  {
    trackerId: uuid('tracker_id').notNull(),
    vehicleId: uuid('vehicle_id'),
    clientId: uuid('client_id').notNull(),
    fixTime: timestamp('fix_time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    speed: real('speed'),
    course: real('course'),
    altitude: real('altitude'),
    accuracy: real('accuracy'),
    ignition: boolean('ignition'),
    battery: real('battery'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>(),
    /**
     * The tracker's cumulative distance at this fix, in metres (server/ingest/queries/odometer.ts):
     * the distance of any period is the difference of two of these.
     */
    odometer: doublePrecision('odometer').notNull().default(0),
    /** The driver's tag (RFID/iButton) the tracker read, unique within the customer only. */
    driverRfid: text('driver_rfid'),
    /**
     * False for a report without a GPS fix (cold start, garage, tunnel): its telemetry is the
     * device's, its coordinates are the tracker's last known place. Null for a fix.
     */
    valid: boolean('valid'),
  },
  (t) => [
    primaryKey({ columns: [t.trackerId, t.fixTime] }),
    index('positions_vehicle_time_idx').on(t.vehicleId, t.fixTime),
  ],
);

/** Numbers every change of a last location: the live stream's event ids, in order. */
export const lastLocationSeq = pgSequence('last_location_seq');

/** The newest position of each tracker, updated in the same transaction as the insert. */
export const lastLocations = pgTable(
  'last_locations',
  {
    trackerId: uuid('tracker_id').primaryKey(),
    vehicleId: uuid('vehicle_id'),
    clientId: uuid('client_id').notNull(),
    fixTime: timestamp('fix_time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    speed: real('speed'),
    course: real('course'),
    ignition: boolean('ignition'),
    battery: real('battery'),
    driverRfid: text('driver_rfid'),
    /** The odometer of this fix (see positions.odometer): where the next fix's distance starts. */
    odometer: doublePrecision('odometer').notNull().default(0),
    /**
     * The event id of its last change: the number of the batch that moved it (see
     * location_batches), where a live stream resumes. Not indexed, so that moving a last
     * location changes no indexed column and is a HOT update.
     */
    seq: bigint('seq', { mode: 'number' }).notNull().default(sql`nextval('last_location_seq')`),
    /** The protocol the fix came by ('osmand', 'wialon_ips', 'flespi'): who can take commands. */
    protocol: text('protocol'),
    /**
     * Since when the device reports without a GPS fix (null while it has one): the place and
     * fix time above stay those of its last fix, its readings follow the reports.
     */
    noGpsSince: timestamp('no_gps_since', { withTimezone: true }),
    /**
     * The time of the tracker's newest stored report, with or without GPS (null: `fix_time`):
     * where its next fresh report continues from, and what a late one is older than.
     */
    lastReportAt: timestamp('last_report_at', { withTimezone: true }),
  },
  (t) => [
    index('last_locations_client_idx').on(t.clientId),
    index('last_locations_vehicle_idx').on(t.vehicleId),
  ],
);

/**
 * The index of the changes of last locations: one row per ingest batch that moved any, with its
 * event ids (from last_location_seq, one per last location, in commit order:
 * server/ingest/queries/positions.ts) and the trackers it moved. "Which last locations changed
 * after event id N" reads the few batches after N and then those trackers by key, instead of an
 * index on last_locations.seq that every move would have to update (one index entry more per
 * position, and no HOT update). Kept for an hour (server/ingest/queries/positions.ts,
 * LOCATION_BATCHES_KEEP_MS) for live streams that resume; a stream resuming from before the oldest
 * kept batch reads its customers' last locations by their own event id.
 */
export const locationBatches = pgTable('location_batches', {
  /** The batch's newest event id (each last location it moved has its own, in the batch). */
  seq: bigint('seq', { mode: 'number' }).primaryKey(),
  /** Its first. */
  firstSeq: bigint('first_seq', { mode: 'number' }).notNull(),
  trackerIds: uuid('tracker_ids').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What each tracker last told us, for installers: when and from where it last spoke, what came
 * (a position, a report without GPS, a login, or a refusal and why), its fix-time conflicts
 * and whether two devices speak for it at once. Kept in memory by each process and written
 * every few seconds (server/ingest/device-status.ts), never in the ingest transaction.
 */
export const deviceStatus = pgTable('device_status', {
  trackerId: uuid('tracker_id').primaryKey(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  lastAddress: text('last_address'),
  lastProtocol: text('last_protocol'),
  /** 'position', 'telemetry' (no GPS), 'login', 'heartbeat' or 'refused'. */
  lastKind: text('last_kind').notNull(),
  /** Why the last refused message was refused ('password', 'protocol', 'future', …). */
  lastRefusal: text('last_refusal'),
  lastRefusedAt: timestamp('last_refused_at', { withTimezone: true }),
  /** Fixes refused because another fix already holds their time. */
  conflicts: integer('conflicts').notNull().default(0),
  lastConflictAt: timestamp('last_conflict_at', { withTimezone: true }),
  /** Whether the last message came through a link that proved the device's password. */
  authenticated: boolean('authenticated'),
  /** Since when two live sessions speak for this tracker (null: not now). */
  duplicateSince: timestamp('duplicate_since', { withTimezone: true }),
  duplicateAddresses: text('duplicate_addresses').array(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Identifiers that tried to connect and match no active tracker, per protocol, for the
 * administrator who creates trackers from them. Bounded (server/ingest/device-status.ts).
 */
export const unknownDevices = pgTable(
  'unknown_devices',
  {
    identifier: text('identifier').notNull(),
    protocol: text('protocol').notNull(),
    lastAddress: text('last_address'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.identifier, t.protocol] }),
    index('unknown_devices_seen_idx').on(t.lastSeenAt),
  ],
);

/**
 * Per vehicle and day (America/Sao_Paulo calendar days), kept current by ingest in the same
 * transaction as the positions: the distance driven that day (the sum of the odometer steps of
 * the day's fixes), how many fixes, the highest speed, the first and last fix and the drivers'
 * tags seen. The distance report reads this, never the positions.
 */
export const vehicleDays = pgTable(
  'vehicle_days',
  {
    vehicleId: uuid('vehicle_id').notNull(),
    day: text('day').notNull(),
    clientId: uuid('client_id').notNull(),
    distance: doublePrecision('distance').notNull().default(0),
    fixes: integer('fixes').notNull().default(0),
    maxSpeed: real('max_speed'),
    firstFix: timestamp('first_fix', { withTimezone: true }).notNull(),
    lastFix: timestamp('last_fix', { withTimezone: true }).notNull(),
    driverRfids: text('driver_rfids').array().notNull().default(sql`'{}'::text[]`),
    /**
     * Seconds with the ignition on (server/ingest/queries/odometer.ts): the engine hours of
     * vehicles whose device sends no hour meter. Days before this column existed count none.
     */
    engineSeconds: doublePrecision('engine_seconds').notNull().default(0),
  },
  (t) => [
    // A vehicle moved to another customer on a day has one row per owner that day: each
    // customer's reports add up only the distance driven while the vehicle was theirs.
    primaryKey({ columns: [t.vehicleId, t.day, t.clientId] }),
    index('vehicle_days_client_day_idx').on(t.clientId, t.day),
  ],
);

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

/**
 * One counter that every change to trackers moves forward (a statement trigger, in the
 * migration): the embedded database's ingest keeps trackers and their last fixes in memory
 * (server/ingest/tracker-cache.ts) and reads this once per batch to know they still hold.
 */
export const trackerVersion = pgTable('tracker_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * Periodic work done once across processes (server/platform/jobs.ts): every process's timer
 * tries to claim the job's row for about one period; the one that moves `until` forward runs it,
 * the others skip that round. A process that dies leaves the lease to expire.
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  /** Who ran it last (host and process id), for operators. */
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
  /** How many times it ran, across processes. */
  runs: bigint('runs', { mode: 'number' }).notNull().default(1),
});

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

/**
 * A driver's personal link to their own page (/motorista/…): like a temporary link, revocable
 * and with an expiry, plus a PIN the manager sets and tells the driver. Only hashes are kept:
 * the link's token (SHA-256, it is long and random) and the PIN (argon2id, it is short). Wrong
 * PINs are counted; each fifth in a row locks the link for a while, so that someone who found
 * the link cannot try all 10,000 four-digit PINs.
 */
export const driverLinks = pgTable(
  'driver_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    pinHash: text('pin_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    failedPins: integer('failed_pins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('driver_links_token_key').on(t.tokenHash),
    index('driver_links_driver_idx').on(t.driverId),
  ],
);

/**
 * A device where the driver typed the PIN: the page keeps the session's token (only its hash is
 * here) and calls with it until the link expires or is revoked.
 */
export const driverSessions = pgTable(
  'driver_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => driverLinks.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('driver_sessions_token_key').on(t.tokenHash)],
);

/**
 * A problem with a vehicle reported by its driver from their page (a text and, optionally, a
 * photo, made smaller on the phone). The id is made by the page, so a report sent again after a
 * lost answer is stored once.
 */
export const driverReports = pgTable(
  'driver_reports',
  {
    id: uuid('id').primaryKey(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => drivers.id),
    vehicleId: uuid('vehicle_id').references(() => vehicles.id),
    text: text('text').notNull(),
    /** The photo's type when there is one; the file lives under UPLOAD_DIR/driver-reports. */
    photoType: text('photo_type'),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id),
  },
  (t) => [index('driver_reports_client_idx').on(t.clientId, t.createdAt.desc())],
);
