/**
 * The commands room's table: each command sent to a vehicle's tracker (block, unblock…) and how
 * it went. server/schema.ts re-exports it; the tables it points at are read from their rooms'
 * schema files and referenced lazily.
 */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';
import { trackers, vehicles } from '../inventory/schema';
import { timestamps } from '../platform/db/columns';
import { clients } from '../tenancy/schema';

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
