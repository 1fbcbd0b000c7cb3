/**
 * What an installer looks for first: when each tracker last spoke, from where, what came (a
 * position, a report without GPS, a login, a heartbeat, or a refusal and why), its fix-time
 * conflicts and whether two devices speak for it; and, for the administrator, identifiers that
 * tried to connect and match no tracker.
 *
 * Kept in memory and written every DEVICE_STATUS_FLUSH_MS in two statements, never inside the
 * ingest transaction: a position costs a map update here, not a row write. What could not be
 * written (the database away) is kept and merged with the next news, so nothing is lost but the
 * order of two refusals in one window. Memory is bounded: at most MAX_PENDING trackers and
 * MAX_PENDING_UNKNOWN unknown identifiers wait between writes (past them, news is dropped and
 * counted), and the table of unknown identifiers is pruned
 * (server/ingest/queries/device-status.ts).
 */
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/log';
import type { IdentityRefusal } from './identity';
import type { DeviceEvent, DeviceObserver } from './message';
import {
  pruneUnknown,
  type StatusUpdate,
  type UnknownAttempt,
  writeStatuses,
  writeUnknown,
} from './queries/device-status';

/** Why a message was refused, as stored and shown (src/contract REFUSALS). */
export type Refusal =
  | 'password'
  | 'protocol'
  | 'future'
  | 'conflict'
  | 'malformed'
  | 'jump'
  | 'inactive';

export const DEVICE_STATUS_FLUSH_MS = 5_000;
export const MAX_PENDING = 100_000;
export const MAX_PENDING_UNKNOWN = 2_000;
/** Unknown identifiers are pruned once in this many writes. */
const PRUNE_EVERY = 120;

export interface DeviceStatus extends DeviceObserver {
  /** A login: accepted (with whether it proved the password) or refused. */
  login(event: {
    identifier: string;
    trackerId: string | undefined;
    protocol: string;
    address: string | undefined;
    authenticated?: boolean | undefined;
    refusal?: IdentityRefusal | 'unknown_device' | undefined;
  }): void;
  /** A known tracker's message refused before it reached the pipeline (malformed, …). */
  refused(trackerId: string, protocol: string, address: string | undefined, why: Refusal): void;
  /** A heartbeat (Wialon IPS `#P#`): the device is alive, nothing else came. */
  heartbeat(trackerId: string, protocol: string, address: string | undefined): void;
  /** Two live sessions speak for a tracker since `since`, or (null) no longer. */
  duplicate(trackerId: string, state: { since: Date; addresses: string[] } | null): void;
  /**
   * Writes what waits; resolves when written (or kept for the next try). Run every
   * DEVICE_STATUS_FLUSH_MS by the server's jobs, and once more at a stop.
   */
  flush(): Promise<void>;
  /** News dropped because too much waited (the database away for long). */
  dropped(): number;
}

const REFUSAL_OF: Partial<Record<string, Refusal>> = {
  wrong_password: 'password',
  no_password: 'password',
  wrong_protocol: 'protocol',
  future_fix: 'future',
  conflict: 'conflict',
  impossible_jump: 'jump',
  invalid_value: 'malformed',
  invalid_coordinates: 'malformed',
};

export function createDeviceStatus(db: Db, log: Logger): DeviceStatus {
  const pending = new Map<string, StatusUpdate>();
  const unknown = new Map<string, UnknownAttempt>();
  let droppedNews = 0;
  let writes = 0;
  let flushing: Promise<void> | undefined;

  function update(
    trackerId: string,
    at: Date,
    change: Partial<StatusUpdate> & Pick<StatusUpdate, 'lastKind'>,
  ) {
    let row = pending.get(trackerId);
    if (!row) {
      if (pending.size >= MAX_PENDING) {
        droppedNews += 1;
        return;
      }
      row = {
        trackerId,
        lastSeenAt: at,
        lastAddress: null,
        lastProtocol: null,
        lastKind: change.lastKind,
        lastRefusal: null,
        lastRefusedAt: null,
        conflicts: 0,
        lastConflictAt: null,
        authenticated: null,
      };
      pending.set(trackerId, row);
    }
    if (at >= row.lastSeenAt) {
      row.lastSeenAt = at;
      row.lastKind = change.lastKind;
      if (change.lastAddress !== undefined) row.lastAddress = change.lastAddress;
      if (change.lastProtocol !== undefined) row.lastProtocol = change.lastProtocol;
      if (change.authenticated !== undefined) row.authenticated = change.authenticated;
    }
    if (change.lastRefusal) {
      row.lastRefusal = change.lastRefusal;
      row.lastRefusedAt = at;
    }
    if (change.conflicts) {
      row.conflicts += change.conflicts;
      row.lastConflictAt = at;
    }
    if (change.duplicate !== undefined) row.duplicate = change.duplicate;
  }

  function unknownDevice(identifier: string, protocol: string, address: string | undefined) {
    const key = `${protocol}\u0000${identifier}`;
    const now = new Date();
    const seen = unknown.get(key);
    if (seen) {
      seen.attempts += 1;
      seen.lastSeenAt = now;
      seen.address = address ?? seen.address;
      return;
    }
    if (unknown.size >= MAX_PENDING_UNKNOWN) {
      droppedNews += 1;
      return;
    }
    unknown.set(key, {
      identifier,
      protocol,
      address: address ?? null,
      firstSeenAt: now,
      lastSeenAt: now,
      attempts: 1,
    });
  }

  function message(event: DeviceEvent) {
    const { source, result } = event;
    const at = new Date(event.at);
    const base = { lastAddress: source.address ?? null, lastProtocol: source.protocol };
    if (!event.trackerId) {
      unknownDevice(event.identifier, source.protocol, source.address);
      return;
    }
    if (event.refusal) {
      update(event.trackerId, at, {
        ...base,
        lastKind: 'refused',
        lastRefusal: REFUSAL_OF[event.refusal] ?? 'password',
      });
      return;
    }
    // One pass, no arrays: this runs for every message a device sends.
    let conflicts = 0;
    let refusal: Refusal | undefined;
    for (const rejection of result.rejected) {
      if (rejection === 'conflict') conflicts += 1;
      refusal ??= REFUSAL_OF[rejection];
    }
    const telemetry = result.telemetry ?? 0;
    const fixes = result.stored - telemetry;
    const lastKind =
      fixes > 0 || (result.stored === 0 && !refusal)
        ? 'position'
        : telemetry > 0
          ? 'telemetry'
          : 'refused';
    update(event.trackerId, at, {
      ...base,
      lastKind,
      authenticated: result.authenticated ?? null,
      lastRefusal: refusal,
      conflicts,
    });
  }

  async function flush() {
    if (flushing) return flushing;
    if (pending.size === 0 && unknown.size === 0) return;
    const statuses = [...pending.values()];
    const attempts = [...unknown.values()];
    pending.clear();
    unknown.clear();
    flushing = (async () => {
      try {
        await writeStatuses(db, statuses);
      } catch (err) {
        log.warn('devices: status not written, kept for the next try', { err });
        for (const row of statuses) restore(row);
      }
      try {
        await writeUnknown(db, attempts);
        writes += 1;
        if (writes % PRUNE_EVERY === 0) await pruneUnknown(db);
      } catch (err) {
        log.warn('devices: unknown identifiers not written, kept for the next try', { err });
        for (const attempt of attempts) {
          const key = `${attempt.protocol}\u0000${attempt.identifier}`;
          const now = unknown.get(key);
          if (now) {
            now.attempts += attempt.attempts;
            now.firstSeenAt = attempt.firstSeenAt;
          } else if (unknown.size < MAX_PENDING_UNKNOWN) unknown.set(key, attempt);
        }
      }
    })().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  /** Puts back news that could not be written, under any newer news of the same tracker. */
  function restore(old: StatusUpdate) {
    const now = pending.get(old.trackerId);
    if (!now) {
      if (pending.size < MAX_PENDING) pending.set(old.trackerId, old);
      else droppedNews += 1;
      return;
    }
    now.conflicts += old.conflicts;
    now.lastConflictAt ??= old.lastConflictAt;
    if (!now.lastRefusal && old.lastRefusal) {
      now.lastRefusal = old.lastRefusal;
      now.lastRefusedAt = old.lastRefusedAt;
    }
    if (now.duplicate === undefined && old.duplicate !== undefined) now.duplicate = old.duplicate;
  }

  return {
    message,
    login(event) {
      if (!event.trackerId || event.refusal === 'unknown_device') {
        unknownDevice(event.identifier, event.protocol, event.address);
        return;
      }
      const refusal = event.refusal ? REFUSAL_OF[event.refusal] : undefined;
      update(event.trackerId, new Date(), {
        lastAddress: event.address ?? null,
        lastProtocol: event.protocol,
        lastKind: refusal ? 'refused' : 'login',
        lastRefusal: refusal,
        authenticated: refusal ? undefined : (event.authenticated ?? null),
      });
    },
    refused(trackerId, protocol, address, why) {
      update(trackerId, new Date(), {
        lastAddress: address ?? null,
        lastProtocol: protocol,
        lastKind: 'refused',
        lastRefusal: why,
      });
    },
    heartbeat(trackerId, protocol, address) {
      update(trackerId, new Date(), {
        lastAddress: address ?? null,
        lastProtocol: protocol,
        lastKind: 'heartbeat',
      });
    },
    duplicate(trackerId, state) {
      const row = pending.get(trackerId);
      if (row) row.duplicate = state;
      else update(trackerId, new Date(0), { lastKind: 'login', duplicate: state });
    },
    flush,
    dropped: () => droppedNews,
  };
}
