/**
 * The jornada room's tables: the drivers' marks of the working day and the managers'
 * corrections, which driver drove which vehicle when (assignments), each customer's jornada
 * settings, and the drivers' own page (their links, sessions and the reports they send).
 * server/schema.ts re-exports them; the tables they point at are read from their rooms'
 * schema files and referenced lazily.
 */
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';
import { drivers, vehicles } from '../inventory/schema';
import { ownedColumns, timestamps } from '../platform/db/columns';
import { clients } from '../tenancy/schema';

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
