/**
 * The database schema (one PostgreSQL dialect for PGlite and PostgreSQL). Migrations are
 * generated from this file by drizzle-kit into ./migrations and applied at start.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

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
    ...timestamps,
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
  },
  (t) => [
    index('clients_parent_idx').on(t.parentId),
    index('clients_name_idx').on(sql`lower(${t.name})`),
    uniqueIndex('clients_document_key').on(t.document).where(sql`${t.canceledAt} is null`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', {
      enum: ['VISITOR', 'CLIENT', 'OPERATOR', 'MANAGER', 'ADMINISTRATOR'],
    }).notNull(),
    active: boolean('active').notNull().default(true),
    /** Null until the user sets a password through the first-access e-mail. */
    passwordHash: text('password_hash'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    ...timestamps,
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`).where(sql`${t.canceledAt} is null`),
    index('users_client_idx').on(t.clientId),
  ],
);

/**
 * Refresh tokens are stored as SHA-256 hashes. Each login starts a family; every refresh
 * marks the presented token used and issues its successor in the same family. Presenting a
 * used token again means it was stolen or replayed: the whole family is revoked.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);

/** One-time tokens of the first-access and password-recovery e-mails (hashed). */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['first_access', 'recovery'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_tokens_hash_key').on(t.tokenHash)],
);

/** Browser push (FCM) registration tokens of signed-in users. */
export const pushTokens = pgTable(
  'push_tokens',
  {
    token: text('token').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [index('push_tokens_user_idx').on(t.userId)],
);

/**
 * Failed sign-in counters, keyed by 'account:<email>' or 'address:<ip>'. Kept in the
 * database so that several server processes share them.
 */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});

/** Server-generated settings shared by every process (e.g. the signing secret). */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
