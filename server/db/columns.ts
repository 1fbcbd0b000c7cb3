/**
 * Columns shared by the tables of server/db/schema.ts and of the rooms' schema.ts files. This
 * file imports no table: schema.ts re-exports the rooms' tables and the rooms import theirs
 * from schema.ts, so whichever of the two loads first meets the other half-built. A room's
 * table spreads these columns while it is being built; the customer they point at is read
 * only later, through the function each caller passes.
 */
import { type AnyPgColumn, boolean, timestamp, uuid } from 'drizzle-orm/pg-core';

export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * A customer's record: its id, its customer (`clients.id`, given as `() => clients.id`), the
 * active flag, timestamps and cancellation.
 */
export function ownedColumns(client: () => AnyPgColumn) {
  return {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id').notNull().references(client),
    active: boolean('active').notNull().default(true),
    ...timestamps,
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
  };
}
