/**
 * SPEC §7 automated reports: `registros/crud-reports-processor` (GET list sortable by name,
 * reportType, createdAt, updatedAt; POST) and `…/{id}` (GET, PUT, DELETE), with the wire shape
 * of src/contract/report-files.ts; and `…/{id}/send`, the screen's 'Enviar agora'. A rule
 * belongs to a customer the caller may see; its vehicles and drivers must be ones the caller
 * may see in that customer's tree (else 404, as everywhere).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import type * as v from 'valibot';
import {
  type AutoReportRule,
  AutoReportRuleInputSchema,
  AutoReportRulePageSchema,
  AutoReportRuleQuerySchema,
  AutoReportRuleSchema,
  AutoReportRuleUpdateSchema,
  isDriverReport,
  MessageSchema,
  type ReportType,
} from '../../../src/contract';
import { hasPermission } from '../../../src/contract/permissions';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import { recordChange } from '../../audit/record';
import type { Deps } from '../../deps';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import { IdParam } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { subtreeIds } from '../../tenancy/queries';
import { customerScope, visibleClient } from '../../tenancy/scope';
import {
  type AutoReportRuleRow,
  deleteRule,
  insertRule,
  listRules,
  ruleById,
  updateRule,
} from '../queries/report-files';
import { visibleDrivers, visibleVehicles } from '../scope';

const RULE_NOT_FOUND = 'Relatório automatizado não encontrado';

export function ruleOut(row: AutoReportRuleRow): AutoReportRule {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    reportType: row.reportType as ReportType,
    format: row.format === 'pdf' ? 'pdf' : 'excel',
    periodicity: row.periodicity as AutoReportRule['periodicity'],
    vehicleIds: row.vehicleIds,
    driverIds: row.driverIds,
    emailDelivery: row.emailDelivery,
    sendHour: row.sendHour,
    weekday: row.weekday,
    monthDay: row.monthDay,
    active: row.active,
    lastRun: row.lastRun ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const json = (schema: v.GenericSchema, description: string, status = 200) =>
  describeRoute({
    tags: ['Relatórios Automatizados'],
    summary: description,
    responses: {
      [status]: { description, content: { 'application/json': { schema: resolver(schema) } } },
    },
  });

type Ctx = Context<AuthEnv>;

export function autoReportRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

  /** The vehicles and drivers of a rule, checked against the caller and the rule's customer. */
  async function checkSubjects(
    c: Ctx,
    clientId: string,
    rule: { reportType: ReportType; vehicleIds: string[]; driverIds: string[] },
  ) {
    const drivers = isDriverReport(rule.reportType);
    const vehicleIds = drivers ? [] : rule.vehicleIds;
    const driverIds = drivers ? rule.driverIds : [];
    if (drivers && driverIds.length === 0) throw badRequest('Escolha ao menos um motorista');
    if (!drivers && vehicleIds.length === 0) throw badRequest('Escolha ao menos um veículo');
    const tree = new Set(await subtreeIds(db, clientId));
    if (vehicleIds.length) {
      const rows = await visibleVehicles(c, deps, vehicleIds);
      if (rows.some((r) => !tree.has(r.clientId))) throw notFound('Veículo não encontrado');
    }
    if (driverIds.length) {
      const rows = await visibleDrivers(c, deps, driverIds);
      if (rows.some((r) => !tree.has(r.clientId))) throw notFound('Motorista não encontrado');
    }
    return { vehicleIds, driverIds };
  }

  /**
   * The customers whose automated reports the caller sees: none for a Terceiro, who has no
   * report screen (a rule names the company's vehicles, drivers and recipients).
   */
  async function ruleScope(c: Ctx): Promise<string[]> {
    return c.var.user.role === 'VISITOR' ? [] : customerScope(c, deps);
  }

  async function visibleRule(c: Ctx, id: string) {
    const row = await ruleById(db, id, await ruleScope(c));
    if (!row) throw notFound(RULE_NOT_FOUND);
    return row;
  }

  app.get(
    '/',
    json(
      AutoReportRulePageSchema,
      'Relatórios automatizados (ordenáveis por name, reportType, createdAt, updatedAt)',
    ),
    validate('query', AutoReportRuleQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      let clientIds = await ruleScope(c);
      if (q.clientId) {
        await visibleClient(c, deps, q.clientId);
        const visible = new Set(clientIds);
        clientIds = (await subtreeIds(db, q.clientId)).filter((id) => visible.has(id));
      }
      const { rows, total } = await listRules(db, { ...q, clientIds });
      return c.json({ rules: rows.map(ruleOut), page: q.page, limit: q.limit, total });
    },
  );

  app.post(
    '/',
    json(AutoReportRuleSchema, 'Criar um relatório automatizado', 201),
    requirePermission('create_resources'),
    validate('json', AutoReportRuleInputSchema),
    async (c) => {
      const input = c.req.valid('json');
      const client = await visibleClient(c, deps, input.clientId ?? c.var.user.clientId);
      const subjects = await checkSubjects(c, client.id, input);
      const row = await db.transaction(async (tx) => {
        const created = await insertRule(tx, {
          ...input,
          ...subjects,
          clientId: client.id,
          createdBy: c.var.user.id,
          emailDelivery: input.emailDelivery.trim(),
        });
        await recordChange(tx, c, deps, {
          entity: 'report_rule',
          clientId: created.clientId,
          entityId: created.id,
          summary: created.name,
          after: created,
        });
        return created;
      });
      return c.json(ruleOut(row), 201);
    },
  );

  app.get(
    '/:id',
    json(AutoReportRuleSchema, 'Um relatório automatizado'),
    validate('param', IdParam),
    async (c) => c.json(ruleOut(await visibleRule(c, c.req.valid('param').id))),
  );

  app.put(
    '/:id',
    json(AutoReportRuleSchema, 'Alterar um relatório automatizado'),
    requirePermission('create_resources'),
    validate('param', IdParam),
    validate('json', AutoReportRuleUpdateSchema),
    async (c) => {
      const row = await visibleRule(c, c.req.valid('param').id);
      const input = c.req.valid('json');
      const merged = {
        reportType: (input.reportType ?? row.reportType) as ReportType,
        vehicleIds: input.vehicleIds ?? row.vehicleIds,
        driverIds: input.driverIds ?? row.driverIds,
      };
      const subjects = await checkSubjects(c, row.clientId, merged);
      const updated = await db.transaction(async (tx) => {
        const after = await updateRule(tx, row.id, {
          ...input,
          ...subjects,
          ...(input.emailDelivery !== undefined
            ? { emailDelivery: input.emailDelivery.trim() }
            : {}),
        });
        if (after)
          await recordChange(tx, c, deps, {
            entity: 'report_rule',
            clientId: after.clientId,
            entityId: after.id,
            summary: after.name,
            before: row,
            after,
          });
        return after;
      });
      if (!updated) throw notFound(RULE_NOT_FOUND);
      return c.json(ruleOut(updated));
    },
  );

  app.delete(
    '/:id',
    json(MessageSchema, 'Remover um relatório automatizado'),
    validate('param', IdParam),
    async (c) => {
      const row = await visibleRule(c, c.req.valid('param').id);
      if (!hasPermission(c.var.user.role, 'delete_resources') && row.createdBy !== c.var.user.id)
        throw forbidden();
      await db.transaction(async (tx) => {
        await deleteRule(tx, row.id);
        await recordChange(tx, c, deps, {
          entity: 'report_rule',
          clientId: row.clientId,
          entityId: row.id,
          summary: row.name,
          before: row,
        });
      });
      return c.json({ message: 'Relatório automatizado removido.' });
    },
  );

  app.post(
    '/:id/send',
    json(AutoReportRuleSchema, "'Enviar agora': envia o último período completo já"),
    requirePermission('create_resources'),
    validate('param', IdParam),
    async (c) => {
      const row = await visibleRule(c, c.req.valid('param').id);
      await deps.autoReports.sendNow(row.id);
      const after = await ruleById(db, row.id);
      return c.json(ruleOut(after ?? row));
    },
  );

  return app;
}
