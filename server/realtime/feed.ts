/**
 * The live feed: which last locations changed and which alerts were raised, for the live
 * streams of this process, whichever process ingested the fix or raised the alert.
 *
 * - One process (PGlite): the ingest pipeline's own notice after each commit, and the alert
 *   engine's after-commit delivery, straight into the listeners — today's in-process path.
 * - PostgreSQL (any number of processes): every process, the one that wrote included, hears
 *   the same compact notices through LISTEN/NOTIFY, sent inside the writing transaction and so
 *   delivered at its commit, in commit order:
 *   · `rastro_locations` carries the newest event id of a batch. The receiver reads "which
 *     trackers changed after the event id I have" (one query per notice, through the batches
 *     that location_batches lists, whatever the batch size, for all the streams of the
 *     process) and tells its streams, which read the items they may see. Event ids follow
 *     commit order (server/ingest/queries/positions.ts), so that read never skips a change, and
 *     after a
 *     lost connection the same read catches up.
 *   · `rastro_alerts` carries the ids of the alerts raised; the receiver reads them.
 *     Best-effort like any live delivery: an alert raised while a process was reconnecting
 *     is not streamed there (it is in the history and the counter).
 *   When the database goes away and comes back (a restart, a failover), the LISTEN
 *   connection is opened again and the same read from the cursor catches up on everything
 *   committed meanwhile; a read that failed is tried again as soon as the database's health
 *   sees it back.
 */

import { type AlertBus, type AlertNotifier, createAlertBus } from '../alerts/notifier';
import { ALERTS_CHANNEL, alertOut, alertsByIds, notifyAlerts } from '../alerts/queries/alerts';
import type { Pipeline } from '../ingest/pipeline';
import {
  changedSince,
  currentSeq,
  LOCATIONS_CHANNEL,
  type TrackerRef,
} from '../ingest/queries/positions';
import type { Database } from '../platform/db/client';
import type { Logger } from '../platform/log';

export type LocationsListener = (trackers: TrackerRef[]) => void;

export interface LiveFeed {
  /** Trackers whose last location changed; returns the function that stops listening. */
  onLocations(listener: LocationsListener): () => void;
  /** Raised alerts, from any process. */
  alerts: AlertBus;
  /** The way out of the alert engine to the live streams. */
  notifier: AlertNotifier;
  /** Connects the pipeline that stores this process's fixes (used with one process only). */
  attach(pipeline: Pipeline): void;
  /** 'process' (PGlite) or 'notify' (PostgreSQL LISTEN/NOTIFY). */
  mode: 'process' | 'notify';
}

/** Ingest batches (up to 2,000 trackers each) read per query while catching up. */
const READ_LIMIT = 20;

export async function createLiveFeed(database: Database, log: Logger): Promise<LiveFeed> {
  const listeners = new Set<LocationsListener>();
  const bus = createAlertBus();
  const tell = (trackers: TrackerRef[]) => {
    if (trackers.length === 0) return;
    for (const listener of listeners) {
      try {
        listener(trackers);
      } catch (err) {
        log.error('live: listener failed', { err });
      }
    }
  };
  const onLocations = (listener: LocationsListener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  if (!database.listen)
    return {
      mode: 'process',
      onLocations,
      alerts: bus,
      notifier: bus.notifier,
      attach: (pipeline) => void pipeline.onStored((tracker) => tell([tracker])),
    };

  const { db } = database;
  let cursor = await currentSeq(db);
  let newest = cursor;
  let reading = false;
  /**
   * Reads the changes after the cursor until none are left; one read at a time. Every id up to
   * a notice's is committed when the notice arrives (commit order), so a complete read moves
   * the cursor at least that far, even when those rows changed again or are gone.
   */
  const catchUp = () => {
    if (reading) return;
    reading = true;
    void (async () => {
      const target = newest;
      let failed = false;
      try {
        for (;;) {
          const changed = await changedSince(db, cursor, READ_LIMIT);
          if (changed.seq > cursor) cursor = changed.seq;
          tell(changed.trackers);
          if (changed.seq === 0 || changed.seq >= target) break;
        }
        cursor = Math.max(cursor, target);
      } catch (err) {
        failed = true;
        // A database away for a moment: read again when its health sees it back.
        if (!database.health.report(err))
          log.warn('live: could not read the changed locations', { err });
      } finally {
        reading = false;
      }
      // A notice that arrived during the read asks for one more (after a failure, the next
      // notice or reconnection does).
      if (!failed && newest > cursor) catchUp();
    })();
  };
  const raised = async (payload: string) => {
    try {
      const rows = await alertsByIds(db, payload.split(',').filter(Boolean));
      bus.publish(rows.map((row) => ({ ...alertOut(row), clientId: row.clientId })));
    } catch (err) {
      database.health.report(err);
      log.warn('live: could not read the raised alerts', { err });
    }
  };
  await database.listen([LOCATIONS_CHANNEL, ALERTS_CHANNEL], {
    notice(channel, payload) {
      if (channel === ALERTS_CHANNEL) {
        void raised(payload);
        return;
      }
      const seq = Number(payload);
      if (Number.isFinite(seq) && seq > newest) newest = seq;
      if (newest > cursor) catchUp();
    },
    connected: catchUp,
    error: (err) => {
      // While the database is known to be down, every failed attempt would say the same.
      if (database.health.up())
        log.warn('live: LISTEN connection lost, reconnecting', { err: err.message });
    },
  });
  database.health.onChange((up) => {
    if (up) catchUp();
  });
  return {
    mode: 'notify',
    onLocations,
    alerts: bus,
    notifier: {
      name: 'live',
      enqueue: (tx, alerts) =>
        notifyAlerts(
          tx,
          alerts.map((a) => a.id),
        ),
    },
    attach: () => {},
  };
}
