/**
 * SPEC §7 alert rules: `registros/alert-rules` (list sortable by name, createdAt, updatedAt;
 * create, read, change, remove), on top of ownedRoutes (tenancy, paging, soft removal). The
 * shape is exactly `{ id, clientId, name, type, vehicleIds, fleetIds, params, schedule,
 * active, emailDelivery }`. Vehicles, fleets and geofences a rule names must be the caller's
 * and within the rule's customer (vehicles and fleets of it or the companies below it;
 * geofences of it or a company above it). The params are checked against the type, also when
 * a change alters only one of them.
 */
import type * as v from 'valibot';
import {
  type AlertRule,
  AlertRuleCreateSchema,
  AlertRulePageSchema,
  AlertRuleQuerySchema,
  AlertRuleUpdateSchema,
  type AlertType,
  flattenIssues,
  parseRuleParams,
} from '../../../src/contract';
import type { Deps } from '../../deps';
import { vehiclesIn } from '../../geofences/queries';
import { missingRuleGeofences } from '../../geofences/visible';
import { type Ctx, ownedRoutes, present } from '../../owned/mold';
import { badRequest, notFound } from '../../platform/http/errors';
import { subtreeIds } from '../../tenancy/queries';
import { visibleClientIds } from '../../tenancy/scope';
import { alertRuleQueries, fleetsIn } from '../queries/alert-rules';

type RuleRow = typeof alertRuleQueries.table.$inferSelect;
type Input = Partial<v.InferOutput<typeof AlertRuleUpdateSchema>>;

export function ruleOut(row: RuleRow): AlertRule {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    type: row.type as AlertType,
    vehicleIds: row.vehicleIds,
    fleetIds: row.fleetIds,
    params: row.params ?? {},
    schedule: row.schedule ?? null,
    active: row.active,
    emailDelivery: row.emailDelivery,
  };
}

/** Checks what a rule names against the caller and its customer; settles its params. */
async function checkRule(deps: Deps, c: Ctx, input: Input, clientId: string, existing?: RuleRow) {
  const { db } = deps.database;
  const visible = new Set(await visibleClientIds(c, deps));
  const reach = (await subtreeIds(db, clientId)).filter((id) => visible.has(id));
  const vehicleIds = input.vehicleIds ?? existing?.vehicleIds ?? [];
  const fleetIds = input.fleetIds ?? existing?.fleetIds ?? [];
  const vehicles = new Set((await vehiclesIn(db, vehicleIds, reach)).map((row) => row.id));
  const missingVehicles = vehicleIds.filter((id) => !vehicles.has(id));
  if (missingVehicles.length)
    throw notFound(
      `Veículo não encontrado para este cliente: ${missingVehicles.slice(0, 5).join(', ')}`,
    );
  const fleets = new Set(await fleetsIn(db, fleetIds, reach));
  const missingFleets = fleetIds.filter((id) => !fleets.has(id));
  if (missingFleets.length)
    throw notFound(
      `Frota não encontrada para este cliente: ${missingFleets.slice(0, 5).join(', ')}`,
    );

  const type = (input.type ?? existing?.type) as AlertType | undefined;
  if (!type) return;
  // A new type starts from its own params; the same type keeps the stored ones.
  const raw =
    input.params ?? (input.type && input.type !== existing?.type ? {} : (existing?.params ?? {}));
  const parsed = parseRuleParams(type, raw);
  if (!parsed.ok) {
    const issues = flattenIssues(parsed.issues).map((i) => ({
      path: i.path ? `params.${i.path}` : 'params',
      message: i.message,
    }));
    throw badRequest(`Requisição inválida: ${issues[0]?.path}: ${issues[0]?.message}`, issues);
  }
  if (input.type !== undefined || input.params !== undefined) input.params = parsed.params;
  const geofenceIds = (parsed.params as { geofenceIds?: string[] }).geofenceIds ?? [];
  const missing = await missingRuleGeofences(c, deps, clientId, geofenceIds);
  if (missing.length)
    throw notFound(
      `Cerca eletrônica não encontrada para este cliente: ${missing.slice(0, 5).join(', ')}`,
    );
}

export function alertRuleRoutes(deps: Deps) {
  return ownedRoutes(deps, {
    tag: 'Regras de alerta',
    audit: { entity: 'alert_rule', label: (row) => row.name },
    listKey: 'items',
    notFound: 'Regra de alerta não encontrada',
    duplicate: 'Já existe uma regra de alerta igual',
    schemas: {
      create: AlertRuleCreateSchema,
      update: AlertRuleUpdateSchema,
      query: AlertRuleQuerySchema,
      output: AlertRulePageSchema,
    },
    ...alertRuleQueries,
    toValues: (input) =>
      present(input as Input, [
        'clientId',
        'name',
        'type',
        'vehicleIds',
        'fleetIds',
        'params',
        'schedule',
        'active',
        'emailDelivery',
      ]),
    toOutput: (_d, rows) => rows.map(ruleOut),
    checkRefs: (c, input, clientId, existing) =>
      checkRule(deps, c, input as Input, clientId, existing as RuleRow | undefined),
  });
}
