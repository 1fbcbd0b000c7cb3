/**
 * SPEC §7 `registros/reports`: histories, positions, trips and stops, distances per day,
 * summaries (light_final_report) and drivers, for one vehicle or many (`v2/…?vehicleIds=`).
 * Every vehicle must be one the caller may see (else 404, as everywhere), and every period
 * within its report's limit (SPEC §5 rule: 744 h of points, 93 days of totals). `format` and
 * `deliveryMethod` are accepted for the report files (report-requests.ts); these calls answer JSON.
 *
 * Positions and histories can be a month of fixes at one every 10 s: they are streamed, one
 * position per line, as the database reads them a day at a time, never held whole.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { describeRoute, resolver } from 'hono-openapi';
import type * as v from 'valibot';
import {
  DistanceReportSchema,
  DistanceReportsSchema,
  DriverReportSchema,
  DriverReportsSchema,
  DriversReportQuerySchema,
  FenceReportQuerySchema,
  FenceReportSchema,
  GeofenceParamSchema,
  GeofenceReportSchema,
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
} from '../../src/contract';
import * as o from '../../src/contract/objects';
import { type AuthEnv, requireAuth, requirePermission } from '../auth/middleware';
import { subtreeIds } from '../db/clients';
import { vehiclesOfClients } from '../db/geofences';
import { getOwned } from '../db/owned';
import { positionLines } from '../db/reports';
import { geofences } from '../db/schema';
import type { Deps } from '../deps';
import { notFound } from '../http/errors';
import { validate } from '../http/validate';
import { storedAlerts } from '../reports/alerts';
import { stopOf } from '../reports/build';
import { distanceReports } from '../reports/distance';
import { geofencesFor, geofenceVisits, indexedGeofences } from '../reports/geofences';
import { analyse, driverReport, summaryReport, tripsReport } from '../reports/service';
import { visibleClientIds, visibleVehicle } from '../tenancy';
import { addDrivingRoutes } from './driving';
import { addRequestRoutes } from './report-requests';
import {
  DRIVER_NOT_FOUND,
  periodOf,
  VEHICLE_NOT_FOUND,
  visibleDrivers,
  visibleGeofenceClients,
  visibleVehicles,
} from './report-scope';

type Ctx = Context<AuthEnv>;

const json = (schema: v.GenericSchema, description: string) => ({
  200: { description, content: { 'application/json': { schema: resolver(schema) } } },
});
const doc = (summary: string, schema: v.GenericSchema, description: string) =>
  describeRoute({ tags: ['Relatórios'], summary, responses: json(schema, description) });

/** Streams `{ ...head, [key]: [ …lines… ], ...tail }` with one array item per line. */
function streamJson(
  c: Ctx,
  head: Record<string, unknown>,
  key: string,
  lines: AsyncIterable<string>,
  tail: () => Promise<Record<string, unknown>> = async () => ({}),
) {
  c.header('content-type', 'application/json; charset=utf-8');
  return stream(c, async (out) => {
    const opening = JSON.stringify(head).slice(0, -1);
    await out.write(`${opening}${opening.length > 1 ? ',' : ''}${JSON.stringify(key)}:[\n`);
    let first = true;
    for await (const chunk of lines) {
      if (out.aborted) return;
      await out.write(`${first ? '' : ',\n'}${chunk}`);
      first = false;
    }
    const rest = JSON.stringify(await tail()).slice(1);
    await out.write(`\n]${rest.length > 1 ? ',' : ''}${rest}`);
  });
}

export function reportRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

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
      const s = analysis.samples;
      const stops = analysis.stops.map((span) => stopOf(s, span, vehicle.id));
      const alerts = await storedAlerts.of(db, vehicle, beginAt, endAt);
      async function* points() {
        for (let i = analysis.first; i < analysis.end; i += 2000) {
          const part: string[] = [];
          for (let j = i; j < Math.min(i + 2000, analysis.end); j += 1) {
            const speed = s.speed[j] ?? Number.NaN;
            const course = s.course[j] ?? Number.NaN;
            const ignition = s.ignition[j];
            part.push(
              JSON.stringify({
                fixTime: new Date(s.time[j] ?? 0).toISOString(),
                latitude: s.lat[j],
                longitude: s.lon[j],
                speed: Number.isNaN(speed) ? null : speed,
                course: Number.isNaN(course) ? null : course,
                ignition: ignition === 1 ? true : ignition === 0 ? false : null,
                odometer: s.odometer[j],
              }),
            );
          }
          yield part.join(',\n');
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
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
        points(),
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

  const hysteresis = deps.config.alerts.hysteresisMeters;

  app.get(
    '/geofence/:vehicleId',
    doc(
      'Cercas de um veículo: entradas, saídas e tempo dentro de cada cerca',
      GeofenceReportSchema,
      'Cercas',
    ),
    validate('param', VehicleParamSchema),
    validate('query', ReportQuerySchema),
    async (c) => {
      const vehicle = await visibleVehicle(c, deps, c.req.valid('param').vehicleId);
      const { beginAt, endAt } = periodOf(c.req.valid('query'), 'points');
      // The geofences that apply to the vehicle (its customer's and those above), that the
      // caller sees.
      const fences = await geofencesFor(
        db,
        vehicle.clientId,
        await visibleGeofenceClients(c, deps),
      );
      const { visits, totals } = await geofenceVisits(
        db,
        [{ id: vehicle.id, plate: vehicle.plate }],
        vehicle.owners,
        fences,
        beginAt,
        endAt,
        hysteresis,
      );
      return c.json({
        vehicleId: vehicle.id,
        plate: vehicle.plate,
        name: vehicle.name,
        beginAt: beginAt.toISOString(),
        endAt: endAt.toISOString(),
        visits,
        totals,
      });
    },
  );

  app.get(
    '/by-fence/:geofenceId',
    doc(
      'Visitas a uma cerca: cada veículo, quando entrou, quando saiu, quanto tempo ficou',
      FenceReportSchema,
      'Cerca',
    ),
    validate('param', GeofenceParamSchema),
    validate('query', FenceReportQuerySchema),
    async (c) => {
      const scope = await visibleGeofenceClients(c, deps);
      const fence = await getOwned(db, geofences, c.req.valid('param').geofenceId, scope);
      if (!fence) throw notFound('Cerca não encontrada');
      const q = c.req.valid('query');
      const { beginAt, endAt } = periodOf(q, 'points');
      // The vehicles the geofence applies to (its customer's subtree) that the caller sees.
      const visible = new Set(await visibleClientIds(c, deps));
      const under = (await subtreeIds(db, fence.clientId)).filter((id) => visible.has(id));
      let fleet = await vehiclesOfClients(db, under);
      if (q.vehicleIds) {
        const wanted = new Set(q.vehicleIds);
        fleet = fleet.filter((vehicle) => wanted.has(vehicle.id));
        if (fleet.length !== wanted.size) throw notFound(VEHICLE_NOT_FOUND);
      }
      const { visits, totals } = await geofenceVisits(
        db,
        fleet,
        [...visible],
        indexedGeofences([fence]),
        beginAt,
        endAt,
        hysteresis,
      );
      return c.json({
        geofenceId: fence.id,
        geofenceName: fence.name,
        beginAt: beginAt.toISOString(),
        endAt: endAt.toISOString(),
        visits,
        totals,
      });
    },
  );

  addDrivingRoutes(app, deps);
  addRequestRoutes(app, deps);
  return app;
}
