/**
 * The accounts room's tables: users, their sessions (refresh tokens), the one-time links of the
 * account e-mails, two-step sign-in, and the sign-in throttle. server/schema.ts re-exports them
 * with every room's tables; the customer a user belongs to is imported from the tenancy room's
 * schema and referenced lazily.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../platform/db/columns';
import { clients } from '../tenancy/schema';

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
    /**
     * The TOTP secret, encrypted (server/accounts/auth/two-factor.ts). Set by the setup; two-step
     * sign-in is on only once a code confirmed it (`totpEnabledAt`).
     */
    totpSecret: text('totp_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The 30-second step of the last code accepted: a code is never taken twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
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
    /** When the family's sign-in happened: no token of it lives past the absolute lifetime. */
    sessionStartedAt: timestamp('session_started_at', { withTimezone: true })
      .notNull()
      .defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);

/**
 * One-time tokens of the account e-mails (hashed): first access and password recovery, and
 * the confirmation of a new e-mail address (`newEmail`), which takes effect only once the
 * link sent to that address is opened.
 */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['first_access', 'recovery', 'email_change'] }).notNull(),
    newEmail: text('new_email'),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_tokens_hash_key').on(t.tokenHash)],
);

/** Two-step sign-in recovery codes, hashed; each works once. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.userId)],
);

/**
 * The second step of a sign-in: the password was right, a code is awaited. Only the hash of
 * the challenge is kept; it lasts minutes and is spent by the sign-in it completes.
 */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('two_factor_challenges_hash_key').on(t.tokenHash)],
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

/**
 * Addresses each account signed in from successfully, and when last. When a distributed
 * guess fills an account's ceiling of failed sign-ins, the account stays open from these
 * addresses: the owner is not locked out by strangers.
 */
export const loginKnownAddresses = pgTable(
  'login_known_addresses',
  {
    /** The e-mail, lower-case, as in the throttle's 'account:' key. */
    account: text('account').notNull(),
    address: text('address').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.account, t.address] })],
);
