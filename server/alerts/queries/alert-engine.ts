/**
 * The alert engine's SQL (server/alerts/engine.ts): the configuration it caches per customer,
 * the per-vehicle state it reads and writes under a row lock, the alerts it stores (once per
 * dedupe key) and the e-mail outbox it fills. Every function takes the transaction it runs in:
 * the engine works inside the ingest transaction, so that positions, state and alerts commit
 * together or not at all.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../platform/db/client';
import {
  bareArray,
  booleanArray,
  jsonArray,
  numberArray,
  textArray,
} from '../../platform/db/pg-arrays';
import { fleets, geofences, geofenceVehicles, vehicles } from '../../schema';
import { ancestorIds } from '../../tenancy/queries';
import { alertConfigVersion, alertMailOutbox, alertRules } from '../schema';

export async function configVersion(db: Db): Promise<number> {
  const [row] = await db
    .select({ version: alertConfigVersion.version })
    .from(alertConfigVersion)
    .where(eq(alertConfigVersion.id, 1));
  return Number(row?.version ?? 0);
}

export type RuleRow = typeof alertRules.$inferSelect;
export type GeofenceRow = typeof geofences.$inferSelect;
export type AssociationRow = typeof geofenceVehicles.$inferSelect;

/** What the engine needs to evaluate the vehicles of one customer. */
export async function loadCustomerConfig(db: Db, clientId: string) {
  const chain = await ancestorIds(db, clientId);
  // One after another: inside a transaction they share one connection.
  const rules = await db
    .select()
    .from(alertRules)
    .where(
      and(
        inArray(alertRules.clientId, chain),
        isNull(alertRules.canceledAt),
        eq(alertRules.active, true),
      ),
    );
  const fences = await db
    .select()
    .from(geofences)
    .where(and(inArray(geofences.clientId, chain), isNull(geofences.canceledAt)));
  const associations = await db
    .select({ association: geofenceVehicles })
    .from(geofenceVehicles)
    .innerJoin(vehicles, eq(vehicles.id, geofenceVehicles.vehicleId))
    .where(eq(vehicles.clientId, clientId));
  const names = await db
    .select({ id: vehicles.id, plate: vehicles.plate, name: vehicles.name })
    .from(vehicles)
    .where(eq(vehicles.clientId, clientId));
  const fleetIds = [...new Set(rules.flatMap((rule) => rule.fleetIds))];
  const fleetRows = fleetIds.length
    ? await db
        .select({ id: fleets.id, vehicleIds: fleets.vehicleIds })
        .from(fleets)
        .where(and(inArray(fleets.id, fleetIds), isNull(fleets.canceledAt)))
    : [];
  return {
    chain,
    rules,
    geofences: fences,
    associations: associations.map((row) => row.association),
    vehicles: names,
    fleets: new Map(fleetRows.map((f) => [f.id, f.vehicleIds])),
  };
}
export type CustomerConfigRows = Awaited<ReturnType<typeof loadCustomerConfig>>;

/**
 * Locks the state rows of these vehicles (created empty when missing) and returns them, with
 * the configuration counter: one statement (two for vehicles seen for the first time), in
 * vehicle order so that two processes never wait on each other in a circle.
 *
 * `rowLocks` false (PGlite: one backend, owned by one process, whose transactions run one
 * after another) reads them without `for update`: there is nobody to wait for, and a row lock
 * is a write of every row (measured here: half the ingest throughput on PGlite with it).
 */
export async function lockStates(
  db: Db,
  vehicleIds: string[],
  rowLocks = true,
): Promise<{ states: Map<string, Record<string, unknown>>; version: number }> {
  if (vehicleIds.length === 0) return { states: new Map(), version: await configVersion(db) };
  const sorted = [...vehicleIds].sort();
  const ids = `{${sorted.join(',')}}`;
  // Rows that exist are locked as they are (no new row version); only missing ones, a
  // vehicle's first fix, are created — with an upsert that also locks one created meanwhile by
  // another process.
  const existing = rowsOf<{
    vehicle_id: string;
    state: Record<string, unknown>;
    version: string | number;
  }>(
    await db.execute(sql`
      with locked as (
        select vehicle_id, state from alert_states
         where vehicle_id = any(${ids}::uuid[]) order by vehicle_id
         ${rowLocks ? sql`for update` : sql``})
      select locked.vehicle_id, locked.state, v.version
        from (select version from alert_config_version where id = 1) v
        left join locked on true`),
  );
  const version = Number(existing[0]?.version ?? 0);
  const states = new Map<string, Record<string, unknown>>();
  for (const row of existing) if (row.vehicle_id) states.set(row.vehicle_id, row.state ?? {});
  const missing = sorted.filter((id) => !states.has(id));
  if (missing.length === 0) return { states, version };
  const created = rowsOf<{ vehicle_id: string; state: Record<string, unknown> }>(
    await db.execute(sql`
      insert into alert_states as s (vehicle_id, state)
      select id, '{}'::jsonb from unnest(${`{${missing.join(',')}}`}::uuid[]) as id
      order by id
      on conflict (vehicle_id) do update set vehicle_id = excluded.vehicle_id
      returning s.vehicle_id, s.state`),
  );
  for (const row of created) states.set(row.vehicle_id, row.state ?? {});
  return { states, version };
}

export async function writeStates(db: Db, states: Map<string, unknown>): Promise<void> {
  if (states.size === 0) return;
  const ids = [...states.keys()];
  await db.execute(sql`
    update alert_states as s set state = x.state, updated_at = now()
      from unnest(${bareArray(ids)}::uuid[], ${jsonArray([...states.values()])}::jsonb[])
        as x(vehicle_id, state)
     where s.vehicle_id = x.vehicle_id`);
}

/** The stored fix of each vehicle just before a moment (where a late black box starts). */
export async function fixesBefore(
  db: Db,
  wanted: { vehicleId: string; before: Date }[],
): Promise<
  Map<
    string,
    {
      fixTime: Date;
      receivedAt: Date;
      latitude: number;
      longitude: number;
      speed: number | null;
      ignition: boolean | null;
      battery: number | null;
      accuracy: number | null;
      attributes: Record<string, unknown> | null;
    }
  >
> {
  if (wanted.length === 0) return new Map();
  const rows = rowsOf<{
    vehicle_id: string;
    fix_time: string | Date;
    received_at: string | Date;
    latitude: number;
    longitude: number;
    speed: number | null;
    ignition: boolean | null;
    battery: number | null;
    accuracy: number | null;
    attributes: Record<string, unknown> | null;
  }>(
    await db.execute(sql`
      select x.vehicle_id, p.fix_time, p.received_at, p.latitude, p.longitude, p.speed,
             p.ignition, p.battery, p.accuracy, p.attributes
        from jsonb_to_recordset(${JSON.stringify(
          wanted.map((w) => ({ vehicle_id: w.vehicleId, before: w.before.toISOString() })),
        )}::jsonb) as x(vehicle_id uuid, before timestamptz)
        cross join lateral (
          select * from positions
           where positions.vehicle_id = x.vehicle_id and positions.fix_time < x.before
           order by positions.fix_time desc limit 1
        ) p`),
  );
  return new Map(
    rows.map((row) => [
      row.vehicle_id,
      {
        fixTime: new Date(row.fix_time),
        receivedAt: new Date(row.received_at),
        latitude: Number(row.latitude),
        longitude: Number(row.longitude),
        speed: row.speed === null ? null : Number(row.speed),
        ignition: row.ignition,
        battery: row.battery === null ? null : Number(row.battery),
        accuracy: row.accuracy === null ? null : Number(row.accuracy),
        attributes: row.attributes,
      },
    ]),
  );
}

export interface NewAlert {
  clientId: string;
  /** Null when the alert is about a driver (then driverId): a driver's document expiring. */
  vehicleId: string | null;
  driverId?: string | null | undefined;
  ruleId: string | null;
  type: string;
  geofenceId: string | null;
  latitude: number | null;
  longitude: number | null;
  speed: number | null;
  fixTime: Date | null;
  late: boolean;
  dedupeKey: string;
  details: Record<string, unknown>;
}

/**
 * Stores alerts; one whose dedupe key is already stored (the same cause seen again, here or
 * in another process) is skipped. Returns the new ones with their id and times.
 */
export async function insertAlerts(
  db: Db,
  list: NewAlert[],
): Promise<Map<string, { id: string; createdAt: Date; updatedAt: Date }>> {
  if (list.length === 0) return new Map();
  const column = <T>(pick: (a: NewAlert) => T) => list.map(pick);
  const stored = rowsOf<{
    id: string;
    dedupe_key: string;
    created_at: string | Date;
    updated_at: string | Date;
  }>(
    await db.execute(sql`
      insert into alerts (client_id, vehicle_id, driver_id, rule_id, type, geofence_id,
        latitude, longitude, speed, fix_time, late, dedupe_key, details)
      select client_id, vehicle_id, driver_id, rule_id, type, geofence_id, latitude, longitude,
             speed, fix_time, late, dedupe_key, details
        from unnest(${bareArray(column((a) => a.clientId))}::uuid[],
          ${bareArray(column((a) => a.vehicleId))}::uuid[],
          ${bareArray(column((a) => a.driverId ?? null))}::uuid[],
          ${bareArray(column((a) => a.ruleId))}::uuid[],
          ${textArray(column((a) => a.type))}::text[],
          ${bareArray(column((a) => a.geofenceId))}::uuid[],
          ${numberArray(column((a) => a.latitude))}::float8[],
          ${numberArray(column((a) => a.longitude))}::float8[],
          ${numberArray(column((a) => a.speed))}::real[],
          ${bareArray(column((a) => a.fixTime?.toISOString()))}::timestamptz[],
          ${booleanArray(column((a) => a.late))}::boolean[],
          ${textArray(column((a) => a.dedupeKey))}::text[],
          ${jsonArray(column((a) => a.details))}::jsonb[])
          as x(client_id, vehicle_id, driver_id, rule_id, type, geofence_id, latitude,
            longitude, speed, fix_time, late, dedupe_key, details)
      on conflict (dedupe_key) do nothing
      returning id, dedupe_key, created_at, updated_at`),
  );
  return new Map(
    stored.map((row) => [
      row.dedupe_key,
      { id: row.id, createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at) },
    ]),
  );
}

/** E-mails to send: one outbox row per alert, grouped later by rule and minute. */
export async function enqueueMail(
  db: Db,
  rows: { alertId: string; ruleId: string; createdAt: Date }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(alertMailOutbox).values(
    rows.map((row) => ({
      alertId: row.alertId,
      ruleId: row.ruleId,
      minute: new Date(Math.floor(row.createdAt.getTime() / 60_000) * 60_000),
    })),
  );
}

/** Active rules of one type, every customer (the periodic checks). */
export async function activeRulesOfType(db: Db, type: string): Promise<RuleRow[]> {
  return db
    .select()
    .from(alertRules)
    .where(
      and(eq(alertRules.type, type), eq(alertRules.active, true), isNull(alertRules.canceledAt)),
    );
}

/**
 * Vehicles a rule covers whose newest fix is older than `before`: its explicit vehicles and
 * fleets, or (both empty) every vehicle of its customer and the companies below.
 */
export async function silentVehicles(
  db: Db,
  rule: Pick<RuleRow, 'clientId' | 'vehicleIds' | 'fleetIds'>,
  before: Date,
) {
  const everyone = rule.vehicleIds.length === 0 && rule.fleetIds.length === 0;
  const chosen = everyone
    ? sql`v.client_id in (
        with recursive tree(id) as (
          select id from clients where id = ${rule.clientId}
          union all select c.id from clients c join tree t on c.parent_id = t.id)
        select id from tree)`
    : sql`(v.id = any(${`{${rule.vehicleIds.join(',')}}`}::uuid[]) or v.id in (
        select unnest(f.vehicle_ids) from fleets f
         where f.id = any(${`{${rule.fleetIds.join(',')}}`}::uuid[]) and f.canceled_at is null))`;
  return rowsOf<{
    vehicle_id: string;
    client_id: string;
    plate: string;
    name: string;
    fix_time: string | Date;
    latitude: number;
    longitude: number;
    speed: number | null;
  }>(
    await db.execute(sql`
      select v.id as vehicle_id, v.client_id, v.plate, v.name, l.fix_time, l.latitude,
             l.longitude, l.speed
        from vehicles v
        cross join lateral (
          select fix_time, latitude, longitude, speed from last_locations
           where last_locations.vehicle_id = v.id order by fix_time desc limit 1
        ) l
       where v.canceled_at is null and ${chosen}
         and l.fix_time < ${before.toISOString()}::timestamptz`),
  ).map((row) => ({
    vehicleId: row.vehicle_id,
    clientId: row.client_id,
    plate: row.plate,
    name: row.name,
    fixTime: new Date(row.fix_time),
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    speed: row.speed === null ? null : Number(row.speed),
  }));
}

/**
 * The live vehicles a rule covers: its explicit vehicles and fleets, or (both empty) every
 * vehicle of its customer and the companies below; with the customers of that subtree.
 */
export async function ruleScope(
  db: Db,
  rule: Pick<RuleRow, 'clientId' | 'vehicleIds' | 'fleetIds'>,
): Promise<{ clientIds: string[]; vehicleIds: Set<string> }> {
  const clientIds = rowsOf<{ id: string }>(
    await db.execute(sql`
      with recursive tree(id) as (
        select id from clients where id = ${rule.clientId}
        union all select c.id from clients c join tree t on c.parent_id = t.id)
      select id from tree`),
  ).map((row) => row.id);
  const everyone = rule.vehicleIds.length === 0 && rule.fleetIds.length === 0;
  const chosen = everyone
    ? sql`true`
    : sql`(v.id = any(${`{${rule.vehicleIds.join(',')}}`}::uuid[]) or v.id in (
        select unnest(f.vehicle_ids) from fleets f
         where f.id = any(${`{${rule.fleetIds.join(',')}}`}::uuid[]) and f.canceled_at is null))`;
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select v.id from vehicles v
       where v.canceled_at is null and v.client_id = any(${`{${clientIds.join(',')}}`}::uuid[])
         and ${chosen}`),
  );
  return { clientIds, vehicleIds: new Set(rows.map((row) => row.id)) };
}

/** A vehicle's customer, names and newest fix (for alerts not raised by a fix). */
/** The vehicle a tracker is installed in now, if any. */
export async function vehicleOfTracker(db: Db, trackerId: string): Promise<string | undefined> {
  const [row] = rowsOf<{ vehicle_id: string | null }>(
    await db.execute(sql`select vehicle_id from trackers where id = ${trackerId}`),
  );
  return row?.vehicle_id ?? undefined;
}

export async function vehicleNow(db: Db, vehicleId: string) {
  const [row] = rowsOf<{
    client_id: string;
    plate: string;
    name: string;
    fix_time: string | Date | null;
    latitude: number | null;
    longitude: number | null;
    speed: number | null;
  }>(
    await db.execute(sql`
      select v.client_id, v.plate, v.name, l.fix_time, l.latitude, l.longitude, l.speed
        from vehicles v
        left join lateral (
          select fix_time, latitude, longitude, speed from last_locations
           where last_locations.vehicle_id = v.id order by fix_time desc limit 1
        ) l on true
       where v.id = ${vehicleId}`),
  );
  if (!row) return undefined;
  return {
    clientId: row.client_id,
    plate: row.plate,
    name: row.name,
    fixTime: row.fix_time ? new Date(row.fix_time) : null,
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    speed: row.speed === null ? null : Number(row.speed),
  };
}
