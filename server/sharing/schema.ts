/**
 * The sharing room's tables: the vehicles a Terceiro (visitor) may see and the temporary shared
 * links. server/schema.ts re-exports them with every room's tables; the tables they point at
 * (clients, users, vehicles) are imported from their rooms' schemas and referenced lazily.
 */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';
import { vehicles } from '../inventory/schema';
import { timestamps } from '../platform/db/columns';
import { clients } from '../tenancy/schema';

/** Vehicles a VISITOR (Terceiro) user may see. */
export const visitorVehicles = pgTable(
  'visitor_vehicles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    vehicleId: uuid('vehicle_id')
      .notNull()
      .references(() => vehicles.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('visitor_vehicles_key').on(t.userId, t.vehicleId)],
);

/**
 * Temporary shared links: read-only access to chosen vehicles until they expire or are
 * revoked. The token is kept so the link can be copied again from the list; it grants only
 * this read-only view.
 */
export const temporaryUsers = pgTable(
  'temporary_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    token: text('token').notNull(),
    vehicleIds: uuid('vehicle_ids').array().notNull().default(sql`'{}'::uuid[]`),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('temporary_users_token_key').on(t.token),
    index('temporary_users_client_idx').on(t.clientId),
  ],
);
