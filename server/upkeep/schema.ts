/**
 * The upkeep room's tables: maintenance plans and service records, documents with an expiry,
 * the files attached to either, refuels and other vehicle costs. server/schema.ts re-exports
 * them with every room's tables; the tables they point at (clients, vehicles, fleets, drivers,
 * users) are imported from their rooms' schemas and referenced lazily.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';
import { drivers, fleets, vehicles } from '../inventory/schema';
import { ownedColumns } from '../platform/db/columns';
import { clients } from '../tenancy/schema';

const owned = ownedColumns(() => clients.id);

/**
 * A maintenance plan: a service due every N km, N engine hours or N days, whichever comes
 * first, for one vehicle or for every vehicle of a fleet. Until a service record covers it, a
 * vehicle's cycle counts from the plan's start (date, km and hours given when it was made).
 */
export const maintenancePlans = pgTable(
  'maintenance_plans',
  {
    ...owned,
    name: text('name').notNull(),
    vehicleId: uuid('vehicle_id').references(() => vehicles.id),
    fleetId: uuid('fleet_id').references(() => fleets.id),
    /** Or every live vehicle of this type (VEHICLE_TYPES) of the plan's customer. */
    vehicleType: text('vehicle_type'),
    everyKm: integer('every_km'),
    everyHours: integer('every_hours'),
    everyDays: integer('every_days'),
    warnKm: integer('warn_km').notNull().default(0),
    warnHours: integer('warn_hours').notNull().default(0),
    warnDays: integer('warn_days').notNull().default(0),
    /** São Paulo day 'AAAA-MM-DD' the first cycle counts from. */
    startDate: text('start_date').notNull(),
    startKm: doublePrecision('start_km').notNull().default(0),
    startHours: doublePrecision('start_hours').notNull().default(0),
  },
  (t) => [index('maintenance_plans_client_idx').on(t.clientId)],
);

/** A service done on a vehicle; it restarts the cycle of every plan it names. */
export const serviceRecords = pgTable(
  'service_records',
  {
    ...owned,
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id),
    /** São Paulo day 'AAAA-MM-DD'. */
    date: text('date').notNull(),
    /** On the tracked odometer's scale (the km the due list counts), in km. */
    odometerKm: doublePrecision('odometer_km'),
    hours: doublePrecision('hours'),
    items: text('items').array().notNull().default(sql`'{}'::text[]`),
    /** In centavos: money is never a float. */
    costCents: integer('cost_cents'),
    workshop: text('workshop'),
    notes: text('notes'),
    planIds: uuid('plan_ids').array().notNull().default(sql`'{}'::uuid[]`),
  },
  (t) => [
    index('service_records_client_idx').on(t.clientId),
    index('service_records_vehicle_idx').on(t.vehicleId, t.date),
  ],
);

/**
 * A document with an expiry: a vehicle's (CRLV, IPVA, insurance, tachograph inspection,
 * RNTRC, others by name) or a driver's (toxicological exam, courses such as MOPP, others). A
 * driver's CNH is not here: it is the driver's own licenseExpiry.
 */
export const documents = pgTable(
  'documents',
  {
    ...owned,
    vehicleId: uuid('vehicle_id').references(() => vehicles.id),
    driverId: uuid('driver_id').references(() => drivers.id),
    kind: text('kind').notNull(),
    /** The name of a course or of an 'other' document. */
    name: text('name'),
    number: text('number'),
    /** São Paulo day 'AAAA-MM-DD': the last day it is valid. */
    expiry: text('expiry').notNull(),
    notes: text('notes'),
  },
  (t) => [
    index('documents_client_idx').on(t.clientId),
    index('documents_expiry_idx').on(t.expiry).where(sql`${t.canceledAt} is null`),
  ],
);

/**
 * A file attached to a service record (the workshop's invoice, photos of the part) or to a
 * document (the scanned CRLV, the exam's certificate): exactly one owner. The bytes live on
 * disk under UPLOAD_DIR/attachments/<owner id>/<id> (upkeep/routes/attachments.ts); the name is the
 * one it was sent with, cleaned, and is never part of the path. Who may see an attachment is
 * decided by its owner (its customer, not cancelled), so there is no customer column to go
 * stale when a record moves to another customer.
 */
export const attachments = pgTable(
  'attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serviceRecordId: uuid('service_record_id').references(() => serviceRecords.id, {
      onDelete: 'cascade',
    }),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Found from the file's first bytes: image/jpeg, image/png, image/webp, application/pdf. */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('attachments_service_record_idx').on(t.serviceRecordId),
    index('attachments_document_idx').on(t.documentId),
    check('attachments_one_owner', sql`num_nonnulls(${t.serviceRecordId}, ${t.documentId}) = 1`),
  ],
);

/**
 * A refuel ('abastecimento') of a vehicle, typed in or imported from a fuel card's file. The
 * odometer is the one on the vehicle's panel, as the driver reads it at the pump: the km the
 * consumption counts between two full tanks.
 */
export const refuels = pgTable(
  'refuels',
  {
    ...owned,
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id),
    driverId: uuid('driver_id').references(() => drivers.id),
    at: timestamp('at', { withTimezone: true }).notNull(),
    liters: doublePrecision('liters').notNull(),
    /** R$ per litre in thousandths of a real: pumps price to three decimals (R$ 5,899). */
    priceMilli: integer('price_milli').notNull(),
    /** In centavos: litres × price, rounded to the centavo. */
    totalCents: integer('total_cents').notNull(),
    odometerKm: doublePrecision('odometer_km').notNull(),
    station: text('station'),
    fullTank: boolean('full_tank').notNull().default(false),
    notes: text('notes'),
  },
  (t) => [
    index('refuels_client_idx').on(t.clientId),
    index('refuels_vehicle_idx').on(t.vehicleId, t.at),
  ],
);

/** Other costs of a vehicle: tolls, fines, washing, parking, tyres, insurance, others. */
export const vehicleExpenses = pgTable(
  'vehicle_expenses',
  {
    ...owned,
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id),
    /** São Paulo day 'AAAA-MM-DD'. */
    date: text('date').notNull(),
    category: text('category').notNull(),
    /** In centavos. */
    amountCents: integer('amount_cents').notNull(),
    description: text('description'),
  },
  (t) => [
    index('vehicle_expenses_client_idx').on(t.clientId),
    index('vehicle_expenses_vehicle_idx').on(t.vehicleId, t.date),
  ],
);
