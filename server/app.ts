/**
 * The Hono application: API routers under the spec's prefixes, the OpenAPI document, the
 * health routes and, last, the built PWA. Tests drive it in-process with `app.request()`.
 */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { describeRoute, openAPIRouteHandler } from 'hono-openapi';
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_MB,
  MAX_ATTACHMENTS_PER_UPLOAD,
} from '../src/contract/attachments';
import { authRoutes } from './accounts/routes/auth';
import { userRoutes } from './accounts/routes/users';
import { alertRuleRoutes } from './alerts/routes/alert-rules';
import { alertRoutes } from './alerts/routes/alerts';
import { pushRoutes, workerPushConfigScript } from './alerts/routes/push';
import { auditRoutes } from './audit/routes';
import {
  deviceCommandRoutes,
  registerRoutes,
  trackerActivationRoutes,
  vehicleCommandRoutes,
} from './commands/routes';
import { dashboardRoutes } from './dashboard/routes';
import type { Deps } from './deps';
import { geofenceRoutes } from './geofences/routes';
import { flespiStreamRoutes } from './ingest/flespi';
import { deviceSettingsRoutes, unknownDeviceRoutes } from './inventory/routes/devices';
import { imageRoutes, MAX_IMAGE_BYTES, MAX_IMAGES_PER_VEHICLE } from './inventory/routes/images';
import {
  driverRoutes,
  fleetRoutes,
  simCardRoutes,
  trackerRoutes,
  vehicleRoutes,
} from './inventory/routes/inventory';
import { plateRoutes } from './inventory/routes/plates';
import { trackerTypeRoutes } from './inventory/routes/tracker-types';
import { assignmentRoutes } from './jornada/routes/assignments';
import {
  driverLinkRoutes,
  driverPageRoutes,
  driverReportRoutes,
} from './jornada/routes/driver-page';
import { jornadaRoutes } from './jornada/routes/jornada';
import { mapConfigRoutes, mapFileRoutes } from './map/routes';
import { invoiceRoutes, paymentRoutes, supportRoutes } from './payments/routes';
import type { Config } from './platform/config';
import { compressAnswers } from './platform/http/compress';
import {
  errorBody,
  handleError,
  UNAVAILABLE,
  UNAVAILABLE_RETRY_SECONDS,
} from './platform/http/errors';
import { loggablePath } from './platform/http/redact';
import { securityHeaders } from './platform/http/security';
import { metricsRoutes } from './platform/metrics-routes';
import { staticRoutes } from './platform/static';
import { realtimeRoutes } from './realtime/routes';
import { autoReportRoutes } from './reports/routes/auto-reports';
import { reportFileRoutes, reportLinkRoutes } from './reports/routes/report-files';
import { reportRoutes } from './reports/routes/reports';
import { tempAccessRoutes, temporaryUserRoutes, visitorRoutes } from './sharing/routes';
import { autocompleteRoutes } from './tenancy/routes/cep';
import { clientRoutes } from './tenancy/routes/clients';
import { attachmentRoutes } from './upkeep/routes/attachments';
import { documentRoutes, expiringRoutes } from './upkeep/routes/documents';
import { fleetCostRoutes } from './upkeep/routes/fleet-costs';
import {
  maintenanceDueRoutes,
  maintenancePlanRoutes,
  serviceRecordRoutes,
} from './upkeep/routes/maintenance';
import {
  consumptionRoutes,
  expenseRoutes,
  refuelImportRoutes,
  refuelRoutes,
} from './upkeep/routes/refuels';
import { VERSION } from './version';

export const API_PREFIXES = ['/registros', '/tech-integracao/v1', '/registro'] as const;

/**
 * Bodies of API calls: 1 MB, except vehicle photos (each up to 5 MB, a few at once) and
 * attachments of records (each up to 10 MB, a few at once).
 */
export const BODY_LIMIT = 1024 * 1024;
const UPLOAD_PATH = '/registros/upload-images/';
const UPLOAD_LIMIT = MAX_IMAGE_BYTES * MAX_IMAGES_PER_VEHICLE + BODY_LIMIT;
const ATTACHMENT_PATH = '/registros/attachments/';
const ATTACHMENT_LIMIT = MAX_ATTACHMENT_BYTES * MAX_ATTACHMENTS_PER_UPLOAD + BODY_LIMIT;

const tooLarge = bodyLimit({
  maxSize: BODY_LIMIT,
  onError: (c) => c.json(errorBody(413, 'BAD_REQUEST', 'Requisição grande demais'), 413),
});
const uploadTooLarge = bodyLimit({
  maxSize: UPLOAD_LIMIT,
  onError: (c) =>
    c.json(
      errorBody(
        413,
        'BAD_REQUEST',
        `Envio grande demais: até ${MAX_IMAGES_PER_VEHICLE} imagens de até 5 MB cada`,
      ),
      413,
    ),
});

const attachmentTooLarge = bodyLimit({
  maxSize: ATTACHMENT_LIMIT,
  onError: (c) =>
    c.json(
      errorBody(
        413,
        'BAD_REQUEST',
        `Envio grande demais: até ${MAX_ATTACHMENTS_PER_UPLOAD} arquivos de até ${MAX_ATTACHMENT_MB} MB cada por vez`,
      ),
      413,
    ),
});

export function createApp(deps: Deps, options: { serveStatic?: boolean } = {}) {
  const app = new Hono();
  app.onError(handleError(deps.log, deps.database.health));
  app.use('*', securityHeaders(deps.config.csp));

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    if (!API_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))) return;
    deps.log.debug('request', {
      method: c.req.method,
      path: loggablePath(c.req.path),
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });
  for (const prefix of API_PREFIXES) {
    app.use(`${prefix}/*`, (c, next) =>
      c.req.path.startsWith(UPLOAD_PATH)
        ? uploadTooLarge(c, next)
        : c.req.path.startsWith(ATTACHMENT_PATH)
          ? attachmentTooLarge(c, next)
          : tooLarge(c, next),
    );
    app.use(`${prefix}/*`, async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    });
    app.use(`${prefix}/*`, compressAnswers());
  }

  const registros = new Hono();
  registros.route('/auth', authRoutes(deps));
  registros.route('/audit', auditRoutes(deps));
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
  registros.route('/device-settings', deviceSettingsRoutes(deps));
  registros.route('/unknown-devices', unknownDeviceRoutes(deps));
  registros.route('/eligo', plateRoutes(deps));
  registros.route('/real-time', realtimeRoutes(deps));
  registros.route('/visitor-role', visitorRoutes(deps));
  registros.route('/temporaryUser', temporaryUserRoutes(deps));
  registros.route('/temp-access', tempAccessRoutes(deps));
  registros.route('/reports', reportRoutes(deps));
  // Report files (downloads, e-mail delivery), their links and automated reports.
  registros.route('/reports', reportFileRoutes(deps));
  registros.route('/report-files', reportLinkRoutes(deps));
  registros.route('/crud-reports-processor', autoReportRoutes(deps));
  registros.route('/map', mapConfigRoutes(deps));
  registros.route('/geofence', geofenceRoutes(deps));
  registros.route('/alert-rules', alertRuleRoutes(deps));
  registros.route('/alerts', alertRoutes(deps));
  // Dashboard, upkeep, invoices and payments, support contact.
  registros.route('/dashboard', dashboardRoutes(deps));
  registros.route('/maintenance-plans', maintenancePlanRoutes(deps));
  registros.route('/service-records', serviceRecordRoutes(deps));
  registros.route('/maintenance-due', maintenanceDueRoutes(deps));
  registros.route('/documents', documentRoutes(deps));
  registros.route('/attachments', attachmentRoutes(deps));
  // The drivers' own page: its links, what it sends, and the problems drivers report.
  registros.route('/driver-links', driverLinkRoutes(deps));
  registros.route('/driver-assignments', assignmentRoutes(deps));
  registros.route('/driver-reports', driverReportRoutes(deps));
  registros.route('/driver-page', driverPageRoutes(deps));
  registros.route('/documents-expiring', expiringRoutes(deps));
  registros.route('/jornada', jornadaRoutes(deps));
  registros.route('/refuels', refuelRoutes(deps));
  registros.route('/refuels-import', refuelImportRoutes(deps));
  registros.route('/refuels-consumption', consumptionRoutes(deps));
  registros.route('/expenses', expenseRoutes(deps));
  registros.route('/fleet-costs', fleetCostRoutes(deps));
  registros.route('/payments', paymentRoutes(deps));
  registros.route('/invoices', invoiceRoutes(deps));
  registros.route('/support', supportRoutes(deps));
  registros.route('/', imageRoutes(deps));
  app.route('/registros', registros);

  const integration = new Hono();
  integration.route('/fleets', fleetRoutes(deps));
  integration.route('/register', registerRoutes(deps));
  integration.route('/flespi', flespiStreamRoutes(deps));
  app.route('/tech-integracao/v1', integration);
  app.route('/registro/commands', deviceCommandRoutes(deps));

  // The worker's push configuration (importScripts at its start): see alerts/routes/push.ts.
  app.get('/push-config.js', (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    return c.body(workerPushConfigScript(deps));
  });

  app.route('/metrics', metricsRoutes(deps));

  healthRoutes(app, deps);

  app.get(
    '/registros/openapi.json',
    describeRoute({ tags: ['Sistema'], summary: 'Este documento OpenAPI' }),
    openAPIRouteHandler(app, {
      // The document lists itself too: every route of the app is in it (the fuzz walk checks).
      excludeStaticFile: false,
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
  app.route('/map', mapFileRoutes(deps));
  if (options.serveStatic !== false) app.route('/', staticRoutes(deps.config.staticDir));
  return app;
}

/** How long the readiness check's query may take before the database counts as not answering. */
const READY_QUERY_MS = 2000;

/**
 * Health for load balancers and supervisors, on separate paths:
 * - `/health/live`: the process works (its event loop answers). A supervisor restarts the
 *   process when this fails; a database away does not fail it (a restart would not help).
 * - `/health/ready`: the process should get traffic: started (migrations done), not
 *   stopping, and the database answering a query now. 503 otherwise, with the reason.
 * - `/health`: the same as `/health/ready` (kept for existing checks).
 */
function healthRoutes(app: Hono, deps: Deps) {
  app.get(
    '/health/live',
    describeRoute({ tags: ['Sistema'], summary: 'Vivacidade: o processo responde' }),
    (c) => c.json({ status: 'ok', version: VERSION }),
  );
  const ready = async (c: Context) => {
    const database = deps.database.kind;
    const unready = (status: 'stopping' | 'database_unreachable') => {
      c.header('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
      return c.json({ status, version: VERSION, database }, 503);
    };
    if (deps.lifecycle.stopping()) return unready('stopping');
    if (!deps.database.health.up()) return unready('database_unreachable');
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        deps.database.db.execute('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('the database did not answer in time')),
            READY_QUERY_MS,
          );
        }),
      ]);
    } catch (err) {
      deps.database.health.report(err);
      return unready('database_unreachable');
    } finally {
      clearTimeout(timer);
    }
    return c.json({ status: 'ok', version: VERSION, database });
  };
  app.get(
    '/health/ready',
    describeRoute({
      tags: ['Sistema'],
      summary: 'Prontidão: iniciado, sem encerrar e com o banco respondendo (senão 503)',
    }),
    ready,
  );
  app.get(
    '/health',
    describeRoute({ tags: ['Sistema'], summary: 'Saúde do servidor (o mesmo que /health/ready)' }),
    ready,
  );
}

/**
 * What the process answers while it starts (the database reached, migrated and seeded):
 * alive, not ready, and 503 for everything else.
 */
export function startingApp(config: Pick<Config, 'csp'>) {
  const app = new Hono();
  app.use('*', securityHeaders(config.csp));
  app.get('/health/live', (c) => c.json({ status: 'ok', version: VERSION }));
  app.all('*', (c) => {
    c.header('Retry-After', String(UNAVAILABLE_RETRY_SECONDS));
    if (c.req.path === '/health' || c.req.path === '/health/ready')
      return c.json({ status: 'starting', version: VERSION }, 503);
    return c.json(errorBody(503, 'SERVER_ERROR', UNAVAILABLE), 503);
  });
  return app;
}
