/**
 * Where every alert the engine raises goes, whatever raised it (a fix, a periodic check, a
 * device's event): stored once by its dedupe key, handed to the notifiers' enqueue in the
 * storing transaction, then delivered by them after the commit (server/alerts/notifier.ts).
 */
import { type AlertType, alertDocument } from '../../src/contract';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/log';
import type { CompiledRule } from './evaluate';
import type { AlertNotifier, StoredAlert } from './notifier';
import { insertAlerts, type NewAlert } from './queries/alert-engine';

/** An alert to store, with the names its notifications show. */
export type AlertToStore = NewAlert & { rule: Pick<CompiledRule, 'name' | 'emailDelivery'> } & {
  plate: string | null;
  vehicleName: string | null;
  driverName?: string | null;
  geofenceName: string | null;
};

/** The alerts a store call inserted (those already stored are left out). */
export interface Notified {
  alerts: StoredAlert[];
}

export interface AlertOutlet {
  /** Stores alerts and hands them to the notifiers' enqueue, in `tx`; returns the new ones. */
  store(tx: Db, raised: AlertToStore[]): Promise<Notified>;
  /** Hands stored alerts to the notifiers' deliver, after the commit; never waits nor throws. */
  deliver(notified: Notified): void;
}

/** What raising alerts outside the ingest transaction takes: the database and the outlet. */
export interface AlertContext extends AlertOutlet {
  db: Db;
}

/** `outs` is the engine's own set: a notifier added later is used from then on. */
export function createAlertOutlet(outs: ReadonlySet<AlertNotifier>, log: Logger): AlertOutlet {
  async function store(tx: Db, raised: AlertToStore[]): Promise<Notified> {
    const inserted = await insertAlerts(tx, raised);
    const alerts: StoredAlert[] = [];
    for (const a of raised) {
      const row = inserted.get(a.dedupeKey);
      if (!row) continue;
      alerts.push({
        id: row.id,
        type: a.type as AlertType,
        vehicleId: a.vehicleId,
        plate: a.plate,
        vehicleName: a.vehicleName,
        driverId: a.driverId ?? null,
        driverName: a.driverName ?? null,
        document: alertDocument(a.type, a.details),
        ruleId: a.ruleId,
        ruleName: a.rule.name,
        latitude: a.latitude,
        longitude: a.longitude,
        speed: a.speed,
        fixTime: a.fixTime?.toISOString() ?? null,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        acknowledgedAt: null,
        acknowledgedBy: null,
        late: a.late,
        clientId: a.clientId,
        geofenceId: a.geofenceId,
        geofenceName: a.geofenceName,
        emailDelivery: a.rule.emailDelivery,
        details: a.details,
      });
    }
    if (alerts.length) for (const out of outs) await out.enqueue?.(tx, alerts);
    return { alerts };
  }

  function deliver({ alerts }: Notified) {
    if (alerts.length === 0) return;
    for (const out of outs) {
      try {
        void Promise.resolve(out.deliver?.(alerts)).catch((err: unknown) =>
          log.error('alerts: notifier failed', { notifier: out.name, err }),
        );
      } catch (err) {
        log.error('alerts: notifier failed', { notifier: out.name, err });
      }
    }
  }

  return { store, deliver };
}
