/**
 * Custos da frota: per vehicle and São Paulo month, fuel, maintenance, other expenses, total,
 * km driven and cost per km, as JSON for the screen and as a PDF or XLSX file.
 */
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import {
  FleetCostFileQuerySchema,
  FleetCostListSchema,
  FleetCostQuerySchema,
} from '../../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { download } from '../../platform/http/download';
import { validate } from '../../platform/http/validate';
import { fleetCostDocument, fleetCosts } from '../../reports/costs';
import { renderReport } from '../../reports/files/render';
import { clientName } from '../../reports/queries/report-files';
import { clientsWithin } from '../../tenancy/scope';

export function fleetCostRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));
  app.get(
    '/',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Custos da frota por veículo e mês',
      responses: {
        200: {
          description: 'Linhas e totais',
          content: { 'application/json': { schema: resolver(FleetCostListSchema) } },
        },
      },
    }),
    validate('query', FleetCostQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const clientIds = await clientsWithin(c, deps, q.clientId);
      // A visitor sees only linked vehicles; the company's costs are none of theirs.
      if (c.var.user.role === 'VISITOR') return c.json(await fleetCosts(db, [], q));
      return c.json(await fleetCosts(db, clientIds, q));
    },
  );
  app.get(
    '/file',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Custos da frota por veículo e mês (PDF ou XLSX)',
      responses: { 200: { description: 'Arquivo' } },
    }),
    validate('query', FleetCostFileQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const clientIds = await clientsWithin(c, deps, q.clientId);
      const costs = await fleetCosts(db, c.var.user.role === 'VISITOR' ? [] : clientIds, q);
      const doc = fleetCostDocument(
        costs,
        await clientName(db, q.clientId),
        q.from,
        q.to,
        new Date(),
      );
      const file = await renderReport(doc, q.format);
      return download(file, () => void file.remove());
    },
  );
  return app;
}
