/**
 * The ingest's tables: every position (partitioned by month), each tracker's last location and
 * the index of their changes that the live stream reads, device news and unknown identifiers,
 * the daily summary each fix adds to, and the counter that tells the tracker cache it still
 * holds. server/schema.ts re-exports them; the tables they point at are read from their rooms'
 * schema files and referenced lazily.
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
  uuid,
} from 'drizzle-orm/pg-core';

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

/**
 * One counter that every change to trackers moves forward (a statement trigger, in the
 * migration): the embedded database's ingest keeps trackers and their last fixes in memory
 * (server/ingest/tracker-cache.ts) and reads this once per batch to know they still hold.
 */
export const trackerVersion = pgTable('tracker_version', {
  id: integer('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
