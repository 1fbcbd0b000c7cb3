/**
 * The customer tree's table (docs/architecture.md, room `tenancy`). server/schema.ts
 * re-exports it with every room's tables. It points at no other table, so this file imports
 * none; the other rooms' schemas import `clients` from here and reference it lazily.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../platform/db/columns';

/** Customer companies and people. A mother company owns child customers to any depth. */
export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    parentId: uuid('parent_id').references((): AnyPgColumn => clients.id),
    kind: text('kind', { enum: ['fisical', 'juridical'] }).notNull(),
    name: text('name').notNull(),
    corporateName: text('corporate_name'),
    document: text('document').notNull(),
    email: text('email'),
    supportEmail: text('support_email'),
    phone: text('phone'),
    cep: text('cep'),
    street: text('street'),
    number: text('number'),
    complement: text('complement'),
    district: text('district'),
    city: text('city'),
    state: text('state'),
    active: boolean('active').notNull().default(true),
    /** Whether this company's Gestores and Administradores must sign in with two steps. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    ...timestamps,
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
  },
  (t) => [
    index('clients_parent_idx').on(t.parentId),
    index('clients_name_idx').on(sql`lower(${t.name})`),
    uniqueIndex('clients_document_key').on(t.document).where(sql`${t.canceledAt} is null`),
  ],
);
