/**
 * The engine's configuration per customer, in memory: its rules (and those of the companies
 * above it), geofences in a spatial index, vehicles' associations and names. A database
 * counter (alert_config_version, moved by triggers on every table it is built from) is read
 * once per batch; when it moved, every customer is reloaded on its next use — so a rule or a
 * geofence changed by any process applies to the next batch of every process.
 */
import { ALERT_TYPES, type AlertType, type RestrictionType } from '../../src/contract';
import type { Window } from '../../src/lib/schedule';
import { GeofenceIndex, type IndexedGeofence, shapeOf } from '../geofences/spatial-index';
import type { Db } from '../platform/db/client';
import type { CompiledAssociation, CompiledRule, VehicleContext } from './evaluate';
import { type CustomerConfigRows, loadCustomerConfig } from './queries/alert-engine';

interface RuleScope {
  rule: CompiledRule;
  /** Explicit vehicles (their own and their fleets'), or null for every vehicle. */
  vehicles: Set<string> | null;
}

export interface CustomerConfig {
  clientId: string;
  version: number;
  index: GeofenceIndex;
  rules: RuleScope[];
  associations: Map<string, CompiledAssociation[]>;
  vehicles: Map<string, { plate: string; name: string }>;
  contexts: Map<string, VehicleContext>;
}

const TYPES = new Set<string>(ALERT_TYPES);

function compileRule(row: CustomerConfigRows['rules'][number]): CompiledRule | undefined {
  if (!TYPES.has(row.type)) return undefined;
  const params = row.params ?? {};
  const ids = (params as { geofenceIds?: unknown }).geofenceIds;
  return {
    id: row.id,
    name: row.name,
    type: row.type as AlertType,
    params,
    schedule: row.schedule ?? null,
    emailDelivery: row.emailDelivery,
    geofenceIds: Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [],
  };
}

export function compileConfig(
  clientId: string,
  version: number,
  rows: CustomerConfigRows,
  hysteresis: number,
): CustomerConfig {
  const geofences: IndexedGeofence[] = [];
  for (const g of rows.geofences) {
    const shape = shapeOf(g.geometry);
    if (shape) geofences.push({ id: g.id, name: g.name, speedLimit: g.speedLimit, shape });
  }
  const rules: RuleScope[] = [];
  for (const row of rows.rules) {
    const rule = compileRule(row);
    if (!rule) continue;
    const explicit = row.vehicleIds.length > 0 || row.fleetIds.length > 0;
    const vehicles = explicit
      ? new Set([...row.vehicleIds, ...row.fleetIds.flatMap((id) => rows.fleets.get(id) ?? [])])
      : null;
    rules.push({ rule, vehicles });
  }
  const associations = new Map<string, CompiledAssociation[]>();
  for (const a of rows.associations) {
    const interval = a.restrictionType.endsWith('_INTERVAL') && a.startTime && a.endTime;
    const window: Window | null = interval
      ? { weekdays: a.weekdays, startTime: a.startTime ?? '00:00', endTime: a.endTime ?? '00:00' }
      : null;
    const list = associations.get(a.vehicleId) ?? [];
    list.push({
      id: a.id,
      geofenceId: a.geofenceId,
      kind: a.restrictionType as RestrictionType,
      window,
    });
    associations.set(a.vehicleId, list);
  }
  return {
    clientId,
    version,
    index: new GeofenceIndex(geofences, hysteresis),
    rules,
    associations,
    vehicles: new Map(rows.vehicles.map((v) => [v.id, { plate: v.plate, name: v.name }])),
    contexts: new Map(),
  };
}

/** The rules, associations and geofences that apply to one vehicle (memoised). */
export function contextOf(config: CustomerConfig, vehicleId: string, hysteresis: number) {
  let context = config.contexts.get(vehicleId);
  if (!context) {
    context = {
      vehicleId,
      clientId: config.clientId,
      rules: config.rules
        .filter((scope) => scope.vehicles === null || scope.vehicles.has(vehicleId))
        .map((scope) => scope.rule),
      associations: config.associations.get(vehicleId) ?? [],
      index: config.index,
      hysteresis,
    };
    config.contexts.set(vehicleId, context);
  }
  return context;
}

export function createConfigCache(hysteresis: number) {
  const cache = new Map<string, CustomerConfig>();
  return {
    async get(db: Db, clientId: string, version: number): Promise<CustomerConfig> {
      const known = cache.get(clientId);
      if (known && known.version === version) return known;
      const config = compileConfig(
        clientId,
        version,
        await loadCustomerConfig(db, clientId),
        hysteresis,
      );
      cache.set(clientId, config);
      return config;
    },
    /** What is cached for a customer, whatever its version. */
    peek: (clientId: string) => cache.get(clientId),
    clear: () => cache.clear(),
  };
}
export type ConfigCache = ReturnType<typeof createConfigCache>;
