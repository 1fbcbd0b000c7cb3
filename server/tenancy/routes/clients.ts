/**
 * SPEC §7 "Customers". Reads need read_resources and stay inside the caller's subtree;
 * writes need CrudCompany. Removal is a soft cancel that refuses while live children remain.
 */
import type { ConversionConfig } from '@valibot/to-json-schema';
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import {
  type Customer,
  CustomerBaseSchema,
  CustomerCreateSchema,
  CustomerPageSchema,
  CustomerQuerySchema,
  CustomerRowPageSchema,
  CustomerTreeSchema,
  CustomerUpdateSchema,
  flattenIssues,
  MessageSchema,
  MotherCompanyPageQuerySchema,
  type PersonKind,
} from '../../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import { revokeUserTokens } from '../../accounts/queries/tokens';
import { recordChange } from '../../audit/record';
import type { Deps } from '../../deps';
import { liveVehiclesOfClient } from '../../inventory/queries/inventory';
import { badRequest, HttpError } from '../../platform/http/errors';
import { IdParam } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import {
  activeChildren,
  type ClientRow,
  type ClientValues,
  cancelClient,
  clientsIn,
  documentTaken,
  insertClient,
  listClients,
  subtreeIds,
  updateClient,
  userIdsOfClient,
} from '../queries';
import { CLIENT_NOT_FOUND, customerScope, visibleClient } from '../scope';

const one = {
  200: {
    description: 'Cliente',
    content: { 'application/json': { schema: resolver(CustomerBaseSchema) } },
  },
};
/**
 * The tree is recursive: it is one named component (CustomerTree) whose `children` point back
 * to it, rather than the generator's anonymous `#/$defs/0`, which the document would not hold.
 */
const treeDocs: ConversionConfig = {
  definitions: { CustomerTree: CustomerTreeSchema },
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};
const tree = {
  200: {
    description: 'Cliente com os seus filhos aninhados (children em cada nível, vazio na folha)',
    content: {
      'application/json': { schema: resolver(CustomerTreeSchema, { options: treeDocs }) },
    },
  },
};
const page = {
  200: {
    description: 'Clientes, com o nome da empresa-mãe, e paginação',
    content: { 'application/json': { schema: resolver(CustomerRowPageSchema) } },
  },
};
const descendantsPage = {
  200: {
    description: 'Clientes descendentes e paginação',
    content: { 'application/json': { schema: resolver(CustomerPageSchema) } },
  },
};

export function toCustomer(row: ClientRow, children?: Customer[]): Customer {
  const address = Object.fromEntries(
    (['cep', 'street', 'number', 'complement', 'district', 'city', 'state'] as const)
      .filter((key) => row[key])
      .map((key) => [key, row[key]]),
  ) as Customer['address'];
  return {
    id: row.id,
    active: row.active,
    personKind: row.kind,
    name: row.name,
    corporateName: row.corporateName,
    email: row.email,
    supportEmail: row.supportEmail,
    phone: row.phone,
    clientCPF: row.kind === 'fisical' ? row.document : null,
    clientCNPJ: row.kind === 'juridical' ? row.document : null,
    motherCompanyId: row.parentId,
    requireTwoFactor: row.requireTwoFactor,
    address,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    canceledAt: row.canceledAt?.toISOString() ?? null,
    ...(children ? { children } : {}),
  };
}

/** Nests rows under their parents, starting from the given root. */
function buildTree(rootId: string, rows: ClientRow[]): Customer {
  const byParent = new Map<string, ClientRow[]>();
  for (const row of rows) {
    if (!row.parentId) continue;
    byParent.set(row.parentId, [...(byParent.get(row.parentId) ?? []), row]);
  }
  const root = rows.find((row) => row.id === rootId);
  if (!root) throw new Error('tree root missing');
  const nest = (row: ClientRow): Customer =>
    toCustomer(row, (byParent.get(row.id) ?? []).map(nest));
  return nest(root);
}

type CustomerInput = v.InferOutput<typeof CustomerCreateSchema>;

function toValues(input: CustomerInput, parentId: string | null): ClientValues {
  const address = input.address ?? {};
  return {
    parentId,
    kind: input.personKind,
    name: input.name,
    corporateName: input.corporateName ?? null,
    document: (input.personKind === 'fisical' ? input.clientCPF : input.clientCNPJ) ?? '',
    email: input.email ?? null,
    supportEmail: input.supportEmail ?? null,
    phone: input.phone ?? null,
    active: input.active ?? true,
    requireTwoFactor: input.requireTwoFactor ?? false,
    cep: address.cep ?? null,
    street: address.street ?? null,
    number: address.number ?? null,
    complement: address.complement ?? null,
    district: address.district ?? null,
    city: address.city ?? null,
    state: address.state ?? null,
  };
}

/** The stored customer as create input, so an update can be merged and checked whole. */
function toInput(row: ClientRow): v.InferInput<typeof CustomerCreateSchema> {
  const customer = toCustomer(row);
  const optional = <T>(value: T | null) => value ?? undefined;
  return {
    personKind: customer.personKind,
    name: customer.name,
    corporateName: optional(customer.corporateName),
    clientCPF: optional(customer.clientCPF),
    clientCNPJ: optional(customer.clientCNPJ),
    email: optional(customer.email),
    supportEmail: optional(customer.supportEmail),
    phone: optional(customer.phone),
    motherCompanyId: optional(customer.motherCompanyId),
    active: customer.active,
    requireTwoFactor: customer.requireTwoFactor,
    address: customer.address,
  };
}

/** null in a patch clears the field: it becomes absent in the merged input. */
function withoutNulls<T extends object>(patch: T) {
  return Object.fromEntries(
    Object.entries(patch).map(([key, value]) => [key, value ?? undefined]),
  ) as {
    [K in keyof T]: Exclude<T[K], null>;
  };
}

const DUPLICATE_DOCUMENT = 'Já existe um cliente com este CPF/CNPJ';

/**
 * A document sent beside the other kind's (a CNPJ for a pessoa física): only one is kept, so
 * the other is refused rather than dropped.
 */
function refuseOtherKindDocument(
  kind: PersonKind,
  given: { clientCPF?: string | null | undefined; clientCNPJ?: string | null | undefined },
) {
  const wrong =
    kind === 'fisical' && given.clientCNPJ
      ? { path: 'clientCNPJ', message: 'Pessoa física tem CPF, não CNPJ' }
      : kind === 'juridical' && given.clientCPF
        ? { path: 'clientCPF', message: 'Pessoa jurídica tem CNPJ, não CPF' }
        : undefined;
  if (wrong) throw badRequest(`Requisição inválida: ${wrong.path}: ${wrong.message}`, [wrong]);
}

export function clientRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

  app.get(
    '/',
    describeRoute({
      tags: ['Clientes'],
      summary: 'Clientes visíveis ao usuário, com busca, ordenação e paginação',
      responses: page,
    }),
    validate('query', CustomerQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const ids = await customerScope(c, deps);
      const { rows, total } = await listClients(db, ids, { ...q, search: q.search || q.name });
      // A child's mother by name, even one above the caller's own company.
      const parentIds = [...new Set(rows.flatMap((row) => (row.parentId ? [row.parentId] : [])))];
      const parents = new Map((await clientsIn(db, parentIds)).map((p) => [p.id, p.name]));
      return c.json({
        clients: rows.map((row) => ({
          ...toCustomer(row),
          motherCompanyName: row.parentId ? (parents.get(row.parentId) ?? null) : null,
        })),
        page: q.page,
        limit: q.limit,
        total,
      });
    },
  );

  app.post(
    '/',
    describeRoute({
      tags: ['Clientes'],
      summary: 'Criar cliente (filho da empresa do usuário ou de um descendente)',
      responses: { 201: one[200] },
    }),
    requirePermission('CrudCompany'),
    validate('json', CustomerCreateSchema),
    async (c) => {
      const input = c.req.valid('json');
      refuseOtherKindDocument(input.personKind, input);
      const parent = await visibleClient(c, deps, input.motherCompanyId ?? c.var.user.clientId);
      const values = toValues(input, parent.id);
      if (await documentTaken(db, values.document))
        throw new HttpError(409, 'CONFLICT', DUPLICATE_DOCUMENT);
      const row = await db.transaction(async (tx) => {
        const created = await insertClient(tx, values);
        await recordChange(tx, c, deps, {
          entity: 'customer',
          clientId: created.id,
          entityId: created.id,
          summary: created.name,
          after: created,
        });
        return created;
      });
      deps.log.info('customer created', { clientId: row.id, by: c.var.user.id });
      return c.json(toCustomer(row), 201);
    },
  );

  app.get(
    '/motherCompany/:id',
    describeRoute({
      tags: ['Clientes'],
      summary: 'A empresa-mãe com os seus clientes aninhados',
      responses: tree,
    }),
    validate('param', IdParam),
    async (c) => {
      const mother = await visibleClient(c, deps, c.req.valid('param').id);
      const rows = await clientsIn(db, await subtreeIds(db, mother.id));
      return c.json(buildTree(mother.id, rows));
    },
  );

  app.get(
    '/motherCompanyPagineted/:id',
    describeRoute({
      tags: ['Clientes'],
      summary: 'Clientes descendentes de uma empresa-mãe, paginados',
      responses: descendantsPage,
    }),
    validate('param', IdParam),
    validate('query', MotherCompanyPageQuerySchema),
    async (c) => {
      const mother = await visibleClient(c, deps, c.req.valid('param').id);
      const q = c.req.valid('query');
      const ids = (await subtreeIds(db, mother.id)).filter((id) => id !== mother.id);
      const { rows, total } = await listClients(db, ids, {
        search: q.search || q.name,
        page: q.page,
        limit: q.limit,
        sort: 'name',
        order: 'asc',
      });
      return c.json({
        clients: rows.map((row) => toCustomer(row)),
        page: q.page,
        limit: q.limit,
        total,
      });
    },
  );

  app.get(
    '/:id',
    describeRoute({
      tags: ['Clientes'],
      summary: 'Um cliente, com os seus filhos',
      responses: tree,
    }),
    validate('param', IdParam),
    async (c) => {
      const row = await visibleClient(c, deps, c.req.valid('param').id);
      const visible = await customerScope(c, deps);
      const rows = await clientsIn(
        db,
        (await subtreeIds(db, row.id)).filter((id) => visible.includes(id)),
      );
      return c.json(buildTree(row.id, rows));
    },
  );

  app.patch(
    '/:id',
    describeRoute({ tags: ['Clientes'], summary: 'Alterar cliente', responses: one }),
    requirePermission('CrudCompany'),
    validate('param', IdParam),
    validate('json', CustomerUpdateSchema),
    async (c) => {
      const row = await visibleClient(c, deps, c.req.valid('param').id);
      const patch = c.req.valid('json');
      const current = toInput(row);
      // The kind's own document is kept from the merge; the other one sent is a mistake.
      refuseOtherKindDocument(patch.personKind ?? current.personKind, patch);
      const merged = v.safeParse(CustomerCreateSchema, {
        ...current,
        ...withoutNulls(patch),
        address: { ...current.address, ...withoutNulls(patch.address ?? {}) },
      });
      if (!merged.success) {
        const issues = flattenIssues(merged.issues);
        throw badRequest(`Requisição inválida: ${issues[0]?.path}: ${issues[0]?.message}`, issues);
      }
      const own = row.id === c.var.user.clientId;
      if (own && merged.output.active === false)
        throw badRequest('Você não pode desativar a sua própria empresa');
      let parentId = row.parentId;
      if (patch.motherCompanyId !== undefined && patch.motherCompanyId !== row.parentId) {
        if (own) throw badRequest('Você não pode mover a sua própria empresa');
        const parent = await visibleClient(c, deps, patch.motherCompanyId);
        if ((await subtreeIds(db, row.id)).includes(parent.id)) {
          throw badRequest('Um cliente não pode ficar abaixo de si mesmo ou de um descendente');
        }
        parentId = parent.id;
      }
      const values = toValues(merged.output, parentId);
      if (await documentTaken(db, values.document, row.id))
        throw new HttpError(409, 'CONFLICT', DUPLICATE_DOCUMENT);
      const updated = await db.transaction(async (tx) => {
        const after = await updateClient(tx, row.id, values);
        if (after)
          await recordChange(tx, c, deps, {
            entity: 'customer',
            clientId: row.id,
            entityId: row.id,
            summary: after.name,
            before: row,
            after,
          });
        return after;
      });
      if (!updated) throw new HttpError(404, 'NOT_FOUND', CLIENT_NOT_FOUND);
      if (!updated.active)
        for (const id of await userIdsOfClient(db, row.id)) await revokeUserTokens(db, id);
      return c.json(toCustomer(updated));
    },
  );

  app.delete(
    '/:id',
    describeRoute({
      tags: ['Clientes'],
      summary: 'Cancelar cliente (exclusão lógica)',
      responses: {
        200: {
          description: 'Cancelado',
          content: { 'application/json': { schema: resolver(MessageSchema) } },
        },
      },
    }),
    requirePermission('CrudCompany'),
    validate('param', IdParam),
    async (c) => {
      const row = await visibleClient(c, deps, c.req.valid('param').id);
      if (row.id === c.var.user.clientId)
        throw badRequest('Você não pode remover a sua própria empresa');
      const children = await activeChildren(db, row.id);
      if (children > 0) {
        const what =
          children === 1 ? '1 cliente filho ativo' : `${children} clientes filhos ativos`;
        throw new HttpError(
          409,
          'CONFLICT',
          `Este cliente tem ${what}. Remova ou mova os filhos antes.`,
        );
      }
      const vehicles = await liveVehiclesOfClient(db, row.id);
      if (vehicles > 0) {
        const what = vehicles === 1 ? '1 veículo ativo' : `${vehicles} veículos ativos`;
        throw new HttpError(
          409,
          'CONFLICT',
          `Este cliente tem ${what}. Remova ou transfira os veículos antes.`,
        );
      }
      await db.transaction(async (tx) => {
        await cancelClient(tx, row.id);
        await recordChange(tx, c, deps, {
          entity: 'customer',
          clientId: row.id,
          entityId: row.id,
          summary: row.name,
          before: row,
        });
      });
      for (const id of await userIdsOfClient(db, row.id)) await revokeUserTokens(db, id);
      deps.log.info('customer cancelled', { clientId: row.id, by: c.var.user.id });
      return c.json({ message: 'Cliente removido.' });
    },
  );

  return app;
}
