/**
 * Columns the rooms' tables share (server/<room>/schema.ts). This file imports no table, so any
 * room's schema may spread these columns while its table is being built; the customer a
 * record points at is read only later, through the function each caller passes.
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
