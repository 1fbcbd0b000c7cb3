/**
 * GET /metrics: this process's figures for Prometheus (server/platform/metrics.ts). Off (404)
 * without METRICS_TOKEN; with it, the scraper sends `Authorization: Bearer <METRICS_TOKEN>`.
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { Config } from './config';
import { HttpError, unauthorized } from './http/errors';
import { bearerMatches } from './http/secrets';
import type { Metrics } from './metrics';

/** Takes only what it reads: the plumbing never reaches up to the rooms' services. */
export function metricsRoutes(deps: { config: Pick<Config, 'metricsToken'>; metrics: Metrics }) {
  const app = new Hono();
  app.get(
    '/',
    describeRoute({
      tags: ['Sistema'],
      summary: 'Números deste processo no formato do Prometheus (Bearer METRICS_TOKEN)',
      responses: {
        200: { description: 'Texto no formato de exposição do Prometheus' },
        401: { description: 'Token ausente ou inválido' },
        404: { description: 'Métricas desligadas (METRICS_TOKEN não definido)' },
      },
    }),
    (c) => {
      const token = deps.config.metricsToken;
      if (!token) throw new HttpError(404, 'NOT_FOUND', 'Recurso não encontrado');
      if (!bearerMatches(c.req.header('authorization'), token))
        throw unauthorized('Token de métricas inválido');
      c.header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
      c.header('Cache-Control', 'no-store');
      return c.body(deps.metrics.render());
    },
  );
  return app;
}
