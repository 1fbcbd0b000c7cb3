/**
 * The tables the plumbing keeps for itself: settings the server generates once and every
 * process shares (the token signing secret, the Web Push keys) and the leases of the periodic
 * jobs (platform/jobs.ts). server/schema.ts re-exports them with every room's tables.
 */
import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Server-generated settings shared by every process (e.g. the signing secret). */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Periodic work done once across processes (server/platform/jobs.ts): every process's timer
 * tries to claim the job's row for about one period; the one that moves `until` forward runs it,
 * the others skip that round. A process that dies leaves the lease to expire.
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  /** Who ran it last (host and process id), for operators. */
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
  /** How many times it ran, across processes. */
  runs: bigint('runs', { mode: 'number' }).notNull().default(1),
});
