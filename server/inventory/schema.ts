/**
 * The inventory room's tables: the tracker models, and each customer's vehicles (with their
 * images), SIM cards, trackers, fleets and drivers. server/schema.ts re-exports them with every
 * room's tables; the customer they belong to is imported from the tenancy room's schema and
 * referenced lazily.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ownedColumns, timestamps } from '../platform/db/columns';
import { clients } from '../tenancy/schema';

const owned = ownedColumns(() => clients.id);

/** Tracker models: a platform-wide catalogue (manufacturer, model, protocol, inputs). */
export const trackerTypes = pgTable(
  'tracker_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    manufacturer: text('manufacturer').notNull(),
    model: text('model').notNull(),
    protocol: text('protocol').notNull(),
    inputs: text('inputs').array().notNull().default(sql`'{}'::text[]`),
    ...timestamps,
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('tracker_types_model_key')
      .on(sql`lower(${t.manufacturer})`, sql`lower(${t.model})`)
      .where(sql`${t.canceledAt} is null`),
  ],
);

export const vehicles = pgTable(
  'vehicles',
  {
    ...owned,
    name: text('name').notNull(),
    plate: text('plate').notNull(),
    type: text('type').notNull(),
    brand: text('brand'),
    model: text('model'),
    year: integer('year'),
    modelYear: integer('model_year'),
    color: text('color'),
    chassis: text('chassis'),
    renavam: text('renavam'),
    /** The tank's capacity in litres: a refuel larger than it is a mistake or a fraud. */
    fuelTankLiters: doublePrecision('fuel_tank_liters'),
  },
  (t) => [
    index('vehicles_client_idx').on(t.clientId),
    uniqueIndex('vehicles_plate_key').on(t.plate).where(sql`${t.canceledAt} is null`),
  ],
);

export const vehicleImages = pgTable(
  'vehicle_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('vehicle_images_vehicle_idx').on(t.vehicleId)],
);

export const simCards = pgTable(
  'sim_cards',
  {
    ...owned,
    iccid: text('iccid').notNull(),
    phoneNumber: text('phone_number'),
    carrier: text('carrier'),
    apn: text('apn'),
  },
  (t) => [
    index('sim_cards_client_idx').on(t.clientId),
    uniqueIndex('sim_cards_iccid_key').on(t.iccid).where(sql`${t.canceledAt} is null`),
  ],
);

export const trackers = pgTable(
  'trackers',
  {
    ...owned,
    identifier: text('identifier').notNull(),
    trackerTypeId: uuid('tracker_type_id').references(() => trackerTypes.id),
    provider: text('provider').notNull(),
    configMode: text('config_mode').notNull().default('default'),
    vehicleId: uuid('vehicle_id').references(() => vehicles.id),
    simCardId: uuid('sim_card_id').references(() => simCards.id),
    enabled: boolean('enabled').notNull().default(true),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    /**
     * The protocol the device speaks ('osmand', 'wialon_ips', 'flespi', …): a message for this
     * tracker on any other listener is refused. Null only for a tracker from before protocols
     * were bound that has never sent: the first protocol it is heard on binds it.
     */
    protocol: text('protocol'),
    /**
     * The device's own password (SHA-256 of it), when the operator set one: Wialon IPS login
     * and OsmAnd (`password`, or HTTP Basic) must present it, and a wrong one is answered as an
     * unknown identifier is. The column keeps the name it had when only Wialon IPS used it.
     */
    devicePasswordHash: text('wialon_password_hash'),
    /**
     * Let the device in without a password (one that cannot hold one). Its messages are
     * stored, but no command ever goes out through a link that skipped the password.
     */
    allowUnauthenticated: boolean('allow_unauthenticated').notNull().default(false),
    /**
     * The password the device asks of the commands it takes (Queclink `AT+GTOUT=<password>,…`),
     * kept as typed because it is sent to the device; null: the model's default.
     */
    commandPassword: text('command_password'),
  },
  (t) => [
    index('trackers_client_idx').on(t.clientId),
    uniqueIndex('trackers_identifier_key').on(t.identifier).where(sql`${t.canceledAt} is null`),
    uniqueIndex('trackers_sim_key')
      .on(t.simCardId)
      .where(sql`${t.canceledAt} is null and ${t.simCardId} is not null`),
  ],
);

export const fleets = pgTable(
  'fleets',
  {
    ...owned,
    name: text('name').notNull(),
    description: text('description'),
    vehicleIds: uuid('vehicle_ids').array().notNull().default(sql`'{}'::uuid[]`),
  },
  (t) => [index('fleets_client_idx').on(t.clientId)],
);

export const drivers = pgTable(
  'drivers',
  {
    ...owned,
    completName: text('complet_name').notNull(),
    cpf: text('cpf').notNull(),
    rfidCode: text('rfid_code'),
    licenseNumber: text('license_number'),
    licenseCategory: text('license_category'),
    licenseExpiry: text('license_expiry'),
    phone: text('phone'),
  },
  (t) => [
    index('drivers_client_idx').on(t.clientId),
    uniqueIndex('drivers_cpf_key').on(t.clientId, t.cpf).where(sql`${t.canceledAt} is null`),
    // RFID tags are unique within a customer only: two customers may use the same tag.
    uniqueIndex('drivers_rfid_key')
      .on(t.clientId, t.rfidCode)
      .where(sql`${t.canceledAt} is null and ${t.rfidCode} is not null`),
  ],
);
