/**
 * The sharing room's tables: the vehicles a Terceiro (visitor) may see and the temporary shared
 * links. server/db/schema.ts re-exports them, so drizzle-kit generates their migrations with the
 * rest of the schema; the tables they point at (clients, users, vehicles, of other rooms) are
 * read through that re-export and referenced lazily, so the two files may import each other.
 */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../db/columns';
import { clients, users, vehicles } from '../db/schema';

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
