/**
 * The mold of a customer's records: the list, read, create, update and cancel calls that
 * vehicles, trackers, SIM cards, fleets, drivers, geofences, alert rules, driver assignments
 * and the upkeep records share, with the caller's customers, the audit line and the pt-BR
 * answers in one place (queries.ts holds their SQL). Every room's routes may use it; it imports no room's routes.
 */
import { type Context, Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type * as v from 'valibot';
import type { AuditEntity } from '../../src/contract';
import { MessageSchema, type Permission, SELECT_CLIENT_MESSAGE } from '../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../accounts/auth/middleware';
import { auditChanges } from '../audit/diff';
import { actorOf, recordAudit } from '../audit/record';
import type { Deps } from '../deps';
import type { Db } from '../platform/db/client';
import { badRequest, HttpError, notFound } from '../platform/http/errors';
import { docs, IdParam } from '../platform/http/openapi';
import { validate } from '../platform/http/validate';
import { clientsWithin, visibleClient, visibleClientIds } from '../tenancy/scope';
import {
  cancelOwned,
  type Filter,
  getOwned,
  idIn,
  insertOwned,
  isUniqueViolation,
  listOwned,
  type OwnedTable,
  type SortBy,
  updateOwned,
} from './queries';

type Row<T extends OwnedTable> = T['$inferSelect'];
export type Ctx = Context<AuthEnv>;

interface ListQuery {
  clientId?: string | undefined;
  search: string;
  page: number;
  limit: number;
  sort?: string | undefined;
  order: 'asc' | 'desc';
  active?: boolean | undefined;
  updatedSince?: string | undefined;
  afterId?: string | undefined;
}

export interface OwnedResource<
  T extends OwnedTable,
  Q extends ListQuery,
  C extends { clientId: string },
  U,
> {
  tag: string;
  /** Key of the list in the paged answer: { [listKey]: [...], page, limit, total }. */
  listKey: string;
  notFound: string;
  duplicate: string;
  table: T;
  schemas: {
    create: v.GenericSchema<unknown, C>;
    update: v.GenericSchema<unknown, U>;
    query: v.GenericSchema<unknown, Q>;
    /** The list's answer (the page). */
    output: v.GenericSchema;
    /** One record's answer (create, read, change), for the docs; the page's if absent. */
    record?: v.GenericSchema;
  };
  /** SPEC §5: some lists need a selected customer. */
  requireClient?: boolean;
  sorts: Record<string, SortBy>;
  filters: (q: Q) => Filter[];
  toOutput: (deps: Deps, rows: Row<T>[]) => Promise<unknown[]> | unknown[];
  /**
   * Answers a list with `updatedSince` in a sync protocol of the resource's own, for mirrors
   * that do not read tombstones and keyset pages (e.g. the live rows changed plus every live
   * id). `clientIds` are the customers the list covers; a VISITOR's come empty, since the
   * hook cannot narrow them to the visitorIds the list would.
   */
  syncList?: (q: Q, since: Date, clientIds: string[]) => Promise<Record<string, unknown>>;
  /** The columns to write; `existing` is the record a patch changes (absent on create). */
  toValues: (
    input: C | U,
    existing?: Row<T>,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Checks references (ids of other records) against what the caller may see. */
  checkRefs?: (c: Ctx, input: C | U, clientId: string, existing?: Row<T>) => Promise<void>;
  /**
   * Checks made in the write's transaction, just before it: what two writes at once could
   * both pass outside it (a period that must not overlap another), with the rows it depends
   * on locked there.
   */
  beforeWrite?: (tx: Db, values: Record<string, unknown>, existing?: Row<T>) => Promise<void>;
  beforeRemove?: (c: Ctx, row: Row<T>) => Promise<void>;
  /** The message a removal answers with, if not the generic 'Registro removido.'. */
  removed?: string;
  permissions?: { write?: Permission; remove?: Permission };
  /** What a VISITOR sees of this resource: these ids (their linked vehicles), or nothing. */
  visitorIds?: (c: Ctx) => Promise<string[]>;
  /** How the audit log names it: the kind of record, and a record in a few words. */
  audit: { entity: AuditEntity; label: (row: Row<T>) => string | null | undefined };
}

export function ownedRoutes<
  T extends OwnedTable,
  Q extends ListQuery,
  C extends { clientId: string },
  U,
>(deps: Deps, r: OwnedResource<T, Q, C, U>) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  const write = r.permissions?.write ?? 'create_resources';
  const remove = r.permissions?.remove ?? 'delete_resources';
  const record = r.schemas.record ?? r.schemas.output;
  app.use(requireAuth(deps), requirePermission('read_resources'));

  /** SPEC §6: a visitor sees only linked vehicles, and nothing else of the inventory. */
  async function visitorOnly(c: Ctx): Promise<string[] | undefined> {
    if (c.var.user.role !== 'VISITOR') return undefined;
    return r.visitorIds ? r.visitorIds(c) : [];
  }

  async function one(c: Ctx, id: string) {
    const only = await visitorOnly(c);
    const row =
      only && !only.includes(id)
        ? undefined
        : await getOwned(db, r.table, id, await visibleClientIds(c, deps));
    if (!row) throw notFound(r.notFound);
    return row;
  }
  /** The audit line of a change, written in the change's transaction. */
  const audit = (
    c: Ctx,
    tx: Db,
    kind: 'create' | 'update' | 'delete',
    before: Row<T> | undefined,
    after: Row<T> | undefined,
  ) => {
    const row = (after ?? before) as Row<T>;
    return recordAudit(tx, {
      ...actorOf(c, deps),
      clientId: row.clientId as string,
      kind,
      entity: r.audit.entity,
      entityId: row.id as string,
      summary: r.audit.label(row) ?? '',
      changes: kind === 'delete' ? null : auditChanges(before, after),
    });
  };
  const out = async (row: Row<T>) => (await r.toOutput(deps, [row]))[0];
  const duplicateSafe = async <R>(work: () => Promise<R>) => {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw new HttpError(409, 'CONFLICT', r.duplicate);
      throw err;
    }
  };

  app.get(
    '/',
    describeRoute({
      tags: [r.tag],
      summary: 'Listar, com busca, ordenação e paginação',
      responses: { 200: docs(r.schemas.output, 'Página') },
    }),
    validate('query', r.schemas.query),
    async (c) => {
      const q = c.req.valid('query') as Q;
      if (r.requireClient && !q.clientId) throw badRequest(SELECT_CLIENT_MESSAGE);
      const clientIds = await clientsWithin(c, deps, q.clientId);
      const only = await visitorOnly(c);
      if (q.updatedSince && r.syncList)
        return c.json(await r.syncList(q, new Date(q.updatedSince), only ? [] : clientIds));
      const { rows, total } = await listOwned(db, r.table, {
        clientIds,
        updatedSince: q.updatedSince ? new Date(q.updatedSince) : undefined,
        afterId: q.afterId,
        where: r.filters(q),
        always: only ? [idIn(r.table, only)] : [],
        sort: q.updatedSince ? r.table.updatedAt : (q.sort && r.sorts[q.sort]) || r.table.id,
        order: q.order,
        page: q.page,
        limit: q.limit,
      });
      return c.json({
        [r.listKey]: await r.toOutput(deps, rows),
        page: q.page,
        limit: q.limit,
        total,
      });
    },
  );

  app.post(
    '/',
    describeRoute({
      tags: [r.tag],
      summary: 'Criar',
      responses: { 201: docs(record, 'Criado') },
    }),
    requirePermission(write),
    validate('json', r.schemas.create),
    async (c) => {
      const input = c.req.valid('json') as C;
      await visibleClient(c, deps, input.clientId);
      await r.checkRefs?.(c, input, input.clientId);
      const values = await r.toValues(input);
      const row = await duplicateSafe(() =>
        db.transaction(async (tx) => {
          await r.beforeWrite?.(tx, values);
          const created = await insertOwned(tx, r.table, values);
          await audit(c, tx, 'create', undefined, created);
          return created;
        }),
      );
      return c.json(await out(row), 201);
    },
  );

  app.get(
    '/:id',
    describeRoute({
      tags: [r.tag],
      summary: 'Ler um',
      responses: { 200: docs(record, 'Registro') },
    }),
    validate('param', IdParam),
    async (c) => c.json(await out(await one(c, c.req.valid('param').id))),
  );

  app.patch(
    '/:id',
    describeRoute({
      tags: [r.tag],
      summary: 'Alterar',
      responses: { 200: docs(record, 'Registro') },
    }),
    requirePermission(write),
    validate('param', IdParam),
    validate('json', r.schemas.update),
    async (c) => {
      const existing = await one(c, c.req.valid('param').id);
      const patch = c.req.valid('json') as U & { clientId?: string };
      const clientId = patch.clientId ?? (existing.clientId as string);
      if (patch.clientId) await visibleClient(c, deps, patch.clientId);
      await r.checkRefs?.(c, patch, clientId, existing);
      const values = await r.toValues(patch, existing);
      const row = await duplicateSafe(() =>
        db.transaction(async (tx) => {
          await r.beforeWrite?.(tx, values, existing);
          const updated = await updateOwned(tx, r.table, existing.id as string, values);
          if (updated) await audit(c, tx, 'update', existing, updated);
          return updated;
        }),
      );
      if (!row) throw notFound(r.notFound);
      return c.json(await out(row));
    },
  );

  app.delete(
    '/:id',
    describeRoute({
      tags: [r.tag],
      summary: 'Remover (exclusão lógica)',
      responses: { 200: docs(MessageSchema, 'Removido') },
    }),
    requirePermission(remove),
    validate('param', IdParam),
    async (c) => {
      const row = await one(c, c.req.valid('param').id);
      await r.beforeRemove?.(c, row);
      await db.transaction(async (tx) => {
        await cancelOwned(tx, r.table, row.id as string);
        await audit(c, tx, 'delete', row, undefined);
      });
      return c.json({ message: r.removed ?? 'Registro removido.' });
    },
  );

  return app;
}

/** Values of a patch or input, dropping undefined (absent) and keeping null (cleared). */
export function present<T extends object>(input: T, keys: (keyof T)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (input[key] !== undefined) out[key as string] = input[key];
  return out;
}

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The columns every record owned by a customer answers with (src/contract ownedOut). */
export const owned = (row: {
  id: string;
  clientId: string;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
  canceledAt: Date | null;
}) => ({
  id: row.id,
  clientId: row.clientId,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  canceledAt: iso(row.canceledAt),
});
