/**
 * What reports read. Positions are read a day at a time, packed by the database into one text
 * per day (fields and records split by the ASCII unit and record separators, which ingest never
 * stores), so a month of fixes at one every 10 s (268,000) crosses the driver as 31 values
 * instead of 268,000 rows, each query stays short (the embedded database shares the event loop)
 * and the result is column arrays, not objects. Distances per day come from the rollup
 * (vehicle_days) and the odometer of single fixes, never from scanning positions.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../platform/db/client';
import { drivers, reportRequests, tripSettings, vehicles } from '../../schema';
import { emptySamples, type Samples } from '../motion';

const DAY_MS = 86_400_000;
/**
 * Between two days, a turn of the event loop: the embedded database answers through promises
 * that settle at once, so without it a month's queries would run as one long block, holding
 * up ingest, the API and the live stream.
 */
const yieldToLoop = () => new Promise((resolve) => setImmediate(resolve));
const FIELD = '\u001f';
const RECORD = '\u001e';

/**
 * A vehicle as its history is read: its id and the customers whose records of it the reader
 * may see. Every position, day, alert and command is stamped with the customer that owned the
 * vehicle when it was recorded; a vehicle moved to another customer keeps its past with the
 * old one, so a reader sees only the records made while the vehicle was within their reach.
 */
export interface HistorySubject {
  id: string;
  owners: readonly string[];
  /** Whether the reader may see who drove (a Terceiro sees no driver, here as anywhere). */
  driverNames: boolean;
}

/** The customers as one array parameter (`= any(…)`). */
const ownersOf = (owners: readonly string[]) => `{${owners.join(',')}}`;

/** Appends a vehicle's fixes in [from, to) to `samples`, one query per day. */
export async function appendSamples(
  db: Db,
  samples: Samples,
  vehicle: HistorySubject,
  from: number,
  to: number,
): Promise<void> {
  const trackerIndex = new Map(samples.trackers.map((t, i) => [t, i]));
  const rfidIndex = new Map(samples.rfids.map((t, i) => [t, i]));
  for (let start = from; start < to; start += DAY_MS) {
    if (start > from) await yieldToLoop();
    const end = Math.min(to, start + DAY_MS);
    const [row] = rowsOf<{ packed: string | null }>(
      await db.execute(sql`
        select string_agg(concat_ws(chr(31),
            (extract(epoch from fix_time) * 1000)::bigint, latitude, longitude,
            coalesce(speed::text, ''), coalesce(course::text, ''),
            case when ignition then '1' when not ignition then '0' else '' end,
            odometer, tracker_id, coalesce(driver_rfid, '')), chr(30) order by fix_time) as packed
          from positions
         where vehicle_id = ${vehicle.id} and client_id = any(${ownersOf(vehicle.owners)}::uuid[])
           and fix_time >= ${new Date(start).toISOString()}::timestamptz
           and fix_time < ${new Date(end).toISOString()}::timestamptz`),
    );
    if (!row?.packed) continue;
    for (const record of row.packed.split(RECORD)) {
      const f = record.split(FIELD);
      samples.time.push(Number(f[0]));
      samples.lat.push(Number(f[1]));
      samples.lon.push(Number(f[2]));
      samples.speed.push(f[3] ? Number(f[3]) : Number.NaN);
      samples.course.push(f[4] ? Number(f[4]) : Number.NaN);
      samples.ignition.push(f[5] === '1' ? 1 : f[5] === '0' ? 0 : -1);
      samples.odometer.push(Number(f[6]));
      const tracker = f[7] ?? '';
      let t = trackerIndex.get(tracker);
      if (t === undefined) {
        t = samples.trackers.push(tracker) - 1;
        trackerIndex.set(tracker, t);
      }
      samples.tracker.push(t);
      const tag = f[8] ?? '';
      let r = -1;
      if (tag) {
        r = rfidIndex.get(tag) ?? -1;
        if (r < 0) {
          r = samples.rfids.push(tag) - 1;
          rfidIndex.set(tag, r);
        }
      }
      samples.rfid.push(r);
    }
  }
}

export async function loadSamples(db: Db, vehicle: HistorySubject, from: number, to: number) {
  const samples = emptySamples();
  await appendSamples(db, samples, vehicle, from, to);
  return samples;
}

/** Whether the vehicle has a fix at or after `instant` (more data to read ahead). */
export async function hasFixAfter(
  db: Db,
  vehicle: HistorySubject,
  instant: number,
): Promise<boolean> {
  const [row] = rowsOf<{ found: boolean }>(
    await db.execute(sql`
      select exists(select 1 from positions where vehicle_id = ${vehicle.id}
        and client_id = any(${ownersOf(vehicle.owners)}::uuid[])
        and fix_time >= ${new Date(instant).toISOString()}::timestamptz) as found`),
  );
  return Boolean(row?.found);
}

/**
 * Each vehicle's last fix before an instant (its tracker and odometer): two of these give the
 * distance of any period. One statement for all the vehicles.
 */
export async function odometersAt(
  db: Db,
  vehicleIds: string[],
  owners: readonly string[],
  instant: Date,
): Promise<Map<string, { trackerId: string; odometer: number; fixTime: Date }>> {
  if (vehicleIds.length === 0) return new Map();
  const rows = rowsOf<{
    vehicle_id: string;
    tracker_id: string | null;
    odometer: number | null;
    fix_time: string | Date | null;
  }>(
    await db.execute(sql`
      select v.id as vehicle_id, p.tracker_id, p.odometer, p.fix_time
        from unnest(${`{${vehicleIds.join(',')}}`}::uuid[]) as v(id)
        left join lateral (
          select tracker_id, odometer, fix_time from positions
           where vehicle_id = v.id and client_id = any(${ownersOf(owners)}::uuid[])
             and fix_time < ${instant.toISOString()}::timestamptz
           order by fix_time desc limit 1) p on true`),
  );
  const out = new Map<string, { trackerId: string; odometer: number; fixTime: Date }>();
  for (const row of rows)
    if (row.tracker_id && row.fix_time)
      out.set(row.vehicle_id, {
        trackerId: row.tracker_id,
        odometer: Number(row.odometer),
        fixTime: new Date(row.fix_time),
      });
  return out;
}

export interface DayRow {
  vehicleId: string;
  day: string;
  distance: number;
  fixes: number;
  maxSpeed: number | null;
  firstFix: Date;
  lastFix: Date;
  driverRfids: string[];
}

/**
 * The rollup rows of these vehicles from `fromDay` to `toDay` (inclusive), of the days (or
 * the part of a day) they belonged to one of `owners`: one row per vehicle and day.
 */
export async function vehicleDaysOf(
  db: Db,
  vehicleIds: string[],
  owners: readonly string[],
  fromDay: string,
  toDay: string,
): Promise<DayRow[]> {
  if (vehicleIds.length === 0) return [];
  const rows = rowsOf<{
    vehicle_id: string;
    day: string;
    distance: number;
    fixes: number;
    max_speed: number | null;
    first_fix: string | Date;
    last_fix: string | Date;
    driver_rfids: string[] | string;
  }>(
    await db.execute(sql`
      select vehicle_id, day, distance, fixes, max_speed, first_fix, last_fix, driver_rfids
        from vehicle_days
       where vehicle_id = any(${`{${vehicleIds.join(',')}}`}::uuid[])
         and client_id = any(${ownersOf(owners)}::uuid[])
         and day >= ${fromDay} and day <= ${toDay}
       order by vehicle_id, day`),
  );
  const out: DayRow[] = [];
  for (const r of rows) {
    const row: DayRow = {
      vehicleId: r.vehicle_id,
      day: r.day,
      distance: Number(r.distance),
      fixes: Number(r.fixes),
      maxSpeed: r.max_speed === null ? null : Number(r.max_speed),
      firstFix: new Date(r.first_fix),
      lastFix: new Date(r.last_fix),
      driverRfids: parseTextArray(r.driver_rfids),
    };
    const previous = out.at(-1);
    // The day a vehicle changed owners, when the reader may see both: one day.
    if (previous && previous.vehicleId === row.vehicleId && previous.day === row.day) {
      previous.distance += row.distance;
      previous.fixes += row.fixes;
      if (row.maxSpeed !== null)
        previous.maxSpeed = Math.max(previous.maxSpeed ?? row.maxSpeed, row.maxSpeed);
      if (row.firstFix < previous.firstFix) previous.firstFix = row.firstFix;
      if (row.lastFix > previous.lastFix) previous.lastFix = row.lastFix;
      previous.driverRfids = [...new Set([...previous.driverRfids, ...row.driverRfids])];
    } else out.push(row);
  }
  return out;
}

/** node-postgres parses text[]; PGlite may hand back the literal. */
function parseTextArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, '');
  return inner ? inner.split(',').map((s) => s.replace(/^"|"$/g, '')) : [];
}

/** The days on which a driver's tag was read in the vehicles of these customers. */
export async function daysWithDriver(
  db: Db,
  clientIds: string[],
  rfid: string,
  fromDay: string,
  toDay: string,
): Promise<{ vehicleId: string; day: string }[]> {
  if (clientIds.length === 0) return [];
  return rowsOf<{ vehicle_id: string; day: string }>(
    await db.execute(sql`
      select distinct vehicle_id, day from vehicle_days
       where client_id = any(${`{${clientIds.join(',')}}`}::uuid[])
         and day >= ${fromDay} and day <= ${toDay} and ${rfid} = any(driver_rfids)
       order by vehicle_id, day`),
  ).map((r) => ({ vehicleId: r.vehicle_id, day: r.day }));
}

/**
 * A vehicle's positions in [from, to) as JSON texts, one per day (the database builds them):
 * each position on its own line, every attribute, the driver's name by (customer, tag).
 */
export async function* positionLines(
  db: Db,
  vehicle: HistorySubject,
  from: number,
  to: number,
): AsyncGenerator<string> {
  for (let start = from; start < to; start += DAY_MS) {
    if (start > from) await yieldToLoop();
    const end = Math.min(to, start + DAY_MS);
    const [row] = rowsOf<{ lines: string | null }>(
      await db.execute(sql`
        select string_agg(json_build_object(
            'fixTime', to_char(p.fix_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'receivedAt', to_char(p.received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'trackerId', p.tracker_id, 'latitude', p.latitude, 'longitude', p.longitude,
            'speed', p.speed, 'course', p.course, 'altitude', p.altitude,
            'accuracy', p.accuracy, 'ignition', p.ignition, 'battery', p.battery,
            'odometer', p.odometer, 'driverRfid', p.driver_rfid, 'driverName', d.complet_name,
            'attributes', p.attributes)::text, ${',\n'} order by p.fix_time) as lines
          from positions p
          left join drivers d on ${vehicle.driverNames} and d.client_id = p.client_id
            and d.rfid_code = p.driver_rfid and d.canceled_at is null
         where p.vehicle_id = ${vehicle.id}
           and p.client_id = any(${ownersOf(vehicle.owners)}::uuid[])
           and p.fix_time >= ${new Date(start).toISOString()}::timestamptz
           and p.fix_time < ${new Date(end).toISOString()}::timestamptz`),
    );
    if (row?.lines) yield row.lines;
  }
}

export type VehicleRow = Pick<
  typeof vehicles.$inferSelect,
  'id' | 'clientId' | 'name' | 'plate' | 'type'
> &
  HistorySubject;

/**
 * Live vehicles among `ids` within the customers given, whose history is read within those
 * customers too (with the drivers' names unless `driverNames` is false).
 */
export async function vehiclesIn(
  db: Db,
  ids: string[],
  clientIds: string[],
  driverNames = true,
): Promise<VehicleRow[]> {
  if (ids.length === 0 || clientIds.length === 0) return [];
  const rows = await db
    .select({
      id: vehicles.id,
      clientId: vehicles.clientId,
      name: vehicles.name,
      plate: vehicles.plate,
      type: vehicles.type,
    })
    .from(vehicles)
    .where(
      and(
        inArray(vehicles.id, ids),
        inArray(vehicles.clientId, clientIds),
        isNull(vehicles.canceledAt),
      ),
    );
  return rows.map((row) => ({ ...row, owners: clientIds, driverNames }));
}

export type DriverRow = Pick<
  typeof drivers.$inferSelect,
  'id' | 'clientId' | 'completName' | 'rfidCode' | 'licenseExpiry'
>;

export async function driversIn(db: Db, ids: string[], clientIds: string[]): Promise<DriverRow[]> {
  if (ids.length === 0 || clientIds.length === 0) return [];
  return db
    .select({
      id: drivers.id,
      clientId: drivers.clientId,
      completName: drivers.completName,
      rfidCode: drivers.rfidCode,
      licenseExpiry: drivers.licenseExpiry,
    })
    .from(drivers)
    .where(
      and(
        inArray(drivers.id, ids),
        inArray(drivers.clientId, clientIds),
        isNull(drivers.canceledAt),
      ),
    );
}

/** A driver as a report names them: the name, and the CNH's last valid day ('AAAA-MM-DD'). */
export interface TaggedDriver {
  name: string;
  licenseExpiry: string | null;
}

/** Drivers by tag within one customer (RFID tags are unique per customer only). */
export async function driverNames(
  db: Db,
  clientId: string,
  rfids: string[],
): Promise<Map<string, TaggedDriver>> {
  if (rfids.length === 0) return new Map();
  const rows = await db
    .select({
      rfid: drivers.rfidCode,
      name: drivers.completName,
      licenseExpiry: drivers.licenseExpiry,
    })
    .from(drivers)
    .where(
      and(
        eq(drivers.clientId, clientId),
        inArray(drivers.rfidCode, rfids),
        isNull(drivers.canceledAt),
      ),
    );
  return new Map(
    rows.flatMap((r) =>
      r.rfid ? [[r.rfid, { name: r.name, licenseExpiry: r.licenseExpiry }] as const] : [],
    ),
  );
}

export type TripSettingsRow = typeof tripSettings.$inferSelect;

export async function tripSettingsOf(db: Db, clientId: string) {
  const [row] = await db.select().from(tripSettings).where(eq(tripSettings.clientId, clientId));
  return row;
}

export async function saveTripSettings(
  db: Db,
  clientId: string,
  values: Partial<
    Pick<TripSettingsRow, 'minDistance' | 'stopSeconds' | 'gapSeconds' | 'useIgnition'>
  >,
) {
  const [row] = await db
    .insert(tripSettings)
    .values({ clientId, ...values })
    .onConflictDoUpdate({
      target: tripSettings.clientId,
      set: { ...values, updatedAt: new Date() },
    })
    .returning();
  return row;
}

export type ReportRequestRow = typeof reportRequests.$inferSelect;

export async function insertReportRequest(db: Db, values: typeof reportRequests.$inferInsert) {
  const [row] = await db.insert(reportRequests).values(values).returning();
  if (!row) throw new Error('insert returned nothing');
  return row;
}

export async function reportRequestById(db: Db, id: string, clientIds: string[]) {
  if (clientIds.length === 0) return undefined;
  const [row] = await db
    .select()
    .from(reportRequests)
    .where(and(eq(reportRequests.id, id), inArray(reportRequests.clientId, clientIds)));
  return row;
}

export async function deleteReportRequest(db: Db, id: string) {
  await db.delete(reportRequests).where(eq(reportRequests.id, id));
}

const REQUEST_SORTS = {
  name: reportRequests.name,
  reportType: reportRequests.reportType,
  createdAt: reportRequests.createdAt,
  updatedAt: reportRequests.updatedAt,
} as const;

export async function listReportRequests(
  db: Db,
  q: {
    clientIds: string[];
    userId?: string | undefined;
    search: string;
    sort: keyof typeof REQUEST_SORTS;
    order: 'asc' | 'desc';
    page: number;
    limit: number;
  },
) {
  if (q.clientIds.length === 0) return { rows: [] as ReportRequestRow[], total: 0 };
  const where: (SQL | undefined)[] = [
    inArray(reportRequests.clientId, q.clientIds),
    q.userId ? eq(reportRequests.userId, q.userId) : undefined,
    q.search ? ilike(reportRequests.name, `%${q.search.replace(/[%_\\]/g, '\\$&')}%`) : undefined,
  ];
  const direction = q.order === 'asc' ? asc : desc;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(reportRequests)
      .where(and(...where))
      .orderBy(direction(REQUEST_SORTS[q.sort]), desc(reportRequests.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db
      .select({ n: count() })
      .from(reportRequests)
      .where(and(...where)),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** Fixes, highest speed, first and last fix of each vehicle in [from, to) (partial days). */
export async function segmentStats(
  db: Db,
  vehicleIds: string[],
  owners: readonly string[],
  from: Date,
  to: Date,
): Promise<
  Map<
    string,
    {
      fixes: number;
      maxSpeed: number | null;
      firstFix: Date | null;
      lastFix: Date | null;
      firstOdometer: number | null;
      firstTracker: string | null;
    }
  >
> {
  if (vehicleIds.length === 0) return new Map();
  const rows = rowsOf<{
    vehicle_id: string;
    fixes: number | string;
    max_speed: number | null;
    first_fix: string | Date | null;
    last_fix: string | Date | null;
    first_odometer: number | null;
    first_tracker: string | null;
  }>(
    await db.execute(sql`
      select v.id as vehicle_id, s.fixes, s.max_speed, s.first_fix, s.last_fix,
             f.odometer as first_odometer, f.tracker_id as first_tracker
        from unnest(${`{${vehicleIds.join(',')}}`}::uuid[]) as v(id)
        cross join lateral (
          select count(*) as fixes, max(speed) as max_speed, min(fix_time) as first_fix,
                 max(fix_time) as last_fix
            from positions where vehicle_id = v.id
             and client_id = any(${ownersOf(owners)}::uuid[])
             and fix_time >= ${from.toISOString()}::timestamptz
             and fix_time < ${to.toISOString()}::timestamptz) s
        left join lateral (
          select odometer, tracker_id from positions where vehicle_id = v.id
             and client_id = any(${ownersOf(owners)}::uuid[])
             and fix_time >= ${from.toISOString()}::timestamptz
           order by fix_time limit 1) f on true`),
  );
  return new Map(
    rows.map((r) => [
      r.vehicle_id,
      {
        fixes: Number(r.fixes),
        maxSpeed: r.max_speed === null ? null : Number(r.max_speed),
        firstFix: r.first_fix ? new Date(r.first_fix) : null,
        lastFix: r.last_fix ? new Date(r.last_fix) : null,
        firstOdometer: r.first_odometer === null ? null : Number(r.first_odometer),
        firstTracker: r.first_tracker,
      },
    ]),
  );
}
