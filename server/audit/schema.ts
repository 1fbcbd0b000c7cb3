/**
 * The audit room's table. server/schema.ts re-exports it with every room's tables, so
 * drizzle-kit generates its migrations with the rest of the schema.
 */
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit log ('Auditoria'): who changed which record and how, who sent which command and
 * what became of it, who signed in (or failed to) and from where. Written in the transaction
 * of the change it tells of. No foreign keys: a line outlives the user, record or company it
 * names, so the actor's e-mail is copied in. `client_id` is the company the record belongs to
 * (the tenancy of the line); null only for a failed sign-in with an unknown e-mail.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    clientId: uuid('client_id'),
    actorUserId: uuid('actor_user_id'),
    actorEmail: text('actor_email'),
    ip: text('ip'),
    kind: text('kind').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    summary: text('summary').notNull().default(''),
    /** { field: [before, after] } for changes; secrets never appear (server/audit/diff.ts). */
    changes: jsonb('changes').$type<Record<string, [unknown, unknown]>>(),
    /** A command's state, kept current by a trigger on `commands` (migration 0023_audit). */
    outcome: text('outcome'),
  },
  (t) => [
    index('audit_events_client_at_idx').on(t.clientId, t.at.desc()),
    index('audit_events_at_idx').on(t.at),
    index('audit_events_entity_idx').on(t.entity, t.entityId),
  ],
);
