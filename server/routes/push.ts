/** SPEC §7: PUT registros/push/subscribe-token and unsubscribe-token {token}. */
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import { MessageSchema, PushTokenRequestSchema } from '../../src/contract';
import { type AuthEnv, requireAuth } from '../auth/middleware';
import { subscribePushToken, unsubscribePushToken } from '../db/push';
import type { Deps } from '../deps';
import { validate } from '../http/validate';

const ok = {
  200: {
    description: 'Feito',
    content: { 'application/json': { schema: resolver(MessageSchema) } },
  },
};

export function pushRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps));

  app.put(
    '/subscribe-token',
    describeRoute({
      tags: ['Push'],
      summary: 'Registrar o token de notificações deste navegador',
      responses: ok,
    }),
    validate('json', PushTokenRequestSchema),
    async (c) => {
      await subscribePushToken(db, c.var.user.id, c.req.valid('json').token);
      return c.json({ message: 'Notificações ativadas neste dispositivo.' });
    },
  );

  app.put(
    '/unsubscribe-token',
    describeRoute({
      tags: ['Push'],
      summary: 'Remover o token de notificações deste navegador',
      responses: ok,
    }),
    validate('json', PushTokenRequestSchema),
    async (c) => {
      await unsubscribePushToken(db, c.var.user.id, c.req.valid('json').token);
      return c.json({ message: 'Notificações desativadas neste dispositivo.' });
    },
  );
  return app;
}
