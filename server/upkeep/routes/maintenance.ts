/**
 * Maintenance plans and service records (customer-owned, on ownedRoutes) and the due list of
 * a customer's vehicles.
 */
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import type * as v from 'valibot';
import {
  DueListSchema,
  DueQuerySchema,
  MaintenancePlanCreateSchema,
  MaintenancePlanPageSchema,
  MaintenancePlanQuerySchema,
  MaintenancePlanUpdateSchema,
  PLAN_INTERVAL_MESSAGE,
  PLAN_TARGET_MESSAGE,
  ServiceRecordCreateSchema,
  ServiceRecordPageSchema,
  ServiceRecordQuerySchema,
  ServiceRecordUpdateSchema,
} from '../../../src/contract';
import { reportDay } from '../../../src/lib/report-period';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { vehiclesOfClient } from '../../inventory/queries/inventory';
import { type Ctx, owned, ownedRoutes, present } from '../../owned/mold';
import { getOwned } from '../../owned/queries';
import { badRequest } from '../../platform/http/errors';
import { invalid, validate } from '../../platform/http/validate';
import { fleets } from '../../schema';
import { clientsWithin, visibleClientIds } from '../../tenancy/scope';
import {
  dueList,
  planQueries,
  plansOfClient,
  serviceRecordQueries,
  vehicleKm,
} from '../queries/maintenance';

type PlanPatch = v.InferOutput<typeof MaintenancePlanUpdateSchema>;
type ServicePatch = v.InferOutput<typeof ServiceRecordUpdateSchema>;

/** A vehicle of the customer (live, visible to the caller), or the pt-BR reason it is not. */
async function ownVehicle(deps: Deps, clientId: string, id: string, field: string) {
  const found = await vehiclesOfClient(deps.database.db, clientId, [id]);
  if (found.length === 0) throw invalid(field, 'Veículo não encontrado neste cliente');
}

export function maintenancePlanRoutes(deps: Deps) {
  const { db } = deps.database;
  return ownedRoutes(deps, {
    tag: 'Manutenção',
    audit: { entity: 'maintenance_plan', label: (row) => row.name },
    listKey: 'plans',
    notFound: 'Plano de manutenção não encontrado',
    duplicate: 'Já existe um plano igual',
    schemas: {
      create: MaintenancePlanCreateSchema,
      update: MaintenancePlanUpdateSchema,
      query: MaintenancePlanQuerySchema,
      output: MaintenancePlanPageSchema,
    },
    ...planQueries,
    async checkRefs(c: Ctx, input, clientId, existing) {
      const p = input as PlanPatch;
      const vehicleId = p.vehicleId === undefined ? existing?.vehicleId : p.vehicleId;
      const fleetId = p.fleetId === undefined ? existing?.fleetId : p.fleetId;
      const type = p.vehicleType === undefined ? existing?.vehicleType : p.vehicleType;
      if ([vehicleId, fleetId, type].filter(Boolean).length !== 1)
        throw invalid('vehicleId', PLAN_TARGET_MESSAGE);
      const every = (key: 'everyKm' | 'everyHours' | 'everyDays') =>
        p[key] === undefined ? existing?.[key] : p[key];
      if (!every('everyKm') && !every('everyHours') && !every('everyDays'))
        throw invalid('everyKm', PLAN_INTERVAL_MESSAGE);
      if (vehicleId) await ownVehicle(deps, clientId, vehicleId, 'vehicleId');
      if (fleetId) {
        const fleet = await getOwned(db, fleets, fleetId, await visibleClientIds(c, deps));
        if (!fleet || fleet.clientId !== clientId)
          throw invalid('fleetId', 'Frota não encontrada neste cliente');
      }
    },
    toValues(input, existing) {
      const p = input as PlanPatch;
      const values = present(p, [
        'clientId',
        'name',
        'vehicleId',
        'fleetId',
        'vehicleType',
        'everyKm',
        'everyHours',
        'everyDays',
        'warnKm',
        'warnHours',
        'warnDays',
        'startDate',
        'startKm',
        'startHours',
        'active',
      ]);
      // A new plan counts from today (São Paulo), unless told otherwise.
      if (!existing && !values.startDate) values.startDate = reportDay(new Date());
      return values;
    },
    toOutput: (_d, rows) =>
      rows.map((row) => ({
        ...owned(row),
        name: row.name,
        vehicleId: row.vehicleId,
        fleetId: row.fleetId,
        vehicleType: row.vehicleType,
        everyKm: row.everyKm,
        everyHours: row.everyHours,
        everyDays: row.everyDays,
        warnKm: row.warnKm,
        warnHours: row.warnHours,
        warnDays: row.warnDays,
        startDate: row.startDate,
        startKm: row.startKm,
        startHours: row.startHours,
      })),
  });
}

export function serviceRecordRoutes(deps: Deps) {
  const { db } = deps.database;
  return ownedRoutes(deps, {
    tag: 'Manutenção',
    audit: { entity: 'service_record', label: (row) => row.date },
    listKey: 'records',
    notFound: 'Registro de serviço não encontrado',
    duplicate: 'Já existe um registro igual',
    schemas: {
      create: ServiceRecordCreateSchema,
      update: ServiceRecordUpdateSchema,
      query: ServiceRecordQuerySchema,
      output: ServiceRecordPageSchema,
    },
    ...serviceRecordQueries,
    async checkRefs(_c, input, clientId, existing) {
      const r = input as ServicePatch;
      const vehicleId = r.vehicleId ?? existing?.vehicleId;
      if (!vehicleId) throw invalid('vehicleId', 'Campo obrigatório');
      if (r.vehicleId || (existing && clientId !== existing.clientId))
        await ownVehicle(deps, clientId, vehicleId, 'vehicleId');
      const planIds = [...new Set(r.planIds ?? [])];
      if (planIds.length === 0) return;
      const plans = await plansOfClient(db, clientId, planIds);
      if (plans.length !== planIds.length)
        throw invalid('planIds', 'Há planos que não existem ou são de outro cliente');
    },
    async toValues(input, existing) {
      const r = input as ServicePatch;
      const values = present(r, [
        'clientId',
        'vehicleId',
        'date',
        'odometerKm',
        'hours',
        'items',
        'workshop',
        'notes',
        'planIds',
        'active',
      ]);
      if (r.cost !== undefined)
        values.costCents = r.cost === null ? null : Math.round(r.cost * 100);
      if (Array.isArray(values.planIds)) values.planIds = [...new Set(values.planIds as string[])];
      // Without an odometer the service happened at the km the vehicle has now: the km the
      // due list counts.
      if (!existing && r.odometerKm === undefined && r.vehicleId)
        values.odometerKm = Math.round((await vehicleKm(db, r.vehicleId)) * 10) / 10;
      return values;
    },
    toOutput: (_d, rows) =>
      rows.map((row) => ({
        ...owned(row),
        vehicleId: row.vehicleId,
        date: row.date,
        odometerKm: row.odometerKm,
        hours: row.hours,
        items: row.items,
        cost: row.costCents === null ? null : row.costCents / 100,
        workshop: row.workshop,
        notes: row.notes,
        planIds: row.planIds,
      })),
  });
}

/** GET /due: what is due on the vehicles of the customers the caller sees (or of one). */
export function maintenanceDueRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));
  app.get(
    '/',
    describeRoute({
      tags: ['Manutenção'],
      summary: 'O que vence e o que já venceu, o mais urgente primeiro',
      responses: {
        200: {
          description: 'Lista',
          content: { 'application/json': { schema: resolver(DueListSchema) } },
        },
      },
    }),
    validate('query', DueQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const clientIds = await clientsWithin(c, deps, q.clientId);
      if (q.status && q.status.length === 0) throw badRequest('Situação inválida');
      // A visitor sees only linked vehicles; maintenance is none of theirs.
      if (c.var.user.role === 'VISITOR') return c.json({ items: [] });
      const items = await dueList(db, clientIds, new Date());
      const wanted = q.status ? new Set(q.status) : undefined;
      return c.json({ items: wanted ? items.filter((i) => wanted.has(i.status)) : items });
    },
  );
  return app;
}
