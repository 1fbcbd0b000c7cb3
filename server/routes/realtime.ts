/** SPEC §7: GET registros/real-time/lastLocation — the newest fix of every visible tracker. */
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import {
  LastLocationQuerySchema,
  type LocationItem,
  LocationItemSchema,
  locationName,
} from '../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../auth/middleware';
import { fleetVehicleIds, lastLocationsOf, vehiclesAndDrivers } from '../db/positions';
import { linkedVehicleIds } from '../db/sharing';
import type { Deps } from '../deps';
import { notFound } from '../http/errors';
import { validate } from '../http/validate';
import { canSeeClient, visibleClientIds } from '../tenancy';

export function realtimeRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('view_map'));
  app.get(
    '/lastLocation',
    describeRoute({
      tags: ['Tempo real'],
      summary: 'Última posição de cada veículo ou rastreador visível',
      responses: {
        200: {
          description: 'Posições',
          content: { 'application/json': { schema: resolver(v.array(LocationItemSchema)) } },
        },
      },
    }),
    validate('query', LastLocationQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      let clientIds = await visibleClientIds(c, deps);
      if (q.clientId) {
        if (!(await canSeeClient(c, deps, q.clientId))) throw notFound('Cliente não encontrado');
        clientIds = (await visibleClientIds(c, deps)).filter((id) => id === q.clientId);
      }
      let vehicleIds = q.vehicleIds;
      if (q.fleets)
        vehicleIds = [...(vehicleIds ?? []), ...(await fleetVehicleIds(db, q.fleets, clientIds))];
      if (c.var.user.role === 'VISITOR') {
        const linked = await linkedVehicleIds(db, c.var.user.id);
        vehicleIds = vehicleIds ? vehicleIds.filter((id) => linked.includes(id)) : linked;
      }
      const rows = await lastLocationsOf(db, clientIds, { vehicleIds });
      const names = await vehiclesAndDrivers(
        db,
        rows.flatMap((row) => (row.vehicleId ? [row.vehicleId] : [])),
        rows.flatMap((row) => (row.driverRfid ? [row.driverRfid] : [])),
      );
      const items: LocationItem[] = rows.map((row) => {
        const vehicle = names.vehicles.find((x) => x.id === row.vehicleId);
        const type = vehicle ? 'vehicle' : 'tracker';
        return {
          id: vehicle?.id ?? row.trackerId,
          type,
          name: locationName({ type, name: vehicle?.name }),
          plate: vehicle?.plate ?? null,
          vehicleType: vehicle?.type ?? null,
          trackerId: row.trackerId,
          clientId: row.clientId,
          latitude: row.latitude,
          longitude: row.longitude,
          speed: row.speed,
          course: row.course,
          ignition: row.ignition,
          battery: row.battery,
          driver: names.drivers.find((d) => d.rfid === row.driverRfid)?.name ?? null,
          fixTime: row.fixTime.toISOString(),
          receivedAt: row.receivedAt.toISOString(),
        };
      });
      return c.json(items);
    },
  );
  return app;
}
