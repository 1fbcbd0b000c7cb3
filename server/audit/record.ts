/**
 * Writes audit lines. `recordAudit` takes the database or the transaction of the change it
 * tells of, so the line and the change are committed together or not at all: a change that
 * fails leaves no line, and no change goes unrecorded.
 */
import type { Context } from 'hono';
import type { AuditEntity, AuditKind } from '../../src/contract';
import type { AuthEnv } from '../accounts/auth/middleware';
import type { Deps } from '../deps';
import type { Db } from '../platform/db/client';
import { clientAddress } from '../platform/http/client-address';
import { auditEvents } from '../schema';
import { auditChanges, type Changes, withoutSecrets } from './diff';

/** Who did it and from where. */
export interface AuditActor {
  actorUserId: string | null;
  actorEmail: string | null;
  ip: string | null;
}

export interface AuditEvent extends AuditActor {
  /** The company the record belongs to (who may read the line); null: nobody's but the admins'. */
  clientId: string | null;
  kind: AuditKind;
  entity: AuditEntity;
  entityId?: string | null;
  /** One line a person reads: 'ABC1D23', 'Bloquear', 'E-mail ou senha inválidos'. */
  summary?: string;
  changes?: Changes | null;
  /** A command's state (kept current by the database afterwards). */
  outcome?: string | null;
  at?: Date;
}

/** The signed-in caller of a request, and the address it came from. */
export function actorOf(c: Context<AuthEnv>, deps: Deps): AuditActor {
  return {
    actorUserId: c.var.user.id,
    actorEmail: c.var.user.email,
    ip: clientAddress(c, deps.config.trustProxy),
  };
}

/** Who is not signed in yet (a sign-in, a link from an e-mail): their address only. */
export function anonymousActor(c: Context, deps: Deps, email: string | null = null): AuditActor {
  return { actorUserId: null, actorEmail: email, ip: clientAddress(c, deps.config.trustProxy) };
}

/**
 * A line about a user's own account written before or without a signed-in caller (sign-in,
 * sign-out, a password or e-mail link): the user is both the one who acted and the record.
 */
export function ownAccountLine(
  c: Context,
  deps: Deps,
  user: { id: string; email: string; clientId: string },
  entity: 'session' | 'user',
) {
  return {
    ...anonymousActor(c, deps, user.email),
    actorUserId: user.id,
    clientId: user.clientId,
    entity,
    entityId: user.id,
  };
}

export async function recordAudit(db: Db, event: AuditEvent): Promise<void> {
  await db.insert(auditEvents).values({
    clientId: event.clientId,
    actorUserId: event.actorUserId,
    actorEmail: event.actorEmail,
    ip: event.ip?.slice(0, 64) ?? null,
    kind: event.kind,
    entity: event.entity,
    entityId: event.entityId ?? null,
    summary: (event.summary ?? '').slice(0, 300),
    // A caller's hand-made changes go through the deny-list too, not only auditChanges'.
    changes: event.changes ? maskChanges(event.changes) : null,
    outcome: event.outcome ?? null,
    ...(event.at ? { at: event.at } : {}),
  });
}

function maskChanges(changes: Changes): Changes {
  const before = withoutSecrets(
    Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v[0]])),
  );
  const after = withoutSecrets(
    Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v[1]])),
  );
  return Object.fromEntries(Object.keys(changes).map((k) => [k, [before[k], after[k]]]));
}

/**
 * The line of a record's creation (no `before`), change, or removal (no `after`), by the
 * signed-in caller, with the fields that differ.
 */
export function recordChange(
  db: Db,
  c: Context<AuthEnv>,
  deps: Deps,
  change: {
    entity: AuditEntity;
    clientId: string;
    entityId: string;
    summary?: string | null | undefined;
    before?: object | null | undefined;
    after?: object | null | undefined;
  },
): Promise<void> {
  const kind: AuditKind = !change.before ? 'create' : !change.after ? 'delete' : 'update';
  return recordAudit(db, {
    ...actorOf(c, deps),
    clientId: change.clientId,
    kind,
    entity: change.entity,
    entityId: change.entityId,
    summary: change.summary ?? '',
    changes:
      kind === 'delete'
        ? null
        : auditChanges(
            change.before as Record<string, unknown> | null | undefined,
            change.after as Record<string, unknown> | null | undefined,
          ),
  });
}
