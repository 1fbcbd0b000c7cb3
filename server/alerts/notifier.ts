/**
 * How raised alerts leave the engine: every way out (the live stream, e-mail and, next, push)
 * is an AlertNotifier, and the engine calls all of them the same way for every alert it
 * stored, whatever raised it (a fix, the silence check, a confirmed block).
 *
 * - `enqueue` runs inside the transaction that stored the alerts, with that transaction: for
 *   durable hand-offs (an outbox row), so that an alert and its notification commit together
 *   and a crash never loses nor doubles one.
 * - `deliver` runs after the commit, once per alert, in the process that stored it: for
 *   immediate, best-effort delivery (the live stream, a push). It must not throw; a slow one
 *   should not be awaited by its caller (the engine does not wait for it).
 *
 * Late alerts (their fix received more than 15 minutes after its time) reach every notifier
 * with `late: true`: e-mail and push skip them, the live stream carries them without a toast.
 */
import type { Alert } from '../../src/contract';
import type { Db } from '../platform/db/client';

/** An alert as stored, with what notifiers need beyond the wire shape. */
export interface StoredAlert extends Alert {
  clientId: string;
  geofenceId: string | null;
  geofenceName: string | null;
  /** The rule's e-mail list ('' for none). */
  emailDelivery: string;
  /** What was measured: speed and limit, reading and threshold… */
  details: Record<string, unknown>;
}

export interface AlertNotifier {
  name: string;
  enqueue?(tx: Db, alerts: StoredAlert[]): Promise<void>;
  deliver?(alerts: StoredAlert[]): void | Promise<void>;
}

/** The wire shape of an alert (exactly the fields the API promises). */
export function wireAlert(alert: Alert): Alert {
  return {
    id: alert.id,
    type: alert.type,
    vehicleId: alert.vehicleId,
    plate: alert.plate,
    vehicleName: alert.vehicleName,
    driverId: alert.driverId,
    driverName: alert.driverName,
    document: alert.document,
    ruleId: alert.ruleId,
    ruleName: alert.ruleName,
    latitude: alert.latitude,
    longitude: alert.longitude,
    speed: alert.speed,
    fixTime: alert.fixTime,
    createdAt: alert.createdAt,
    updatedAt: alert.updatedAt,
    acknowledgedAt: alert.acknowledgedAt,
    acknowledgedBy: alert.acknowledgedBy,
    late: alert.late,
  };
}

/** What the live stream needs of an alert: the wire shape and whose it is. */
export type LiveAlert = Alert & { clientId: string };
export type AlertListener = (alerts: LiveAlert[]) => void;

/**
 * The live stream's alerts: an in-process bus that the SSE route listens to. With one process
 * (PGlite) the engine publishes into it through `notifier`; with PostgreSQL every process's
 * bus is fed by the fan-out across processes (server/realtime/feed.ts, LISTEN/NOTIFY).
 */
export interface AlertBus {
  publish(alerts: LiveAlert[]): void;
  subscribe(listener: AlertListener): () => void;
  notifier: AlertNotifier;
}

export function createAlertBus(): AlertBus {
  const listeners = new Set<AlertListener>();
  const bus: AlertBus = {
    publish(alerts: LiveAlert[]) {
      if (alerts.length === 0) return;
      for (const listener of listeners) {
        try {
          listener(alerts);
        } catch {
          // One broken stream must not keep the others from hearing.
        }
      }
    },
    subscribe(listener: AlertListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notifier: {
      name: 'live',
      deliver: (alerts: StoredAlert[]) => bus.publish(alerts),
    },
  };
  return bus;
}
