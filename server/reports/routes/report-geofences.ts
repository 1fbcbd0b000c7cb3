/**
 * The geofence reports of `registros/reports`: `geofence/:vehicleId`, one vehicle's entries,
 * exits and time inside each geofence that applies to it; `by-fence/:geofenceId`, the visits of
 * every vehicle to one geofence. Both only of what the caller may see (else 404).
 */
import type { Context, Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type * as v from 'valibot';
import {
  FenceReportQuerySchema,
  FenceReportSchema,
  GeofenceParamSchema,
  GeofenceReportSchema,
  ReportQuerySchema,
  VehicleParamSchema,
} from '../../../src/contract';
import type { AuthEnv } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { vehiclesOfClients } from '../../geofences/queries';
import { getOwned } from '../../owned/queries';
import { notFound } from '../../platform/http/errors';
import { docs } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { geofences } from '../../schema';
import { subtreeIds } from '../../tenancy/queries';
import { visibleClientIds, visibleVehicle } from '../../tenancy/scope';
import { geofencesFor, geofenceVisits, indexedGeofences } from '../geofences';
import { periodOf, VEHICLE_NOT_FOUND, visibleGeofenceClients } from '../scope';

const doc = (summary: string, schema: v.GenericSchema, description: string) =>
  describeRoute({ tags: ['Relatórios'], summary, responses: { 200: docs(schema, description) } });

/** The vehicles a geofence of `clientId` applies to (its subtree's) that the caller sees. */
async function fleetOfFence(
  c: Context<AuthEnv>,
  deps: Deps,
  clientId: string,
  vehicleIds: string[] | undefined,
) {
  const { db } = deps.database;
  const visible = new Set(await visibleClientIds(c, deps));
  const under = (await subtreeIds(db, clientId)).filter((id) => visible.has(id));
  let fleet = await vehiclesOfClients(db, under);
  if (vehicleIds) {
    const wanted = new Set(vehicleIds);
    fleet = fleet.filter((vehicle) => wanted.has(vehicle.id));
    if (fleet.length !== wanted.size) throw notFound(VEHICLE_NOT_FOUND);
  }
  return { fleet, visible: [...visible] };
}

export function addGeofenceReportRoutes(app: Hono<AuthEnv>, deps: Deps) {
  const { db } = deps.database;
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
      const { fleet, visible } = await fleetOfFence(c, deps, fence.clientId, q.vehicleIds);
      const { visits, totals } = await geofenceVisits(
        db,
        fleet,
        visible,
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
}
