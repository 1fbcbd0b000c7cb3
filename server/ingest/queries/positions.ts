/**
 * Positions and last locations. The ingest pipeline stores a batch of fixes of many
 * trackers in one transaction: the fixes (a repeated fix is ignored by its key) and each
 * tracker's last location, moved forward only when a newer fix arrives.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DeviceProtocol } from '../../../src/contract';
import { type Db, rowsOf } from '../../platform/db/client';
import {
  bareArray,
  booleanArray,
  jsonArray,
  numberArray,
  textArray,
} from '../../platform/db/pg-arrays';
import { fleets, lastLocations, trackers } from '../../schema';
import type { DeviceIdentity } from '../identity';
import {
  DayDeltas,
  dayDeltasStatement,
  engineStep,
  type LateFix,
  type OdometerPoint,
  odometerStep,
  placeLateFixes,
} from './odometer';

/** How a fix reached us: who can take commands back (only Wialon IPS has a downlink). */
export type Protocol = DeviceProtocol;

export interface TrackerRef {
  id: string;
  clientId: string;
  vehicleId: string | null;
}

/** A tracker as the ingest reads it: where its fixes go and how it proves who it is. */
export type IngestTracker = TrackerRef & DeviceIdentity;

export interface Fix {
  fixTime: Date;
  latitude: number;
  longitude: number;
  speed?: number | undefined;
  course?: number | undefined;
  altitude?: number | undefined;
  accuracy?: number | undefined;
  ignition?: boolean | undefined;
  battery?: number | undefined;
  driverRfid?: string | undefined;
  /**
   * False when the device has no GPS fix (Wialon IPS `NA` coordinates, OsmAnd `valid=false` or
   * cell/wifi only, flespi `position.valid=false`): its coordinates are missing (NaN) or a
   * stale or made-up place. Its telemetry is stored as a report at the tracker's last known
   * place (server/ingest/pipeline.ts), which it does not move.
   */
  valid?: boolean | undefined;
  attributes: Record<string, unknown>;
}

/** Active trackers by identifier, for a whole ingest batch in one query. */
export async function trackersByIdentifiers(
  db: Db,
  identifiers: string[],
): Promise<Map<string, TrackerRef>> {
  if (identifiers.length === 0) return new Map();
  const rows = await db
    .select({
      identifier: trackers.identifier,
      id: trackers.id,
      clientId: trackers.clientId,
      vehicleId: trackers.vehicleId,
    })
    .from(trackers)
    .where(
      and(
        inArray(trackers.identifier, identifiers),
        isNull(trackers.canceledAt),
        eq(trackers.active, true),
      ),
    );
  return new Map(rows.map(({ identifier, ...ref }) => [identifier, ref]));
}

/**
 * What a protocol with a login needs of a device: its tracker, its identity rules, and the
 * password its commands must carry (Queclink).
 */
export type DeviceLogin = IngestTracker & { commandPassword: string | null };

export async function deviceLogin(db: Db, identifier: string): Promise<DeviceLogin | undefined> {
  return (await deviceLogins(db, [identifier])).get(identifier);
}

/** The device logins of many identifiers in one query (a fleet reconnecting at once). */
export async function deviceLogins(
  db: Db,
  identifiers: string[],
): Promise<Map<string, DeviceLogin>> {
  if (identifiers.length === 0) return new Map();
  const rows = await db
    .select({
      identifier: trackers.identifier,
      id: trackers.id,
      clientId: trackers.clientId,
      vehicleId: trackers.vehicleId,
      protocol: trackers.protocol,
      passwordHash: trackers.devicePasswordHash,
      allowUnauthenticated: trackers.allowUnauthenticated,
      commandPassword: trackers.commandPassword,
    })
    .from(trackers)
    .where(
      and(
        inArray(trackers.identifier, identifiers),
        isNull(trackers.canceledAt),
        eq(trackers.active, true),
      ),
    );
  return new Map(rows.map(({ identifier, ...login }) => [identifier, login]));
}

export type LastFix = Pick<
  typeof lastLocations.$inferSelect,
  'latitude' | 'longitude' | 'fixTime' | 'odometer' | 'vehicleId' | 'lastReportAt'
>;

/** The stored last fix of each tracker, for a whole ingest batch in one query. */
export async function lastFixesOf(db: Db, trackerIds: string[]): Promise<Map<string, LastFix>> {
  if (trackerIds.length === 0) return new Map();
  const rows = await db
    .select({
      trackerId: lastLocations.trackerId,
      latitude: lastLocations.latitude,
      longitude: lastLocations.longitude,
      fixTime: lastLocations.fixTime,
      odometer: lastLocations.odometer,
      vehicleId: lastLocations.vehicleId,
      lastReportAt: lastLocations.lastReportAt,
    })
    .from(lastLocations)
    .where(inArray(lastLocations.trackerId, trackerIds));
  return new Map(rows.map(({ trackerId, ...fix }) => [trackerId, fix]));
}

/**
 * Active trackers by identifier and the stored last fix of each, for a whole ingest batch in
 * one query (one round trip before the batch's transaction).
 */
export async function trackersAndLastFixes(
  db: Db,
  identifiers: string[],
): Promise<{ trackers: Map<string, IngestTracker>; last: Map<string, LastFix> }> {
  const trackerMap = new Map<string, IngestTracker>();
  const last = new Map<string, LastFix>();
  if (identifiers.length === 0) return { trackers: trackerMap, last };
  const rows = rowsOf<{
    identifier: string;
    id: string;
    client_id: string;
    vehicle_id: string | null;
    protocol: string | null;
    password_hash: string | null;
    allow_unauthenticated: boolean;
    latitude: number | null;
    longitude: number | null;
    fix_time: Date | null;
    odometer: number | null;
    last_vehicle_id: string | null;
    last_report_at: Date | null;
  }>(
    await db.execute(sql`
      select t.identifier, t.id, t.client_id, t.vehicle_id, t.protocol,
             t.wialon_password_hash as password_hash, t.allow_unauthenticated,
             l.latitude, l.longitude, l.fix_time, l.odometer, l.vehicle_id as last_vehicle_id,
             l.last_report_at
        from trackers t left join last_locations l on l.tracker_id = t.id
       where t.identifier = any(${textArray(identifiers)}::text[])
         and t.canceled_at is null and t.active`),
  );
  for (const row of rows) {
    trackerMap.set(row.identifier, {
      id: row.id,
      clientId: row.client_id,
      vehicleId: row.vehicle_id,
      protocol: row.protocol,
      passwordHash: row.password_hash,
      allowUnauthenticated: row.allow_unauthenticated,
    });
    if (row.fix_time)
      last.set(row.id, {
        latitude: Number(row.latitude),
        longitude: Number(row.longitude),
        fixTime: new Date(row.fix_time),
        odometer: Number(row.odometer),
        vehicleId: row.last_vehicle_id,
        lastReportAt: row.last_report_at ? new Date(row.last_report_at) : null,
      });
  }
  return { trackers: trackerMap, last };
}

/**
 * Binds trackers that had no protocol yet to the one they were first heard on (a tracker
 * from before protocols were bound). One that got a protocol meanwhile keeps it.
 */
export async function bindProtocols(db: Db, first: Map<string, Protocol>): Promise<void> {
  if (first.size === 0) return;
  await db.execute(sql`
    update trackers t set protocol = x.protocol
      from unnest(${bareArray([...first.keys()])}::uuid[], ${textArray([...first.values()])}::text[])
        as x(id, protocol)
     where t.id = x.id and t.protocol is null`);
}

/**
 * The trackers' change counter (moved forward by any change to trackers: migration 0015);
 * undefined when its row is missing.
 */
export async function trackerVersion(db: Db): Promise<number | undefined> {
  const [row] = rowsOf<{ version: string | number }>(
    await db.execute(sql`select version from tracker_version where id = 1`),
  );
  return row ? Number(row.version) : undefined;
}

export interface TrackerFix {
  tracker: TrackerRef;
  fix: Fix;
  protocol?: Protocol | undefined;
  /**
   * The odometer adds nothing from the fix before this one (the jump filter found that one
   * wrong: server/ingest/jump-votes.ts).
   */
  restart?: boolean | undefined;
}

/** What `storeFixes` did to last locations, told after its commit (see watchLastFixes). */
export interface LastFixChanges {
  /** Trackers whose last location this batch moved, as it now is. */
  moved: Map<string, LastFix>;
  /** Trackers whose last location changed in a way not worked out here (read it again). */
  stale: string[];
}

const lastFixWatchers = new WeakMap<Db, Set<(changes: LastFixChanges) => void>>();

/**
 * Tells `watcher` what every `storeFixes` on this handle did to last locations, after its
 * commit (the only writer of last locations: server/ingest/tracker-cache.ts keeps them in
 * memory). Returns the function that stops it.
 */
export function watchLastFixes(db: Db, watcher: (changes: LastFixChanges) => void): () => void {
  let watchers = lastFixWatchers.get(db);
  if (!watchers) {
    watchers = new Set();
    lastFixWatchers.set(db, watchers);
  }
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/** What `storeFixes` did with the rows it was given. */
export interface StoreResult {
  /** Keys (`fixKey`) of the positions that were new. */
  inserted: Set<string>;
  /**
   * Keys of late fixes refused as impossible jumps from the stored fixes around them (a fix
   * back-dated into a tracker's past must agree with its neighbours, not only with the newest).
   */
  refused: Set<string>;
  /**
   * Keys whose time another, different position already holds: not stored, not a success.
   * The same fix sent again (a retransmission) is neither here nor in `inserted`.
   */
  conflicts: Set<string>;
}

/** The rules storeFixes applies to late fixes (INGEST_MAX_JUMP_KMH). */
export interface StoreRules {
  maxJumpKmh: number;
}

/**
 * Stores the fixes of many trackers in one transaction (group commit): the positions (a
 * repeated fix is ignored by its key) with their odometer and driver's tag, each tracker's last
 * location, moved forward only when a newer report arrives, and the per-day rollup. The rows
 * travel as one array per column unpacked by `unnest` (server/platform/db/pg-arrays.ts): one
 * statement whatever the batch size, no parameter limit, and the same on PGlite and node-postgres.
 * `before` is each tracker's last location as it was before this batch (read here when not
 * given).
 *
 * A report without GPS (`fix.valid === false`) is stored at the place of the fix before it
 * (its coordinates are set here for a late one) and moves the last location's readings and
 * `no_gps_since`, never its place or fix time. A late fix is checked against the stored fixes
 * around it (`rules`). A fix whose key was already stored is compared with the stored one: the
 * same place is a retransmission, another one a conflict (see StoreResult).
 */
export async function storeFixes(
  db: Db,
  rows: TrackerFix[],
  before?: Map<string, LastFix>,
  /** Work in the same transaction on the fixes that were new (the alert engine). */
  within?: (tx: Db, stored: TrackerFix[], receivedAt: Date) => Promise<void>,
  rules: StoreRules = { maxJumpKmh: Number.POSITIVE_INFINITY },
): Promise<StoreResult> {
  const result: StoreResult = { inserted: new Set(), refused: new Set(), conflicts: new Set() };
  const { inserted } = result;
  if (rows.length === 0) return result;
  const byTracker = new Map<string, TrackerFix[]>();
  for (const row of rows) {
    const list = byTracker.get(row.tracker.id);
    if (list) list.push(row);
    else byTracker.set(row.tracker.id, [row]);
  }
  const last = before ?? (await lastFixesOf(db, [...byTracker.keys()]));
  const receivedAt = new Date().toISOString();
  const changes: LastFixChanges = { moved: new Map(), stale: [] };
  await db.transaction(async (tx) => {
    const days = new DayDeltas();
    const records: PositionRecord[] = [];
    const newest: LastRecord[] = [];
    const shifts: { tracker_id: string; delta: number }[] = [];
    for (const [trackerId, list] of byTracker) {
      const planned = await planTracker(tx, trackerId, list, last.get(trackerId), days, rules);
      records.push(...planned.records);
      for (const key of planned.refused) result.refused.add(key);
      if (planned.newest) {
        newest.push(planned.newest.record);
        changes.moved.set(trackerId, planned.newest.last);
      }
      if (planned.shift) {
        shifts.push({ tracker_id: trackerId, delta: planned.shift });
        changes.stale.push(trackerId);
      }
    }
    // The day rollup and the positions in one statement (one round trip).
    const dayRows = dayDeltasStatement(days);
    // The keys stored come back as numbers (ms): parsing thousands of timestamps costs more.
    const stored = rowsOf<{ tracker_id: string; ms: number }>(
      await tx.execute(sql`
        ${dayRows ? sql`with days as (${dayRows})` : sql``}
        insert into positions (tracker_id, vehicle_id, client_id, fix_time, received_at,
          latitude, longitude, speed, course, altitude, accuracy, ignition, battery, attributes,
          odometer, driver_rfid, valid)
        select tracker_id, vehicle_id, client_id, fix_time, ${receivedAt}::timestamptz,
          latitude, longitude, speed, course, altitude, accuracy, ignition, battery, attributes,
          odometer, driver_rfid, valid
          from ${unnestPositions(records)}
        on conflict do nothing
        returning tracker_id, (extract(epoch from fix_time) * 1000)::float8 as ms`),
    );
    for (const row of stored) inserted.add(`${row.tracker_id}@${row.ms}`);
    await findConflicts(tx, rows, result);
    if (within) {
      // The first row of each new key (a batch may repeat a fix), in batch order.
      const fresh = new Set(inserted);
      const stored = rows.filter((row) => fresh.delete(fixKey(row.tracker.id, row.fix.fixTime)));
      await within(tx, stored, new Date(receivedAt));
    }
    // Last, so that the event-id lock is held from here to the commit only.
    if (shifts.length > 0) await shiftLastOdometers(tx, shifts);
    // A last location another writer had moved past this batch's newest report stays: then
    // which moved is not known here.
    if (newest.length > 0 && (await moveLastLocations(tx, newest)) !== newest.length) {
      changes.stale.push(...changes.moved.keys());
      changes.moved.clear();
    }
  });
  for (const watcher of lastFixWatchers.get(db) ?? []) watcher(changes);
  return result;

  /**
   * Each tracker's last location, moved forward only by a newer report (tracker order: no
   * deadlocks), numbered under the event-id lock, the batch listed in location_batches, and
   * a notice to the other processes. A report without GPS keeps the place, the fix time, the
   * speed and the course of the fix before it (those `record` carries, see planTracker).
   */
  async function moveLastLocations(tx: Tx, newest: LastRecord[]): Promise<number> {
    newest.sort((a, b) => (a.tracker_id < b.tracker_id ? -1 : 1));
    const [notified] = rowsOf<{ moved: number }>(
      await tx.execute(sql`
      with lock as materialized (${EVENT_ID_LOCK_SQL}),
      moved as (
        insert into last_locations as l (tracker_id, vehicle_id, client_id, fix_time,
          received_at, latitude, longitude, speed, course, ignition, battery, driver_rfid,
          protocol, odometer, no_gps_since, last_report_at, seq)
        select tracker_id, vehicle_id, client_id, fix_time, ${receivedAt}::timestamptz,
          latitude, longitude, speed, course, ignition, battery, driver_rfid, protocol, odometer,
          no_gps_since, last_report_at, nextval('last_location_seq')
          from lock, ${unnestLast(newest)}
        on conflict (tracker_id) do update set
          vehicle_id = excluded.vehicle_id, client_id = excluded.client_id,
          fix_time = excluded.fix_time, received_at = excluded.received_at,
          latitude = excluded.latitude, longitude = excluded.longitude,
          speed = case when excluded.fix_time = l.fix_time and excluded.no_gps_since is not null
            then l.speed else excluded.speed end,
          course = case when excluded.fix_time = l.fix_time and excluded.no_gps_since is not null
            then l.course else excluded.course end,
          ignition = case when excluded.no_gps_since is null then excluded.ignition
            else coalesce(excluded.ignition, l.ignition) end,
          battery = case when excluded.no_gps_since is null then excluded.battery
            else coalesce(excluded.battery, l.battery) end,
          driver_rfid = case when excluded.no_gps_since is null then excluded.driver_rfid
            else coalesce(excluded.driver_rfid, l.driver_rfid) end,
          protocol = coalesce(excluded.protocol, l.protocol), odometer = excluded.odometer,
          no_gps_since = case when excluded.fix_time = l.fix_time
            then coalesce(l.no_gps_since, excluded.no_gps_since) else excluded.no_gps_since end,
          last_report_at = excluded.last_report_at, seq = excluded.seq
        where coalesce(l.last_report_at, l.fix_time) < excluded.last_report_at
        returning l.tracker_id, l.seq),
      listed as (
        insert into location_batches (seq, first_seq, tracker_ids)
        select max(seq), min(seq), array_agg(tracker_id) from moved having count(*) > 0
        returning seq, cardinality(tracker_ids) as moved)
      select pg_notify(${LOCATIONS_CHANNEL}, seq::text), moved from listed`),
    );
    return notified?.moved ?? 0;
  }
}

/** Coordinates that tell a retransmission (the same fix) from another fix at the same time. */
const SAME_PLACE_DEGREES = 1e-6;

/**
 * Sorts the rows the insert did not store (and storeFixes did not refuse) into
 * retransmissions and conflicts, by the position stored under their key (in this transaction:
 * a repeat within the batch is compared with the row stored by the first). Reads only when
 * some row was not stored, which is rare.
 */
async function findConflicts(tx: Tx, rows: TrackerFix[], result: StoreResult) {
  // One pass with the keys seen so far: a batch holds thousands of fixes, and looking each
  // one's key up in the whole batch again made a history import quadratic (11 times slower).
  const seen = new Set<string>();
  const repeats = rows.filter((row) => {
    const key = fixKey(row.tracker.id, row.fix.fixTime);
    const first = !seen.has(key);
    seen.add(key);
    if (result.refused.has(key)) return false;
    if (!result.inserted.has(key)) return true;
    // Stored by the first row with this key; later ones with it are repeats.
    return !first;
  });
  if (repeats.length === 0) return;
  const held = rowsOf<{
    tracker_id: string;
    ms: number;
    latitude: number;
    longitude: number;
    valid: boolean | null;
  }>(
    await tx.execute(sql`
      select p.tracker_id, (extract(epoch from p.fix_time) * 1000)::float8 as ms,
             p.latitude, p.longitude, p.valid
        from positions p
        join unnest(${bareArray(repeats.map((r) => r.tracker.id))}::uuid[],
                    ${bareArray(repeats.map((r) => r.fix.fixTime.toISOString()))}::timestamptz[])
             as k(tracker_id, fix_time)
          on p.tracker_id = k.tracker_id and p.fix_time = k.fix_time`),
  );
  const byKey = new Map(held.map((h) => [`${h.tracker_id}@${h.ms}`, h]));
  for (const row of repeats) {
    const key = fixKey(row.tracker.id, row.fix.fixTime);
    const stored = byKey.get(key);
    if (!stored) continue;
    const noGps = row.fix.valid === false;
    const same =
      noGps === (stored.valid === false) &&
      (noGps ||
        (Math.abs(Number(stored.latitude) - row.fix.latitude) < SAME_PLACE_DEGREES &&
          Math.abs(Number(stored.longitude) - row.fix.longitude) < SAME_PLACE_DEGREES));
    if (!same) result.conflicts.add(key);
  }
}

/**
 * Late fixes moved these trackers' odometers: their last locations' move by as much. Under the
 * event-id lock (taken first, like every row lock on last_locations), so that two batches never
 * wait on each other in a circle.
 */
async function shiftLastOdometers(tx: Tx, shifts: { tracker_id: string; delta: number }[]) {
  await tx.execute(sql`
    with lock as materialized (${EVENT_ID_LOCK_SQL})
    update last_locations l set odometer = l.odometer + x.delta
      from lock, jsonb_to_recordset(${JSON.stringify(shifts)}::jsonb) as x(tracker_id uuid, delta float8)
     where l.tracker_id = x.tracker_id`);
}

/**
 * The channel of the notice "last locations changed, up to this event id", sent by the
 * transaction that changed them and delivered at its commit (server/realtime/feed.ts).
 */
export const LOCATIONS_CHANNEL = 'rastro_locations';
/** Advisory lock id held from numbering last locations to the commit (client.ts: 727_001…). */
const EVENT_ID_LOCK = 727_003;

/**
 * Event ids in commit order. A sequence alone gives numbers in the order they were taken, and
 * with several processes (or batches in flight) a batch numbered 10 could commit after one
 * numbered 11: a live stream that had read up to 11 would never see 10. Holding this lock from
 * numbering to commit makes every id of a committed batch smaller than any id taken after it,
 * so "every change after id N" is always complete. It is taken by the statement that writes
 * last locations, the last of the ingest transaction: held for that statement and the commit.
 * (A row of `lock` must be read before any row is written: the join makes sure of it.)
 */
const EVENT_ID_LOCK_SQL = sql.raw(`select pg_advisory_xact_lock(${EVENT_ID_LOCK}) as locked`);

/**
 * Trackers whose last location changed after event id `afterSeq`: the next `batches` batches
 * at most (whole batches, so that the cursor can move to the last one read), in event-id order,
 * each tracker once, with the event id of the newest batch read (`seq`, 0 when none).
 */
export async function changedSince(db: Db, afterSeq: number, batches: number) {
  const rows = rowsOf<{
    tracker_id: string;
    client_id: string;
    vehicle_id: string | null;
    seq: string | number;
  }>(
    await db.execute(sql`
      with b as (
        select seq, tracker_ids from location_batches
         where seq > ${afterSeq} order by seq limit ${batches}),
      changed as (
        select t.tracker_id, max(b.seq) as seq from b, unnest(b.tracker_ids) as t(tracker_id)
         group by t.tracker_id)
      select l.tracker_id, l.client_id, l.vehicle_id, c.seq
        from changed c join last_locations l on l.tracker_id = c.tracker_id
      union all
      select null, null, null, max(seq) from b
      order by seq`),
  );
  let seq = 0;
  const trackers: TrackerRef[] = [];
  for (const r of rows) {
    if (r.tracker_id === null) seq = Number(r.seq ?? 0);
    else trackers.push({ id: r.tracker_id, clientId: r.client_id, vehicleId: r.vehicle_id });
  }
  return { trackers, seq };
}

/** Batches after an event id read through location_batches at most; past it, rows are read. */
const LISTED_READ_LIMIT = 200;

/**
 * Whether the trackers changed after `afterSeq` are best found through location_batches: every
 * id after it is still listed (ids are not contiguous: a rolled-back batch leaves a gap, so
 * from the first id of the oldest listed batch on), and they are few (a stream that comes back after a long
 * absence reads its customers' rows by their event id instead).
 */
async function listedSince(db: Db, afterSeq: number): Promise<boolean> {
  const [row] = rowsOf<{ oldest: string | number | null; recent: string | number }>(
    await db.execute(sql`
      select (select first_seq from location_batches order by seq limit 1) as oldest,
             (select count(*) from (select 1 from location_batches where seq > ${afterSeq}
               limit ${LISTED_READ_LIMIT + 1}) x) as recent`),
  );
  if (row?.oldest === null || row?.oldest === undefined) return false;
  return afterSeq >= Number(row.oldest) - 1 && Number(row.recent) <= LISTED_READ_LIMIT;
}

/** How long location_batches keeps a batch by default (LOCATION_BATCHES_KEEP_MS). */
export const LOCATION_BATCHES_KEEP_MS = 3600_000;

/**
 * Forgets the batches older than `keepMs`: every batch before the oldest one younger than that
 * (what stays is all the batches after some id), always keeping the newest (it gives the
 * current event id). Returns how many were removed.
 */
export async function pruneLocationBatches(db: Db, keepMs = LOCATION_BATCHES_KEEP_MS) {
  const cutoff = new Date(Date.now() - keepMs).toISOString();
  const rows = rowsOf<{ seq: string }>(
    await db.execute(sql`
      delete from location_batches
       where seq < coalesce(
         (select min(seq) from location_batches where created_at >= ${cutoff}::timestamptz),
         (select max(seq) from location_batches))
      returning seq`),
  );
  return rows.length;
}

function record({ tracker, fix, protocol }: TrackerFix, odometer: number) {
  return {
    tracker_id: tracker.id,
    vehicle_id: tracker.vehicleId,
    client_id: tracker.clientId,
    fix_time: fix.fixTime.toISOString(),
    latitude: fix.latitude,
    longitude: fix.longitude,
    speed: fix.speed ?? null,
    course: fix.course ?? null,
    altitude: fix.altitude ?? null,
    accuracy: fix.accuracy ?? null,
    ignition: fix.ignition ?? null,
    battery: fix.battery ?? null,
    driver_rfid: fix.driverRfid ?? null,
    attributes: fix.attributes,
    protocol: protocol ?? null,
    odometer,
    valid: fix.valid === false ? false : null,
  };
}

type PositionRecord = ReturnType<typeof record>;

/** A last location as written: the newest report's readings at the newest fix's place. */
type LastRecord = PositionRecord & { no_gps_since: string | null; last_report_at: string };

/** The columns positions and last locations share, one array each, and their names. */
function commonColumns(records: PositionRecord[]) {
  const column = <K extends keyof PositionRecord>(key: K) => records.map((r) => r[key]);
  const arrays = sql`${bareArray(column('tracker_id'))}::uuid[],
    ${bareArray(column('vehicle_id'))}::uuid[], ${bareArray(column('client_id'))}::uuid[],
    ${bareArray(column('fix_time'))}::timestamptz[], ${numberArray(column('latitude'))}::float8[],
    ${numberArray(column('longitude'))}::float8[], ${numberArray(column('speed'))}::real[],
    ${numberArray(column('course'))}::real[], ${booleanArray(column('ignition'))}::boolean[],
    ${numberArray(column('battery'))}::real[], ${textArray(column('driver_rfid'))}::text[],
    ${numberArray(column('odometer'))}::float8[]`;
  const names = sql.raw(`tracker_id, vehicle_id, client_id, fix_time, latitude, longitude,
    speed, course, ignition, battery, driver_rfid, odometer`);
  return { arrays, names };
}

/** Positions as `unnest(…) as x(…)`, one array per column (server/platform/db/pg-arrays.ts). */
function unnestPositions(records: PositionRecord[]) {
  const { arrays, names } = commonColumns(records);
  return sql`unnest(${arrays}, ${numberArray(records.map((r) => r.altitude))}::real[],
    ${numberArray(records.map((r) => r.accuracy))}::real[],
    ${jsonArray(records.map((r) => r.attributes))}::jsonb[],
    ${booleanArray(records.map((r) => r.valid))}::boolean[])
    as x(${names}, altitude, accuracy, attributes, valid)`;
}

/** Last locations as `unnest(…) as x(…)`. */
function unnestLast(records: LastRecord[]) {
  const { arrays, names } = commonColumns(records);
  return sql`unnest(${arrays}, ${textArray(records.map((r) => r.protocol))}::text[],
    ${bareArray(records.map((r) => r.no_gps_since))}::timestamptz[],
    ${bareArray(records.map((r) => r.last_report_at))}::timestamptz[])
    as x(${names}, protocol, no_gps_since, last_report_at)`;
}

/**
 * One tracker's fixes of a batch, with their odometers: the late ones placed among the stored fixes
 * first (server/ingest/queries/odometer.ts, which also refuses those impossible from their stored
 * neighbours), then the newer ones continuing from the last location. A fix at the time of the last
 * location's newest report (or twice in the batch) is a repeat: the insert ignores it, so its
 * odometer does not matter. The last location is the newest report's readings at the newest fix's
 * place (see moveLastLocations).
 */
async function planTracker(
  tx: Tx,
  trackerId: string,
  list: TrackerFix[],
  last: LastFix | undefined,
  days: DayDeltas,
  rules: StoreRules,
) {
  const sorted = [...list].sort((a, b) => a.fix.fixTime.getTime() - b.fix.fixTime.getTime());
  const lastTime = (last?.lastReportAt ?? last?.fixTime)?.getTime() ?? Number.NEGATIVE_INFINITY;
  const late: (LateFix & { row: TrackerFix })[] = [];
  const fresh: TrackerFix[] = [];
  let seen = Number.NaN;
  for (const row of sorted) {
    const time = row.fix.fixTime.getTime();
    if (time === seen || time === lastTime) continue;
    seen = time;
    if (time < lastTime)
      late.push({
        row,
        time,
        latitude: row.fix.latitude,
        longitude: row.fix.longitude,
        speed: row.fix.speed,
        vehicleId: row.tracker.vehicleId,
        clientId: row.tracker.clientId,
        driverRfid: row.fix.driverRfid,
        noGps: row.fix.valid === false,
      });
    else fresh.push(row);
  }
  const placed = late.length
    ? await placeLateFixes(tx, trackerId, late, days, rules.maxJumpKmh)
    : { shift: 0, refused: [] };
  const refused = placed.refused.map((time) => `${trackerId}@${time}`);
  const records = late.flatMap((l) => {
    if (l.odometer === undefined) return [];
    // A late report without GPS is at the place placeLateFixes found before it.
    if (l.noGps)
      l.row.fix = { ...l.row.fix, latitude: l.latitude, longitude: l.longitude, speed: undefined };
    return [record(l.row, l.odometer)];
  });
  let previous: OdometerPoint | undefined = last
    ? {
        time: lastTime,
        latitude: last.latitude,
        longitude: last.longitude,
        vehicleId: last.vehicleId,
      }
    : undefined;
  let odometer = (last?.odometer ?? 0) + placed.shift;
  /** The newest fix with GPS of the fresh ones, and the first report without GPS after it. */
  let place: { row: TrackerFix; record: PositionRecord } | undefined;
  let noGpsSince: string | null = null;
  /** The newest report of the batch: the last location is built from it once, after the loop. */
  let final: { row: TrackerFix; stored: PositionRecord } | undefined;
  for (const row of fresh) {
    const point: OdometerPoint = {
      time: row.fix.fixTime.getTime(),
      latitude: row.fix.latitude,
      longitude: row.fix.longitude,
      vehicleId: row.tracker.vehicleId,
      speed: row.fix.speed,
    };
    const step = row.restart ? 0 : odometerStep(previous, point);
    odometer += step;
    // Late fixes add no engine time: the step they split was counted whole already.
    const engine = engineStep(previous, { ...point, ignition: row.fix.ignition });
    days.add(row.tracker.vehicleId, row.tracker.clientId, point.time, step, row.fix, engine);
    const stored = record(row, odometer);
    records.push(stored);
    if (row.fix.valid === false) noGpsSince ??= stored.fix_time;
    else {
      place = { row, record: stored };
      noGpsSince = null;
    }
    final = { row, stored };
    previous = point;
  }
  let newest: { record: LastRecord; last: LastFix } | undefined;
  if (final) {
    const { row, stored } = final;
    // Without a fix in this batch, the place is the last location's own: the upsert keeps it
    // (the same fix time), with its speed and course.
    const fixTime = place?.row.fix.fixTime ?? last?.fixTime ?? row.fix.fixTime;
    const at = place?.record ?? { ...stored, fix_time: fixTime.toISOString() };
    newest = {
      record: {
        ...stored,
        fix_time: at.fix_time,
        latitude: at.latitude,
        longitude: at.longitude,
        speed: at.speed,
        course: at.course,
        // A reading the newest report lacks is not gone: the fix's (or the stored one's).
        ignition: stored.ignition ?? place?.record.ignition ?? null,
        battery: stored.battery ?? place?.record.battery ?? null,
        driver_rfid: stored.driver_rfid ?? place?.record.driver_rfid ?? null,
        no_gps_since: noGpsSince,
        last_report_at: stored.fix_time,
      },
      last: {
        latitude: at.latitude,
        longitude: at.longitude,
        fixTime,
        odometer,
        vehicleId: row.tracker.vehicleId,
        lastReportAt: row.fix.fixTime,
      },
    };
  }
  return { records, newest, shift: placed.shift, refused };
}

/** A transaction of the one database handle. */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A position's key as the pipeline tracks it (storeFixes builds the same from the database). */
export const fixKey = (trackerId: string, fixTime: Date) => `${trackerId}@${fixTime.getTime()}`;

/** Only these ids, or nothing at all for an empty list; no filter when undefined. */
/** toISOString's form, written by the database (no date parsed and written again per row). */
const ISO_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';

/**
 * A last location with the names shown beside it (see lastLocationsWithNames), as the
 * database writes it: times as JavaScript's toISOString writes them, the event id as text.
 */
export interface NamedLastLocation {
  trackerId: string;
  clientId: string;
  latitude: number;
  longitude: number;
  speed: number | null;
  course: number | null;
  ignition: boolean | null;
  battery: number | null;
  fixTime: string;
  receivedAt: string;
  eventId: string;
  /** The vehicle, when it has one within the customers asked for. */
  vehicleId: string | null;
  vehicleName: string | null;
  plate: string | null;
  vehicleType: string | null;
  /** The driver whose tag the tracker read, within the location's own customer. */
  driver: string | null;
  /** That driver's CNH expired before today (São Paulo): at the wheel without a valid licence. */
  driverLicenseExpired: boolean;
  /** Since when it reports without a GPS fix (null: it has one). */
  noGpsSince: string | null;
}

/**
 * The last locations of these customers (narrowed by vehicles, trackers, time or event id),
 * in event-id order, with their vehicles and drivers — one statement, the ids travelling as
 * arrays (a round of 2,000 changes was three round trips and 2,000 parameters). A vehicle is
 * named only within the customers asked for, and a driver is matched by (customer, tag): the
 * customer of the location, never another one's driver (a tag is unique within a customer).
 */
export async function lastLocationsWithNames(
  db: Db,
  clientIds: string[],
  filter: {
    vehicleIds?: string[] | undefined;
    trackerIds?: string[] | undefined;
    receivedFrom?: Date | undefined;
    /** Only changes numbered after this event id (a live stream resuming). */
    afterSeq?: number | undefined;
  } = {},
): Promise<NamedLastLocation[]> {
  if (clientIds.length === 0) return [];
  const { afterSeq } = filter;
  const clients = sql`${bareArray(clientIds)}::uuid[]`;
  const conditions = [sql`l.client_id = any(${clients})`];
  const within = (column: string, ids: string[] | undefined) => {
    if (!ids) return;
    conditions.push(
      ids.length ? sql`${sql.raw(column)} = any(${bareArray(ids)}::uuid[])` : sql`false`,
    );
  };
  within('l.vehicle_id', filter.vehicleIds);
  within('l.tracker_id', filter.trackerIds);
  // Inclusive: a time of reception has milliseconds, and every row of one batch shares it. A
  // client resuming from the time of the last item it read must not lose that item's
  // batch-mates; one it has already read comes again, which a last location tolerates.
  if (filter.receivedFrom)
    conditions.push(sql`l.received_at >= ${filter.receivedFrom.toISOString()}::timestamptz`);
  if (afterSeq !== undefined) {
    conditions.push(sql`l.seq > ${afterSeq}`);
    // The trackers changed after it, found by the batches that list them, when they are all
    // still listed; else the event id of every row of these customers is read.
    if (await listedSince(db, afterSeq))
      conditions.push(sql`l.tracker_id in (select unnest(tracker_ids)
        from location_batches where seq > ${afterSeq})`);
  }
  return rowsOf<NamedLastLocation>(
    await db.execute(sql`
      select l.tracker_id as "trackerId", l.client_id as "clientId", l.latitude, l.longitude,
             l.speed, l.course, l.ignition, l.battery,
             to_char(l.fix_time at time zone 'UTC', ${ISO_FORMAT}) as "fixTime",
             to_char(l.received_at at time zone 'UTC', ${ISO_FORMAT}) as "receivedAt",
             l.seq::text as "eventId", v.id as "vehicleId", v.name as "vehicleName", v.plate,
             v.type as "vehicleType", nullif(d.complet_name, '') as driver,
             coalesce(d.license_expiry < to_char(now() at time zone 'America/Sao_Paulo',
               'YYYY-MM-DD'), false) as "driverLicenseExpired",
             to_char(l.no_gps_since at time zone 'UTC', ${ISO_FORMAT}) as "noGpsSince"
        from last_locations l
        left join vehicles v on v.id = l.vehicle_id and v.client_id = any(${clients})
        left join drivers d on d.client_id = l.client_id and d.rfid_code = nullif(l.driver_rfid, '')
              and d.canceled_at is null
       where ${sql.join(conditions, sql` and `)}
       order by l.seq`),
  );
}

/** The event id of the newest change of a last location (0 before the first). */
export async function currentSeq(db: Db): Promise<number> {
  // Before the first batch was listed (a database from before location_batches), the rows' own.
  const [row] = rowsOf<{ seq: string | number | null }>(
    await db.execute(sql`
      select coalesce((select max(seq) from location_batches),
        (select max(seq) from last_locations)) as seq`),
  );
  return Number(row?.seq ?? 0);
}

export async function fleetVehicleIds(
  db: Db,
  fleetIds: string[],
  clientIds: string[],
): Promise<string[]> {
  if (fleetIds.length === 0 || clientIds.length === 0) return [];
  const rows = await db
    .select({ ids: fleets.vehicleIds })
    .from(fleets)
    .where(
      and(
        inArray(fleets.id, fleetIds),
        inArray(fleets.clientId, clientIds),
        isNull(fleets.canceledAt),
      ),
    );
  return rows.flatMap((row) => row.ids);
}

/** Whether no position was ever stored (the demo's history is written only then). */
export async function noPositionsYet(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ found: boolean }>(
    await db.execute(sql`select exists(select 1 from positions) as found`),
  );
  return !row?.found;
}
