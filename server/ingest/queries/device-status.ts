/**
 * What each tracker last told us (device_status) and the identifiers that tried to connect
 * without matching a tracker (unknown_devices): written in batches by the recorder of each
 * process (server/ingest/device-status.ts), read by the trackers' pages and the
 * administrator's list of unknown devices.
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../platform/db/client';
import { bareArray } from '../../platform/db/pg-arrays';

/** One tracker's news since the last write (merged into its row, never replacing newer news). */
export interface StatusUpdate {
  trackerId: string;
  lastSeenAt: Date;
  lastAddress: string | null;
  lastProtocol: string | null;
  lastKind: string;
  lastRefusal: string | null;
  lastRefusedAt: Date | null;
  /** Conflicts since the last write (added to the row's count). */
  conflicts: number;
  lastConflictAt: Date | null;
  authenticated: boolean | null;
  /**
   * Two live sessions now (`since` and their addresses), none any more (`null`), or no news
   * (`undefined`).
   */
  duplicate?: { since: Date; addresses: string[] } | null;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export async function writeStatuses(db: Db, updates: StatusUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  const rows = updates.map((u) => ({
    tracker_id: u.trackerId,
    last_seen_at: iso(u.lastSeenAt),
    last_address: u.lastAddress,
    last_protocol: u.lastProtocol,
    last_kind: u.lastKind,
    last_refusal: u.lastRefusal,
    last_refused_at: iso(u.lastRefusedAt),
    conflicts: u.conflicts,
    last_conflict_at: iso(u.lastConflictAt),
    authenticated: u.authenticated,
    // An empty list clears the duplicate; null leaves it as it is.
    duplicate_since: u.duplicate ? iso(u.duplicate.since) : null,
    duplicate_addresses: u.duplicate === undefined ? null : (u.duplicate?.addresses ?? []),
  }));
  // In tracker order: two processes writing the same trackers lock them in the same order.
  rows.sort((a, b) => (a.tracker_id < b.tracker_id ? -1 : 1));
  await db.execute(sql`
    insert into device_status as d (tracker_id, last_seen_at, last_address, last_protocol,
      last_kind, last_refusal, last_refused_at, conflicts, last_conflict_at, authenticated,
      duplicate_since, duplicate_addresses, updated_at)
    select x.tracker_id, x.last_seen_at, x.last_address, x.last_protocol, x.last_kind,
      x.last_refusal, x.last_refused_at, x.conflicts, x.last_conflict_at, x.authenticated,
      x.duplicate_since, x.duplicate_addresses, now()
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(tracker_id uuid,
        last_seen_at timestamptz, last_address text, last_protocol text, last_kind text,
        last_refusal text, last_refused_at timestamptz, conflicts int,
        last_conflict_at timestamptz, authenticated boolean, duplicate_since timestamptz,
        duplicate_addresses text[])
      join trackers t on t.id = x.tracker_id
    on conflict (tracker_id) do update set
      last_seen_at = greatest(d.last_seen_at, excluded.last_seen_at),
      last_address = case when excluded.last_seen_at >= d.last_seen_at
        then excluded.last_address else d.last_address end,
      last_protocol = case when excluded.last_seen_at >= d.last_seen_at
        then excluded.last_protocol else d.last_protocol end,
      last_kind = case when excluded.last_seen_at >= d.last_seen_at
        then excluded.last_kind else d.last_kind end,
      last_refusal = case when excluded.last_refused_at >= coalesce(d.last_refused_at, '-infinity')
        then excluded.last_refusal else d.last_refusal end,
      last_refused_at = greatest(d.last_refused_at, excluded.last_refused_at),
      conflicts = d.conflicts + excluded.conflicts,
      last_conflict_at = greatest(d.last_conflict_at, excluded.last_conflict_at),
      authenticated = case when excluded.last_seen_at >= d.last_seen_at
        then coalesce(excluded.authenticated, d.authenticated) else d.authenticated end,
      duplicate_since = case when excluded.duplicate_addresses is null
        then d.duplicate_since else excluded.duplicate_since end,
      duplicate_addresses = coalesce(excluded.duplicate_addresses, d.duplicate_addresses),
      updated_at = now()`);
}

export interface UnknownAttempt {
  identifier: string;
  protocol: string;
  address: string | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  attempts: number;
}

/** Rows kept in unknown_devices at most: a scanner of random identifiers cannot fill the disk. */
export const MAX_UNKNOWN_DEVICES = 10_000;
/** An identifier not seen for this long is forgotten. */
export const UNKNOWN_DEVICE_DAYS = 30;

export async function writeUnknown(db: Db, attempts: UnknownAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const rows = attempts
    .map((a) => ({
      identifier: a.identifier,
      protocol: a.protocol,
      last_address: a.address,
      first_seen_at: a.firstSeenAt.toISOString(),
      last_seen_at: a.lastSeenAt.toISOString(),
      attempts: a.attempts,
    }))
    .sort((a, b) =>
      a.identifier === b.identifier
        ? a.protocol < b.protocol
          ? -1
          : 1
        : a.identifier < b.identifier
          ? -1
          : 1,
    );
  await db.execute(sql`
    insert into unknown_devices as u (identifier, protocol, last_address, first_seen_at,
      last_seen_at, attempts)
    select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(identifier text,
      protocol text, last_address text, first_seen_at timestamptz, last_seen_at timestamptz,
      attempts int)
    on conflict (identifier, protocol) do update set
      last_address = case when excluded.last_seen_at >= u.last_seen_at
        then excluded.last_address else u.last_address end,
      first_seen_at = least(u.first_seen_at, excluded.first_seen_at),
      last_seen_at = greatest(u.last_seen_at, excluded.last_seen_at),
      attempts = u.attempts + excluded.attempts`);
}

/**
 * Forgets unknown identifiers not seen for UNKNOWN_DEVICE_DAYS, those that became trackers,
 * and the oldest past MAX_UNKNOWN_DEVICES. Returns how many were removed.
 */
export async function pruneUnknown(db: Db): Promise<number> {
  const rows = rowsOf<{ identifier: string }>(
    await db.execute(sql`
      delete from unknown_devices u
       where u.last_seen_at < now() - ${UNKNOWN_DEVICE_DAYS} * interval '1 day'
          or exists (select 1 from trackers t where t.identifier = u.identifier
                       and t.canceled_at is null)
          or (u.identifier, u.protocol) in (
               select identifier, protocol from unknown_devices
                order by last_seen_at desc offset ${MAX_UNKNOWN_DEVICES})
      returning u.identifier`),
  );
  return rows.length;
}

export interface UnknownDeviceRow {
  identifier: string;
  protocol: string;
  lastAddress: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  attempts: number;
}

/** The unknown identifiers, newest first, a page of them, and how many there are. */
export async function listUnknown(
  db: Db,
  q: { search: string; page: number; limit: number },
): Promise<{ rows: UnknownDeviceRow[]; total: number }> {
  const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // One that became a tracker is no longer unknown (pruned later, hidden at once).
  const where = sql`where not exists (select 1 from trackers t
      where t.identifier = u.identifier and t.canceled_at is null)
    ${q.search ? sql`and (u.identifier ilike ${like} or u.last_address ilike ${like})` : sql``}`;
  const rows = rowsOf<UnknownDeviceRow & { total: number | string }>(
    await db.execute(sql`
      select u.identifier, u.protocol, u.last_address as "lastAddress",
             to_char(u.first_seen_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
               as "firstSeenAt",
             to_char(u.last_seen_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
               as "lastSeenAt",
             u.attempts, count(*) over () as total
        from unknown_devices u ${where}
       order by u.last_seen_at desc, u.identifier
       limit ${q.limit} offset ${(q.page - 1) * q.limit}`),
  );
  const total = rows[0] ? Number(rows[0].total) : 0;
  return { rows: rows.map(({ total: _, ...row }) => row), total };
}

export async function forgetUnknown(db: Db, identifier: string, protocol: string) {
  const rows = rowsOf<{ identifier: string }>(
    await db.execute(sql`
      delete from unknown_devices where identifier = ${identifier} and protocol = ${protocol}
      returning identifier`),
  );
  return rows.length > 0;
}

export interface CommunicationRow {
  trackerId: string;
  lastSeenAt: string;
  lastAddress: string | null;
  lastProtocol: string | null;
  lastKind: string;
  lastRefusal: string | null;
  lastRefusedAt: string | null;
  conflicts: number;
  lastConflictAt: string | null;
  authenticated: boolean | null;
  duplicateSince: string | null;
  duplicateAddresses: string[] | null;
  lastFixAt: string | null;
  noGpsSince: string | null;
}

const ISO = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';
const isoOf = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', '${ISO}')`);

/** What these trackers last told us (their status row and last location), by tracker id. */
export async function communicationOf(
  db: Db,
  trackerIds: string[],
): Promise<Map<string, CommunicationRow>> {
  if (trackerIds.length === 0) return new Map();
  const rows = rowsOf<CommunicationRow>(
    await db.execute(sql`
      select d.tracker_id as "trackerId", ${isoOf('d.last_seen_at')} as "lastSeenAt",
             d.last_address as "lastAddress", d.last_protocol as "lastProtocol",
             d.last_kind as "lastKind", d.last_refusal as "lastRefusal",
             ${isoOf('d.last_refused_at')} as "lastRefusedAt", d.conflicts,
             ${isoOf('d.last_conflict_at')} as "lastConflictAt", d.authenticated,
             ${isoOf('d.duplicate_since')} as "duplicateSince",
             d.duplicate_addresses as "duplicateAddresses",
             ${isoOf('l.fix_time')} as "lastFixAt", ${isoOf('l.no_gps_since')} as "noGpsSince"
        from device_status d
        left join last_locations l on l.tracker_id = d.tracker_id
       where d.tracker_id = any(${bareArray(trackerIds)}::uuid[])`),
  );
  return new Map(rows.map((row) => [row.trackerId, row]));
}

/** Trackers let in without a password, of these customers (the dashboard's warning). */
export async function unauthenticatedCount(db: Db, clientIds: string[]): Promise<number> {
  if (clientIds.length === 0) return 0;
  const [row] = rowsOf<{ count: number | string }>(
    await db.execute(sql`
      select count(*) as count from trackers
       where client_id = any(${bareArray(clientIds)}::uuid[]) and canceled_at is null
         and active and allow_unauthenticated`),
  );
  return Number(row?.count ?? 0);
}
