/**
 * The record of every report asked for (SPEC §3 Report: a list sortable by name, reportType,
 * createdAt, updatedAt), and a customer's trip rules. A report viewed on screen is recorded as
 * 'done': the calls of reports.ts compute it when the screen asks. Files and e-mail
 * delivery: a request with deliveryMethod=email moves through pending → processing →
 * done | failed (with the reason) while its file is made and e-mailed in the background.
 */
import type { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import type * as v from 'valibot';
import {
  IdSchema,
  isDriverReport,
  MessageSchema,
  REPORT_TYPE_LABELS,
  type ReportRequest,
  ReportRequestInputSchema,
  ReportRequestPageSchema,
  ReportRequestQuerySchema,
  ReportRequestSchema,
  TripSettingsInputSchema,
  TripSettingsSchema,
} from '../../../src/contract';
import * as o from '../../../src/contract/objects';
import { hasPermission } from '../../../src/contract/permissions';
import { validateEmailList } from '../../../src/lib/emails';
import { localDate } from '../../../src/lib/local-time';
import { INTERVAL_LIMITS, periodProblem } from '../../../src/lib/report-period';
import { type AuthEnv, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import { validate } from '../../platform/http/validate';
import { subtreeIds } from '../../tenancy/queries';
import { canSeeClient, visibleClient, visibleClientIds } from '../../tenancy/scope';
import { storedAlerts } from '../alerts';
import { documentFor } from '../files/documents';
import { clientName } from '../queries/report-files';
import {
  deleteReportRequest,
  insertReportRequest,
  listReportRequests,
  type ReportRequestRow,
  reportRequestById,
  saveTripSettings,
} from '../queries/reports';
import { visibleDrivers, visibleVehicles } from '../scope';
import { rulesOf } from '../service';

const REQUEST_NOT_FOUND = 'Relatório não encontrado';

const LIMIT_OF = {
  HISTORY: INTERVAL_LIMITS.points,
  POSITIONS: INTERVAL_LIMITS.points,
  TRIPS: INTERVAL_LIMITS.points,
  DRIVERS: INTERVAL_LIMITS.points,
  DISTANCE: INTERVAL_LIMITS.totals,
  light_final_report: INTERVAL_LIMITS.totals,
  FLEET_COSTS: INTERVAL_LIMITS.totals,
  DRIVING: INTERVAL_LIMITS.totals,
  JORNADA: INTERVAL_LIMITS.totals,
} as const;

function requestOut(row: ReportRequestRow): ReportRequest {
  return {
    id: row.id,
    clientId: row.clientId,
    userId: row.userId,
    name: row.name,
    reportType: row.reportType as ReportRequest['reportType'],
    vehicleIds: row.vehicleIds,
    driverIds: row.driverIds,
    beginAt: row.beginAt.toISOString(),
    endAt: row.endAt.toISOString(),
    format: row.format,
    deliveryMethod: row.deliveryMethod,
    status: row.status as ReportRequest['status'],
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const json = (schema: v.GenericSchema, description: string, status = 200) => ({
  [status]: { description, content: { 'application/json': { schema: resolver(schema) } } },
});

export function addRequestRoutes(app: Hono<AuthEnv>, deps: Deps) {
  const { db } = deps.database;

  app.get(
    '/trip-settings/:clientId',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Regras de viagem e parada de um cliente',
      responses: json(TripSettingsSchema, 'Regras'),
    }),
    validate('param', o.object({ clientId: IdSchema })),
    async (c) => {
      const client = await visibleClient(c, deps, c.req.valid('param').clientId);
      return c.json({ clientId: client.id, ...(await rulesOf(db, client.id)) });
    },
  );

  app.put(
    '/trip-settings/:clientId',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Alterar as regras de viagem e parada de um cliente',
      responses: json(TripSettingsSchema, 'Regras'),
    }),
    requirePermission('CrudCompany'),
    validate('param', o.object({ clientId: IdSchema })),
    validate('json', TripSettingsInputSchema),
    async (c) => {
      const client = await visibleClient(c, deps, c.req.valid('param').clientId);
      await saveTripSettings(db, client.id, c.req.valid('json'));
      return c.json({ clientId: client.id, ...(await rulesOf(db, client.id)) });
    },
  );

  app.get(
    '/',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Relatórios pedidos (ordenáveis por name, reportType, createdAt, updatedAt)',
      responses: json(ReportRequestPageSchema, 'Página'),
    }),
    validate('query', ReportRequestQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      let clientIds = await visibleClientIds(c, deps);
      if (q.clientId) {
        if (!(await canSeeClient(c, deps, q.clientId))) throw notFound('Cliente não encontrado');
        const visible = new Set(clientIds);
        clientIds = (await subtreeIds(db, q.clientId)).filter((id) => visible.has(id));
      }
      const { rows, total } = await listReportRequests(db, {
        clientIds,
        // A Terceiro sees only what they asked for.
        userId: c.var.user.role === 'VISITOR' ? c.var.user.id : undefined,
        search: q.search,
        sort: q.sort ?? 'createdAt',
        order: q.order,
        page: q.page,
        limit: q.limit,
      });
      return c.json({ reports: rows.map(requestOut), page: q.page, limit: q.limit, total });
    },
  );

  app.post(
    '/',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Pedir um relatório (registrado na lista)',
      responses: json(ReportRequestSchema, 'Registrado', 201),
    }),
    validate('json', ReportRequestInputSchema),
    async (c) => {
      const input = c.req.valid('json');
      // A file asked by e-mail is made in the background (the list shows how it
      // went); a file to download is fetched by the PWA through the download calls.
      const byEmail = input.deliveryMethod === 'email';
      const format = input.format ?? (byEmail ? 'excel' : undefined);
      if (format === 'kml' && input.reportType !== 'HISTORY')
        throw badRequest('KML só para o histórico: use pdf ou excel');
      if (input.emails && !validateEmailList(input.emails).valid)
        throw badRequest(
          `E-mails inválidos: ${validateEmailList(input.emails).invalid.join(', ')}`,
        );
      // The driving ranking and the working day name the company's drivers: never a Terceiro's.
      if (
        (input.reportType === 'DRIVING' || input.reportType === 'JORNADA') &&
        c.var.user.role === 'VISITOR'
      )
        throw forbidden();
      const problem = periodProblem(input.beginAt, input.endAt, LIMIT_OF[input.reportType]);
      if (problem) throw badRequest(problem);
      const drivers = isDriverReport(input.reportType);
      const vehicleIds = drivers ? [] : [...new Set(input.vehicleIds ?? [])];
      const driverIds = drivers ? [...new Set(input.driverIds ?? [])] : [];
      if (drivers && driverIds.length === 0) throw badRequest('Escolha ao menos um motorista');
      if (!drivers && vehicleIds.length === 0) throw badRequest('Escolha ao menos um veículo');
      const vehicles = vehicleIds.length ? await visibleVehicles(c, deps, vehicleIds) : [];
      const driverRows = driverIds.length ? await visibleDrivers(c, deps, driverIds) : [];
      const beginAt = new Date(input.beginAt);
      const endAt = new Date(input.endAt);
      const name =
        input.name ||
        `${REPORT_TYPE_LABELS[input.reportType]} de ${localDate(beginAt)} a ${localDate(endAt.getTime() - 1)}`;
      const row = await insertReportRequest(db, {
        clientId: c.var.user.clientId,
        userId: c.var.user.id,
        name,
        reportType: input.reportType,
        vehicleIds,
        driverIds,
        beginAt,
        endAt,
        format: format ?? null,
        deliveryMethod: input.deliveryMethod ?? null,
        status: byEmail ? 'pending' : 'done',
      });
      if (byEmail) {
        const listed = validateEmailList(input.emails).emails;
        const to = listed.length ? listed : [c.var.user.email];
        const clientIds = await visibleClientIds(c, deps);
        const fileFormat = format === 'pdf' ? 'pdf' : format === 'kml' ? 'kml' : 'excel';
        deps.reportFiles.emailInBackground(row.id, c.var.user.clientId, to, fileFormat, async () =>
          documentFor(
            input.reportType,
            {
              db,
              alerts: storedAlerts,
              customer: await clientName(db, vehicles[0]?.clientId ?? c.var.user.clientId),
              beginAt,
              endAt,
              generatedAt: new Date(),
            },
            { vehicles, drivers: driverRows, clientIds },
            fileFormat === 'pdf' ? 'pdf' : 'excel',
          ),
        );
      }
      return c.json(requestOut(row), 201);
    },
  );

  app.get(
    '/:id',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Um relatório pedido',
      responses: json(ReportRequestSchema, 'Relatório'),
    }),
    validate('param', o.object({ id: IdSchema })),
    async (c) => {
      const row = await reportRequestById(
        db,
        c.req.valid('param').id,
        await visibleClientIds(c, deps),
      );
      if (!row || (c.var.user.role === 'VISITOR' && row.userId !== c.var.user.id))
        throw notFound(REQUEST_NOT_FOUND);
      return c.json(requestOut(row));
    },
  );

  app.delete(
    '/:id',
    describeRoute({
      tags: ['Relatórios'],
      summary: 'Remover um relatório da lista (quem o pediu, ou quem pode remover)',
      responses: json(MessageSchema, 'Removido'),
    }),
    validate('param', o.object({ id: IdSchema })),
    async (c) => {
      const row = await reportRequestById(
        db,
        c.req.valid('param').id,
        await visibleClientIds(c, deps),
      );
      const own = row?.userId === c.var.user.id;
      if (!row || (c.var.user.role === 'VISITOR' && !own)) throw notFound(REQUEST_NOT_FOUND);
      if (!own && !hasPermission(c.var.user.role, 'delete_resources')) throw forbidden();
      await deleteReportRequest(db, row.id);
      return c.json({ message: 'Relatório removido da lista.' });
    },
  );
}
