import type { Context } from 'hono';
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import {
  DriversFileQuerySchema,
  FileQuerySchema,
  FileQueuedSchema,
  GeofenceFileQuerySchema,
  HistoryFileQuerySchema,
  REPORT_TYPE_LABELS,
  type ReportType,
  VehicleParamSchema,
  VehiclesFileQuerySchema,
  VehiclesHistoryFileQuerySchema,
} from '../../../src/contract';
import * as o from '../../../src/contract/objects';
import { validateEmailList } from '../../../src/lib/emails';
import { type IntervalKind, reportDay } from '../../../src/lib/report-period';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { download } from '../../platform/http/download';
import { HttpError } from '../../platform/http/errors';
import { validate } from '../../platform/http/validate';
import { visibleClientIds, visibleVehicle } from '../../tenancy/scope';
import { storedAlerts } from '../alerts';
import { hashToken } from '../files/delivery';
import {
  type DocumentContext,
  distanceDocument,
  driversDocument,
  geofenceDocument,
  historyDocument,
  positionsDocument,
  summaryDocument,
  tripsDocument,
} from '../files/documents';
import { geofenceRows } from '../files/geofence-rows';
import type { FileFormat, ReportDocument } from '../files/model';
import { renderReport } from '../files/render';
import { formatDayText } from '../files/text';
import { clientName, linkByHash } from '../queries/report-files';
import { insertReportRequest, type VehicleRow } from '../queries/reports';
import { periodOf, visibleDrivers, visibleGeofenceClients, visibleVehicles } from '../scope';

type Ctx = Context<AuthEnv>;

export const EMAIL_QUEUED = (to: string[]) =>
  `Relatório em preparação: será enviado por e-mail para ${to.join(', ')}.`;

const fileResponses = {
  200: {
    description: 'O arquivo (XLSX, PDF ou KML)',
    content: {
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {},
      'application/pdf': {},
      'application/vnd.google-earth.kml+xml': {},
    },
  },
  202: {
    description: 'deliveryMethod=email: em preparação, enviado por e-mail',
    content: { 'application/json': { schema: resolver(FileQueuedSchema) } },
  },
};
const doc = (summary: string) =>
  describeRoute({ tags: ['Relatórios'], summary, responses: fileResponses });

interface Request {
  /** Recorded in the reports list (SPEC §3 types; geofence files have none there). */
  reportType: ReportType | null;
  format: FileFormat;
  deliveryMethod: 'download' | 'email';
  emails?: string | undefined;
  beginAt: Date;
  endAt: Date;
  vehicleIds?: string[];
  driverIds?: string[];
  build: (ctx: DocumentContext) => Promise<ReportDocument> | ReportDocument;
  customerOf: string;
}

export function reportFileRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

  const context = async (r: Request): Promise<DocumentContext> => ({
    db,
    alerts: storedAlerts,
    customer: await clientName(db, r.customerOf),
    beginAt: r.beginAt,
    endAt: r.endAt,
    generatedAt: new Date(),
  });

  async function answer(c: Ctx, r: Request) {
    const user = c.var.user;
    const label = r.reportType ? REPORT_TYPE_LABELS[r.reportType] : 'Cercas geográficas';
    const name = `${label} de ${formatDayText(reportDay(r.beginAt))} a ${formatDayText(reportDay(r.endAt.getTime() - 1))}`;
    const record = {
      clientId: user.clientId,
      userId: user.id,
      name,
      reportType: r.reportType,
      vehicleIds: r.vehicleIds ?? [],
      driverIds: r.driverIds ?? [],
      beginAt: r.beginAt,
      endAt: r.endAt,
      format: r.format,
      deliveryMethod: r.deliveryMethod,
    };
    if (r.deliveryMethod === 'email') {
      const listed = validateEmailList(r.emails).emails;
      const to = listed.length > 0 ? listed : [user.email];
      const row = r.reportType
        ? await insertReportRequest(db, {
            ...record,
            reportType: r.reportType,
            status: 'pending',
            recipients: to.join(', '),
          })
        : undefined;
      deps.reportFiles.emailInBackground(row?.id, user.clientId, to, r.format, async () =>
        r.build(await context(r)),
      );
      return c.json({ message: EMAIL_QUEUED(to), id: row?.id ?? '' }, 202);
    }
    const file = await renderReport(await r.build(await context(r)), r.format);
    if (r.reportType)
      await insertReportRequest(db, { ...record, reportType: r.reportType, status: 'done' });
    return download(file, () => void file.remove());
  }

  /** One-vehicle downloads. */
  const single = (
    kind: 'positions' | 'trips' | 'history' | 'distance',
    reportType: ReportType,
    interval: IntervalKind,
    build: (ctx: DocumentContext, vehicles: VehicleRow[]) => Promise<ReportDocument>,
    summary: string,
  ) =>
    app.get(
      `/download/${kind}/:vehicleId`,
      doc(summary),
      validate('param', VehicleParamSchema),
      validate('query', kind === 'history' ? HistoryFileQuerySchema : FileQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const vehicle = await visibleVehicle(c, deps, c.req.valid('param').vehicleId);
        const period = periodOf(q, interval);
        return answer(c, {
          reportType,
          format: q.format,
          deliveryMethod: q.deliveryMethod,
          emails: q.emails,
          ...period,
          vehicleIds: [vehicle.id],
          customerOf: vehicle.clientId,
          build: (ctx) => build(ctx, [vehicle]),
        });
      },
    );

  single('positions', 'POSITIONS', 'points', positionsDocument, 'Posições de um veículo (arquivo)');
  single('trips', 'TRIPS', 'points', tripsDocument, 'Jornadas de um veículo (arquivo)');
  single('history', 'HISTORY', 'points', historyDocument, 'Histórico de um veículo (arquivo)');
  single('distance', 'DISTANCE', 'totals', distanceDocument, 'Distâncias de um veículo (arquivo)');

  /** Multi-vehicle downloads. */
  const many = (
    kind: 'positions' | 'trips' | 'history' | 'distance' | 'light_final_report',
    reportType: ReportType,
    interval: IntervalKind,
    build: (ctx: DocumentContext, vehicles: VehicleRow[]) => Promise<ReportDocument>,
    summary: string,
  ) =>
    app.get(
      `/v2/download/${kind}`,
      doc(summary),
      validate(
        'query',
        kind === 'history' ? VehiclesHistoryFileQuerySchema : VehiclesFileQuerySchema,
      ),
      async (c) => {
        const q = c.req.valid('query');
        const period = periodOf(q, interval);
        const vehicles = await visibleVehicles(c, deps, q.vehicleIds);
        return answer(c, {
          reportType,
          format: q.format,
          deliveryMethod: q.deliveryMethod,
          emails: q.emails,
          ...period,
          vehicleIds: vehicles.map((v) => v.id),
          customerOf: vehicles[0]?.clientId ?? c.var.user.clientId,
          build: (ctx) => build(ctx, vehicles),
        });
      },
    );

  many('distance', 'DISTANCE', 'totals', distanceDocument, 'Distâncias de vários veículos');
  many('trips', 'TRIPS', 'points', tripsDocument, 'Jornadas de vários veículos');
  many('positions', 'POSITIONS', 'points', positionsDocument, 'Posições de vários veículos');
  many('history', 'HISTORY', 'points', historyDocument, 'Históricos de vários veículos');
  many(
    'light_final_report',
    'light_final_report',
    'totals',
    summaryDocument,
    'Resumo de vários veículos (arquivo)',
  );

  app.get(
    '/v2/download/drivers',
    doc('Relatório de motoristas (arquivo)'),
    validate('query', DriversFileQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const period = periodOf(q, 'points');
      const drivers = await visibleDrivers(c, deps, q.driverIds);
      const clientIds = await visibleClientIds(c, deps);
      return answer(c, {
        reportType: 'DRIVERS',
        format: q.format,
        deliveryMethod: q.deliveryMethod,
        emails: q.emails,
        ...period,
        driverIds: drivers.map((d) => d.id),
        customerOf: drivers[0]?.clientId ?? c.var.user.clientId,
        build: (ctx) => driversDocument(ctx, drivers, clientIds, q.format),
      });
    },
  );

  app.get(
    '/v2/geofence/download',
    doc('Relatório de cercas geográficas (arquivo)'),
    validate('query', GeofenceFileQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const period = periodOf(q, 'totals');
      const vehicles = await visibleVehicles(c, deps, q.vehicleIds);
      const clientIds = await visibleGeofenceClients(c, deps);
      return answer(c, {
        reportType: null,
        format: q.format,
        deliveryMethod: q.deliveryMethod,
        emails: q.emails,
        ...period,
        vehicleIds: vehicles.map((v) => v.id),
        customerOf: vehicles[0]?.clientId ?? c.var.user.clientId,
        build: async (ctx) =>
          geofenceDocument(
            ctx,
            vehicles.map((v) => `${v.plate} — ${v.name}`),
            await geofenceRows(
              db,
              vehicles,
              clientIds,
              q.geofenceIds,
              period.beginAt,
              period.endAt,
              deps.config.alerts.hysteresisMeters,
            ),
          ),
      });
    },
  );

  return app;
}

/** `registros/report-files/{token}`: the file behind a link sent by e-mail, until it expires. */
export function reportLinkRoutes(deps: Deps) {
  const app = new Hono();
  app.get(
    '/:token',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Arquivo de relatório enviado por link (válido por tempo limitado)',
      responses: fileResponses,
    }),
    validate(
      'param',
      o.object({ token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{20,100}$/, 'Link inválido')) }),
    ),
    async (c) => {
      const link = await linkByHash(deps.database.db, hashToken(c.req.valid('param').token));
      if (!link) throw new HttpError(404, 'NOT_FOUND', 'Link de relatório não encontrado');
      if (link.expiresAt.getTime() <= Date.now())
        throw new HttpError(
          410,
          'NOT_FOUND',
          'Este link de relatório expirou: peça o relatório de novo.',
        );
      return download(link);
    },
  );
  return app;
}
