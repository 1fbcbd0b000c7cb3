/**
 * The Hono application: API routers under the spec's prefixes, the OpenAPI document, the
 * health route and, last, the built PWA. Tests drive it in-process with `app.request()`.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { openAPIRouteHandler } from 'hono-openapi';
import type { Deps } from './deps';
import { errorBody, handleError } from './http/errors';
import { flespiStreamRoutes } from './ingest/flespi';
import { authRoutes } from './routes/auth';
import { autocompleteRoutes } from './routes/autocomplete';
import { clientRoutes } from './routes/clients';
import {
  deviceCommandRoutes,
  registerRoutes,
  trackerActivationRoutes,
  vehicleCommandRoutes,
} from './routes/commands';
import { imageRoutes } from './routes/images';
import {
  driverRoutes,
  fleetRoutes,
  simCardRoutes,
  trackerRoutes,
  vehicleRoutes,
} from './routes/inventory';
import { plateRoutes } from './routes/plates';
import { pushRoutes } from './routes/push';
import { realtimeRoutes } from './routes/realtime';
import { tempAccessRoutes, temporaryUserRoutes, visitorRoutes } from './routes/sharing';
import { trackerTypeRoutes } from './routes/tracker-types';
import { userRoutes } from './routes/users';
import { staticRoutes } from './static';
import { VERSION } from './version';

export const API_PREFIXES = ['/registros', '/tech-integracao/v1', '/registro'] as const;

export function createApp(deps: Deps, options: { serveStatic?: boolean } = {}) {
  const app = new Hono();
  app.onError(handleError(deps.log));

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    if (!API_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))) return;
    deps.log.debug('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });
  for (const prefix of API_PREFIXES) {
    app.use(
      `${prefix}/*`,
      bodyLimit({
        maxSize: 1024 * 1024,
        onError: (c) => c.json(errorBody(413, 'BAD_REQUEST', 'Requisição grande demais'), 413),
      }),
    );
    app.use(`${prefix}/*`, async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    });
  }

  const registros = new Hono();
  registros.route('/auth', authRoutes(deps));
  registros.route('/push', pushRoutes(deps));
  registros.route('/client', clientRoutes(deps));
  registros.route('/user', userRoutes(deps));
  registros.route('/autocomplete', autocompleteRoutes(deps));
  registros.route('/vehicle', vehicleRoutes(deps));
  registros.route('/driver', driverRoutes(deps));
  registros.route('/simcard', simCardRoutes(deps));
  registros.route('/tracker', trackerActivationRoutes(deps));
  registros.route('/tracker', trackerRoutes(deps));
  registros.route('/commands', vehicleCommandRoutes(deps));
  registros.route('/tracker-types', trackerTypeRoutes(deps));
  registros.route('/eligo', plateRoutes(deps));
  registros.route('/real-time', realtimeRoutes(deps));
  registros.route('/visitor-role', visitorRoutes(deps));
  registros.route('/temporaryUser', temporaryUserRoutes(deps));
  registros.route('/temp-access', tempAccessRoutes(deps));
  registros.route('/', imageRoutes(deps));
  app.route('/registros', registros);

  const integration = new Hono();
  integration.route('/fleets', fleetRoutes(deps));
  integration.route('/register', registerRoutes(deps));
  integration.route('/flespi', flespiStreamRoutes(deps));
  app.route('/tech-integracao/v1', integration);
  app.route('/registro/commands', deviceCommandRoutes(deps));

  app.get('/health', async (c) => {
    await deps.database.db.execute('select 1');
    return c.json({ status: 'ok', version: VERSION, database: deps.database.kind });
  });

  app.get(
    '/registros/openapi.json',
    openAPIRouteHandler(app, {
      documentation: {
        info: {
          title: 'Rastro API',
          version: VERSION,
          description: 'API do Rastro: rastreamento de veículos e gestão de frotas.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
    }),
  );

  for (const prefix of API_PREFIXES) {
    app.all(`${prefix}/*`, (c) =>
      c.json(errorBody(404, 'NOT_FOUND', 'Recurso não encontrado'), 404),
    );
  }
  if (options.serveStatic !== false) app.route('/', staticRoutes(deps.config.staticDir));
  return app;
}
