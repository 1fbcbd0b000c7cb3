/** SPEC §7: GET registros/autocomplete/cep/{cep}, through the configured CEP service. */
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import { CepResultSchema, CepSchema } from '../../../src/contract';
import * as o from '../../../src/contract/objects';
import { type AuthEnv, requireAuth } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { validate } from '../../platform/http/validate';

export function autocompleteRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps));
  app.get(
    '/cep/:cep',
    describeRoute({
      tags: ['Endereço'],
      summary: 'Endereço de um CEP',
      responses: {
        200: {
          description: 'Endereço',
          content: { 'application/json': { schema: resolver(CepResultSchema) } },
        },
      },
    }),
    validate('param', o.object({ cep: CepSchema })),
    async (c) => c.json(await deps.cep.lookup(c.req.valid('param').cep)),
  );
  return app;
}
