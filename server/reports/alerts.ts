/**
 * The alerts a history shows as markers and a summary counts by type: the alert engine's
 * table, by the time of the fix that raised each one (the time it was raised for alerts with
 * no fix: a silence, a confirmed block). A late alert (a black box emptied hours later) falls
 * on the day it happened, not the day it arrived.
 */
import type { ReportAlert } from '../../src/contract';
import { alertsOfVehicles } from '../alerts/queries/alerts';
import type { Db } from '../platform/db/client';
import type { HistorySubject } from './queries/reports';

export interface ReportAlerts {
  /** The alerts of this vehicle in [from, to), by time, raised while the reader could see it. */
  of(
    db: Db,
    vehicle: HistorySubject,
    from: Date,
    to: Date,
  ): Promise<(ReportAlert & { vehicleId: string })[]>;
}

export const storedAlerts: ReportAlerts = {
  of: (db, vehicle, from, to) => alertsOfVehicles(db, [vehicle.id], vehicle.owners, from, to),
};
