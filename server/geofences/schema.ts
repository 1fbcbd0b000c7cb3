/**
 * The geofences room's tables: a customer's geofences and the vehicles under each one's rule
 * kind. server/schema.ts re-exports them with every room's tables; the tables they point at
 * (clients, vehicles) are imported from their rooms' schemas and referenced lazily.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, real, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { vehicles } from '../inventory/schema';
import { ownedColumns, timestamps } from '../platform/db/columns';
import { clients } from '../tenancy/schema';

const owned = ownedColumns(() => clients.id);

/**
 * Geofences: a customer's areas, a polygon or a ground circle in GeoJSON order (the wire
 * shape, src/contract/geofences.ts). The box (min/max longitude and latitude) is kept beside
 * the geometry so that a spatial index can be built without parsing it.
 */
export const geofences = pgTable(
  'geofences',
  {
    ...owned,
    name: text('name').notNull(),
    description: text('description'),
    color: text('color').notNull().default('#FF0000'),
    /** km/h; inside the geofence it replaces an overspeed rule's limit. */
    speedLimit: real('speed_limit'),
    geometry: jsonb('geometry').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('geofences_client_idx').on(t.clientId, t.updatedAt)],
);

/** A vehicle under a geofence's rule kind (SPEC §3), with its interval in local time. */
export const geofenceVehicles = pgTable(
  'geofence_vehicles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    geofenceId: uuid('geofence_id')
      .notNull()
      .references(() => geofences.id, { onDelete: 'cascade' }),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id, { onDelete: 'cascade' }),
    restrictionType: text('restriction_type').notNull(),
    startTime: text('start_time'),
    endTime: text('end_time'),
    weekdays: integer('weekdays').array().notNull().default(sql`'{0,1,2,3,4,5,6}'::int[]`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('geofence_vehicles_key').on(t.geofenceId, t.vehicleId),
    index('geofence_vehicles_vehicle_idx').on(t.vehicleId),
  ],
);
