/**
 * The dashboard (SPEC §7 `registros/dashboard/clients`, `/users`, `/tracker`,
 * `/trackers/activity-by-time-range`; and `/alerts`, `/distance` for its charts): figures over
 * the caller's customer subtree, or the subtree of a customer of it (`clientId`), exactly as
 * the lists they link to count. Needs read_resources; closed to a Terceiro (who sees only
 * linked vehicles, not a company's figures).
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type * as v from 'valibot';
import {
  DashboardActivitySchema,
  DashboardAlertsSchema,
  DashboardClientsSchema,
  DashboardDistanceSchema,
  DashboardQuerySchema,
  DashboardTrackersSchema,
  DashboardUpkeepSchema,
  DashboardUsersSchema,
} from '../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../accounts/auth/middleware';
import { alertScope } from '../alerts/visible';
import type { Deps } from '../deps';
import type { Ctx } from '../owned/mold';
import { forbidden } from '../platform/http/errors';
import { docs } from '../platform/http/openapi';
import { validate } from '../platform/http/validate';
import {
  alertFigures,
  clientCounts,
  distancePerDay,
  trackerActivity,
  trackerCounts,
  upkeepFigures,
  userCounts,
} from './queries';

export function dashboardRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

  async function scope(c: Ctx, clientId: string | undefined): Promise<string[]> {
    if (c.var.user.role === 'VISITOR') throw forbidden();
    return (await alertScope(c, deps, clientId)).clientIds;
  }

  const figure = <T>(
    path: string,
    summary: string,
    schema: v.GenericSchema,
    count: (ids: string[]) => Promise<T>,
  ) =>
    app.get(
      path,
      describeRoute({ tags: ['Dashboard'], summary, responses: { 200: docs(schema, summary) } }),
      validate('query', DashboardQuerySchema),
      async (c) => c.json(await count(await scope(c, c.req.valid('query').clientId))),
    );

  figure('/clients', 'Clientes (total, ativos, inativos)', DashboardClientsSchema, (ids) =>
    clientCounts(db, ids),
  );
  figure('/users', 'Usuários (total, ativos, inativos, por nível)', DashboardUsersSchema, (ids) =>
    userCounts(db, ids),
  );
  figure(
    '/tracker',
    'Rastreadores (ativos, inativos) e veículos por estado agora',
    DashboardTrackersSchema,
    (ids) => trackerCounts(db, ids),
  );
  figure(
    '/trackers/activity-by-time-range',
    'Rastreadores pela última comunicação (última hora, 24 h, 7 dias, 30 dias, mais, nunca), por cliente',
    DashboardActivitySchema,
    (ids) => trackerActivity(db, ids),
  );
  figure(
    '/alerts',
    'Alertas não reconhecidos e alertas por dia e tipo (30 dias)',
    DashboardAlertsSchema,
    (ids) => alertFigures(db, ids),
  );
  figure('/distance', 'Km rodados por dia (30 dias)', DashboardDistanceSchema, (ids) =>
    distancePerDay(db, ids),
  );
  figure(
    '/upkeep',
    'Manutenções vencidas, documentos vencendo em 30 dias e combustível do mês contra o anterior',
    DashboardUpkeepSchema,
    (ids) => upkeepFigures(db, ids),
  );
  return app;
}
