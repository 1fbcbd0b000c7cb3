/**
 * `registros/reports/v2/driving`: the report 'Comportamento do motorista' of a month (JSON),
 * and `v2/download/driving` its XLSX or PDF. Of the caller's company and those below it, or of
 * one of them (`clientId`). A Terceiro sees no drivers: both refuse him.
 *
 * `v2/driving/settings`: the company's weights. Every score of a report is made with the
 * weights of the company it is made for (the one chosen, else the caller's), also those of the
 * companies below it: one ranking compares like with like.
 */
import type { Context, Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import {
  DrivingQuerySchema,
  DrivingReportSchema,
  DrivingSettingsQuerySchema,
  DrivingSettingsSchema,
  DrivingSettingsUpdateSchema,
  queryInt,
} from '../../../src/contract';
import * as o from '../../../src/contract/objects';
import { type AuthEnv, requirePermission } from '../../accounts/auth/middleware';
import { actorOf } from '../../audit/record';
import type { Deps } from '../../deps';
import { download } from '../../platform/http/download';
import { forbidden, notFound } from '../../platform/http/errors';
import { validate } from '../../platform/http/validate';
import { subtreeIds } from '../../tenancy/queries';
import { canSeeClient, visibleClient, visibleClientIds } from '../../tenancy/scope';
import { drivingReport } from '../driving-report';
import { drivingDocument } from '../files/driving';
import { renderReport } from '../files/render';
import { drivingSettingsOf, saveDrivingSettings } from '../queries/driving-settings';
import { clientName } from '../queries/report-files';

const NO_DRIVERS = 'Terceiros não veem motoristas';

const QuerySchema = o.strictObject({
  ...DrivingQuerySchema.entries,
  /** Overrides the company's idling time for this one report. */
  idleMinutes: v.optional(queryInt(5, 1, 120)),
});

export function addDrivingRoutes(app: Hono<AuthEnv>, deps: Deps) {
  const { db } = deps.database;

  async function report(c: Context<AuthEnv>, q: v.InferOutput<typeof QuerySchema>) {
    if (c.var.user.role === 'VISITOR') throw forbidden(NO_DRIVERS);
    let clientIds = await visibleClientIds(c, deps);
    if (q.clientId) {
      if (!(await canSeeClient(c, deps, q.clientId))) throw notFound('Cliente não encontrado');
      const visible = new Set(clientIds);
      clientIds = (await subtreeIds(db, q.clientId)).filter((id) => visible.has(id));
    }
    const settings = await drivingSettingsOf(db, q.clientId ?? c.var.user.clientId);
    return drivingReport(db, clientIds, q.month, {
      weights: settings.weights,
      idleMinutes: q.idleMinutes ?? settings.idleMinutes,
    });
  }

  app.get(
    '/v2/driving',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Comportamento do motorista: eventos, nota e ranking do mês',
      responses: {
        200: {
          description: 'Ranking',
          content: { 'application/json': { schema: resolver(DrivingReportSchema) } },
        },
      },
    }),
    validate('query', QuerySchema),
    async (c) => c.json(await report(c, c.req.valid('query'))),
  );

  app.get(
    '/v2/download/driving',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Comportamento do motorista em XLSX ou PDF',
      responses: { 200: { description: 'O arquivo' } },
    }),
    validate('query', QuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const data = await report(c, q);
      const customer = await clientName(db, q.clientId ?? c.var.user.clientId);
      const file = await renderReport(
        drivingDocument(data, customer, new Date()),
        q.format === 'pdf' ? 'pdf' : 'excel',
      );
      return download(file, () => void file.remove());
    },
  );

  app.get(
    '/v2/driving/settings',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Pesos da nota de direção da empresa (padrões se nunca mudados)',
      responses: {
        200: {
          description: 'Pesos',
          content: { 'application/json': { schema: resolver(DrivingSettingsSchema) } },
        },
      },
    }),
    validate('query', DrivingSettingsQuerySchema),
    async (c) => {
      if (c.var.user.role === 'VISITOR') throw forbidden(NO_DRIVERS);
      const { clientId } = c.req.valid('query');
      await visibleClient(c, deps, clientId);
      return c.json(await drivingSettingsOf(db, clientId));
    },
  );

  app.put(
    '/v2/driving/settings',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Muda os pesos da nota de direção da empresa',
      responses: {
        200: {
          description: 'Pesos',
          content: { 'application/json': { schema: resolver(DrivingSettingsSchema) } },
        },
      },
    }),
    requirePermission('delete_resources'),
    validate('json', DrivingSettingsUpdateSchema),
    async (c) => {
      const body = c.req.valid('json');
      await visibleClient(c, deps, body.clientId);
      // The report cache is keyed by the weights: the next report is made with these.
      return c.json(await saveDrivingSettings(db, actorOf(c, deps), body));
    },
  );
}
