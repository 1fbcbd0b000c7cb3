/**
 * SPEC §7 `registros/reports`: histories, positions, trips and stops, distances per day,
 * summaries (light_final_report) and drivers, for one vehicle or many (`v2/…?vehicleIds=`).
 * Every vehicle must be one the caller may see (else 404, as everywhere), and every period
 * within its report's limit (SPEC §5 rule: 744 h of points, 93 days of totals). `format` and
 * `deliveryMethod` are accepted for the report files (report-requests.ts); these calls answer JSON.
 *
 * Positions and histories can be a month of fixes at one every 10 s: they are streamed, one
 * position per line, as the database reads them a day at a time, never held whole
 * (server/platform/http/stream-json.ts). The geofence reports are in report-geofences.ts.
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type * as v from 'valibot';
import {
  DistanceReportSchema,
  DistanceReportsSchema,
  DriverReportSchema,
  DriverReportsSchema,
  DriversReportQuerySchema,
  HistoryReportSchema,
  IdSchema,
  PositionsReportSchema,
  ReportQuerySchema,
  SummariesSchema,
  SummarySchema,
  TripsReportSchema,
  TripsReportsSchema,
  VehicleParamSchema,
  VehiclesReportQuerySchema,
} from '../../../src/contract';
import * as o from '../../../src/contract/objects';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { notFound } from '../../platform/http/errors';
import { docs } from '../../platform/http/openapi';
import { streamJson } from '../../platform/http/stream-json';
import { validate } from '../../platform/http/validate';
import { visibleClientIds, visibleVehicle } from '../../tenancy/scope';
import { storedAlerts } from '../alerts';
import { stopOf } from '../build';
import { distanceReports } from '../distance';
import { historyLines } from '../history';
import { positionLines } from '../queries/reports';
import { DRIVER_NOT_FOUND, periodOf, visibleDrivers, visibleVehicles } from '../scope';
import { analyse, driverReport, summaryReport, tripsReport } from '../service';
import { addDrivingRoutes } from './driving';
import { addGeofenceReportRoutes } from './report-geofences';
import { addRequestRoutes } from './report-requests';

const doc = (summary: string, schema: v.GenericSchema, description: string) =>
  describeRoute({ tags: ['Relatórios'], summary, responses: { 200: docs(schema, description) } });

export function reportRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));
  addVehicleStreamRoutes(app, deps);
  addVehicleReportRoutes(app, deps);
  addFleetReportRoutes(app, deps);
  addDriverReportRoutes(app, deps);
  addGeofenceReportRoutes(app, deps);
  addDrivingRoutes(app, deps);
  addRequestRoutes(app, deps);
  return app;
}

/** One vehicle's history and positions: streamed (see above). */
function addVehicleStreamRoutes(app: Hono<AuthEnv>, deps: Deps) {
  const { db } = deps.database;

  app.get(
    '/history/:vehicleId',
    doc(
      'Histórico de um veículo: o trajeto, as paradas e os alertas',
      HistoryReportSchema,
      'Histórico',
    ),
    validate('param', VehicleParamSchema),
    validate('query', ReportQuerySchema),
    async (c) => {
      const vehicle = await visibleVehicle(c, deps, c.req.valid('param').vehicleId);
      const { beginAt, endAt } = periodOf(c.req.valid('query'), 'points');
      const analysis = await analyse(db, vehicle, beginAt, endAt);
      const stops = analysis.stops.map((span) => stopOf(analysis.samples, span, vehicle.id));
      const alerts = await storedAlerts.of(db, vehicle, beginAt, endAt);
      return streamJson(
        c,
        {
          vehicleId: vehicle.id,
          plate: vehicle.plate,
          name: vehicle.name,
          vehicleType: vehicle.type,
          beginAt: beginAt.toISOString(),
          endAt: endAt.toISOString(),
        },
        'positions',
        historyLines(analysis),
        async () => ({ stops, alerts: alerts.map(({ vehicleId: _, ...a }) => a) }),
      );
    },
  );

  app.get(
    '/positions/:vehicleId',
    doc(
      'Posições de um veículo, com todos os atributos (uma por linha, em fluxo)',
      PositionsReportSchema,
      'O veículo, o período e as posições',
    ),
    validate('param', VehicleParamSchema),
    validate('query', ReportQuerySchema),
    async (c) => {
      const vehicle = await visibleVehicle(c, deps, c.req.valid('param').vehicleId);
      const { beginAt, endAt } = periodOf(c.req.valid('query'), 'points');
      return streamJson(
        c,
        {
          vehicleId: vehicle.id,
          plate: vehicle.plate,
          name: vehicle.name,
          beginAt: beginAt.toISOString(),
          endAt: endAt.toISOString(),
        },
        'positions',
        positionLines(db, vehicle, beginAt.getTime(), endAt.getTime()),
      );
    },
  );
}

/** One vehicle's trips and stops, distance per day and summary. */
function addVehicleReportRoutes(app: Hono<AuthEnv>, deps: Deps) {
  const { db } = deps.database;

  app.get(
    '/trips/:vehicleId',
    doc('Jornadas de um veículo: viagens e paradas', TripsReportSchema, 'Jornadas'),
    validate('param', VehicleParamSchema),
    validate('query', ReportQuerySchema),
    async (c) => {
      const vehicle = await visibleVehicle(c, deps, c.req.valid('param').vehicleId);
      const { beginAt, endAt } = periodOf(c.req.valid('query'), 'points');
      return c.json(await tripsReport(db, vehicle, beginAt, endAt));
    },
  );

  app.get(
    '/distance/:vehicleId',
    doc('Distância percorrida por dia (dailyResults)', DistanceReportSchema, 'Distâncias'),
    validate('param', VehicleParamSchema),
    validate('query', ReportQuerySchema),
    async (c) => {
      const vehicle = await visibleVehicle(c, deps, c.req.valid('param').vehicleId);
      const { beginAt, endAt } = periodOf(c.req.valid('query'), 'totals');
      const [report] = await distanceReports(db, [vehicle], beginAt, endAt);
      return c.json(report);
    },
  );

  app.get(
    '/light_final_report/:vehicleId',
    doc('Resumo do veículo no período (light_final_report)', SummarySchema, 'Resumo'),
    validate('param', VehicleParamSchema),
    validate('query', ReportQuerySchema),
    async (c) => {
      const vehicle = await visibleVehicle(c, deps, c.req.valid('param').vehicleId);
      const { beginAt, endAt } = periodOf(c.req.valid('query'), 'totals');
      return c.json(await summaryReport(db, storedAlerts, vehicle, beginAt, endAt));
    },
  );
}

/** The same of many vehicles at once (`v2/…?vehicleIds=`). */
function addFleetReportRoutes(app: Hono<AuthEnv>, deps: Deps) {
  const { db } = deps.database;

  app.get(
    '/v2/trips',
    doc('Jornadas de vários veículos', TripsReportsSchema, 'Jornadas'),
    validate('query', VehiclesReportQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const { beginAt, endAt } = periodOf(q, 'points');
      const vehicles = await visibleVehicles(c, deps, q.vehicleIds);
      const reports = [];
      for (const vehicle of vehicles) reports.push(await tripsReport(db, vehicle, beginAt, endAt));
      return c.json({
        beginAt: beginAt.toISOString(),
        endAt: endAt.toISOString(),
        vehicles: reports,
      });
    },
  );

  app.get(
    '/v2/distance',
    doc('Distância por dia de vários veículos', DistanceReportsSchema, 'Distâncias'),
    validate('query', VehiclesReportQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const { beginAt, endAt } = periodOf(q, 'totals');
      const vehicles = await visibleVehicles(c, deps, q.vehicleIds);
      return c.json({
        beginAt: beginAt.toISOString(),
        endAt: endAt.toISOString(),
        vehicles: await distanceReports(db, vehicles, beginAt, endAt),
      });
    },
  );

  app.get(
    '/v2/light_final_report',
    doc('Resumo de vários veículos', SummariesSchema, 'Resumos'),
    validate('query', VehiclesReportQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const { beginAt, endAt } = periodOf(q, 'totals');
      const vehicles = await visibleVehicles(c, deps, q.vehicleIds);
      const reports = [];
      for (const vehicle of vehicles)
        reports.push(await summaryReport(db, storedAlerts, vehicle, beginAt, endAt));
      return c.json({
        beginAt: beginAt.toISOString(),
        endAt: endAt.toISOString(),
        vehicles: reports,
      });
    },
  );
}

/** Drivers' reports: many, or one. */
function addDriverReportRoutes(app: Hono<AuthEnv>, deps: Deps) {
  const { db } = deps.database;

  app.get(
    '/v2/drivers',
    doc('Relatório de vários motoristas', DriverReportsSchema, 'Motoristas'),
    validate('query', DriversReportQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const { beginAt, endAt } = periodOf(q, 'points');
      const drivers = await visibleDrivers(c, deps, q.driverIds);
      const clientIds = await visibleClientIds(c, deps);
      const reports = [];
      for (const driver of drivers)
        reports.push(await driverReport(db, driver, clientIds, beginAt, endAt));
      return c.json({
        beginAt: beginAt.toISOString(),
        endAt: endAt.toISOString(),
        drivers: reports,
      });
    },
  );

  app.get(
    '/v2/drivers/:id',
    doc(
      'Relatório de um motorista: viagens, distância, tempo ao volante, veículos',
      DriverReportSchema,
      'Motorista',
    ),
    validate('param', o.object({ id: IdSchema })),
    validate('query', ReportQuerySchema),
    async (c) => {
      const [driver] = await visibleDrivers(c, deps, [c.req.valid('param').id]);
      const { beginAt, endAt } = periodOf(c.req.valid('query'), 'points');
      if (!driver) throw notFound(DRIVER_NOT_FOUND);
      return c.json(
        await driverReport(db, driver, await visibleClientIds(c, deps), beginAt, endAt),
      );
    },
  );
}
