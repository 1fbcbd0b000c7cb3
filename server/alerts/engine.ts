/**
 * The alert engine: the ways alerts are raised, put together over one configuration cache
 * (config-cache.ts) and one set of notifiers (server/alerts/notifier.ts), which get every
 * alert whatever raised it (outlet.ts stores them and hands them over).
 *
 * - Every stored fix, inside the ingest transaction: fix-processor.ts, which also says how
 *   each alert is raised exactly once across restarts and processes.
 * - The periodic checks (server/platform/jobs.ts), a module each: LOCATION_TIMEOUT in
 *   check-timeouts.ts, MAINTENANCE_DUE and DOCUMENT_EXPIRING in check-upkeep.ts, the
 *   jornada's in check-jornada.ts.
 * - What a device did: LOCK_ACTIVATED (it confirms a block: server/ingest/downlink.ts) and
 *   DUPLICATE_DEVICE, in device-events.ts.
 */
import type { FixProcessor } from '../ingest/batch-write';
import type { Config } from '../platform/config';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/log';
import { checkJornada } from './check-jornada';
import { checkTimeouts } from './check-timeouts';
import { checkUpkeep } from './check-upkeep';
import { createConfigCache } from './config-cache';
import { type DeviceEventContext, duplicateDevice, lockConfirmed } from './device-events';
import { createFixProcessor } from './fix-processor';
import type { AlertNotifier } from './notifier';
import { type AlertContext, createAlertOutlet } from './outlet';

export interface AlertEngine {
  /** Plugged into the ingest pipeline. */
  processor: FixProcessor;
  /** Raises LOCATION_TIMEOUT for vehicles silent past their rules' minutes; returns how many. */
  checkTimeouts(now?: Date): Promise<number>;
  /**
   * Raises MAINTENANCE_DUE for plans entering their warning margin or past their limit, on
   * the vehicles of each rule of the type, once per plan cycle and stage; and
   * DOCUMENT_EXPIRING for vehicles' documents within their rules' days (and drivers' documents
   * and CNH, for rules over the whole customer), once per document and expiry. Returns how
   * many.
   */
  checkUpkeep(now?: Date): Promise<number>;
  /**
   * Raises JORNADA_DRIVING_LIMIT (5 h of continuous driving, once per stretch) and
   * JORNADA_REST_SHORT (a journey begun after less than 11 h of rest, once per journey) for
   * the drivers whose tag the vehicles of each rule of those types read. Returns how many.
   */
  checkJornada(now?: Date): Promise<number>;
  /** A block command was confirmed by the device: LOCK_ACTIVATED. */
  lockConfirmed(commands: { id: string; vehicleId: string | null; kind: string }[]): Promise<void>;
  /**
   * Two live devices speak for this tracker since `since`: DUPLICATE_DEVICE on its vehicle,
   * once per episode, for every customer (one alert per rule of the type, else one without).
   */
  duplicateDevice(trackerId: string, since: Date, addresses: string[]): Promise<void>;
  /** Adds a way out for alerts (Web Push, FCM); returns the function that removes it. */
  addNotifier(notifier: AlertNotifier): () => void;
}

export function createAlertEngine(
  db: Db,
  config: Pick<Config, 'alerts'>,
  log: Logger,
  notifiers: AlertNotifier[] = [],
  options: {
    /** Lock each vehicle's state row while it is evaluated (false on PGlite: see lockStates). */
    rowLocks?: boolean;
  } = {},
): AlertEngine {
  const rowLocks = options.rowLocks ?? true;
  const { hysteresisMeters } = config.alerts;
  const configs = createConfigCache(hysteresisMeters);
  const outs = new Set(notifiers);
  const { store, deliver } = createAlertOutlet(outs, log);
  const context: AlertContext = { db, store, deliver };
  const devices: DeviceEventContext = { ...context, configs, hysteresisMeters };
  const processor = createFixProcessor({ store, deliver, configs, hysteresisMeters, rowLocks });

  return {
    processor,
    checkTimeouts: (now = new Date()) => checkTimeouts(context, now),
    checkUpkeep: (now = new Date()) => checkUpkeep(context, now),
    checkJornada: (now = new Date()) => checkJornada(context, now),
    lockConfirmed: (commands) => lockConfirmed(devices, commands),
    duplicateDevice: (trackerId, since, addresses) =>
      duplicateDevice(devices, trackerId, since, addresses),
    addNotifier(notifier) {
      outs.add(notifier);
      return () => outs.delete(notifier);
    },
  };
}
