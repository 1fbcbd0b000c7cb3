/**
 * `registros/reports/v2/driving`: the report 'Comportamento do motorista' of a month (JSON),
 * and `v2/download/driving` its XLSX or PDF. Of the caller's company and those below it, or of
 * one of them (`clientId`). A Terceiro sees no drivers: both refuse him.
 */
import type { Context, Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import type * as v from 'valibot';
import { DrivingQuerySchema, DrivingReportSchema, queryInt } from '../../src/contract';
import * as o from '../../src/contract/objects';
import type { AuthEnv } from '../auth/middleware';
import { subtreeIds } from '../db/clients';
import { clientName } from '../db/report-files';
import type { Deps } from '../deps';
import { download } from '../http/download';
import { forbidden, notFound } from '../http/errors';
import { validate } from '../http/validate';
import { drivingReport } from '../reports/driving-report';
import { drivingDocument } from '../reports/files/driving';
import { renderReport } from '../reports/files/render';
import { canSeeClient, visibleClientIds } from '../tenancy';

const NO_DRIVERS = 'Terceiros não veem motoristas';

const QuerySchema = o.strictObject({
  ...DrivingQuerySchema.entries,
  idleMinutes: queryInt(5, 1, 120),
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
    return drivingReport(db, clientIds, q.month, q.idleMinutes);
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
}
