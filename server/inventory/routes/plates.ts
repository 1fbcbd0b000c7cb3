/** SPEC §7: GET registros/eligo/consultarPlaca?placa= through the configured provider. */
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import { PlateRecordSchema, PlateSchema } from '../../../src/contract';
import * as o from '../../../src/contract/objects';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { validate } from '../../platform/http/validate';

export function plateRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('create_resources'));
  app.get(
    '/consultarPlaca',
    describeRoute({
      tags: ['Veículos'],
      summary: 'Consultar dados de um veículo pela placa',
      responses: {
        200: {
          description: 'Registros da placa',
          content: { 'application/json': { schema: resolver(v.array(PlateRecordSchema)) } },
        },
      },
    }),
    validate('query', o.strictObject({ placa: PlateSchema })),
    async (c) => c.json(await deps.plates.lookup(c.req.valid('query').placa)),
  );
  return app;
}
