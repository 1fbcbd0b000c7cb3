/**
 * SEAM (issue 11): the alerts a history shows as markers and a summary counts by type. They
 * come from the alert engine's table, which the alerts work (issue 11) adds; until it is on
 * main this answers none, and histories and summaries show no alerts. When it lands, replace
 * `noAlerts` with a query of that table (vehicle ids, [from, to), by time) in server/db/.
 */
import type { ReportAlert } from '../../src/contract';
import type { Db } from '../db/client';

export interface ReportAlerts {
  /** The alerts of these vehicles in [from, to), by time. */
  of(
    db: Db,
    vehicleIds: string[],
    from: Date,
    to: Date,
  ): Promise<(ReportAlert & { vehicleId: string })[]>;
}

export const noAlerts: ReportAlerts = {
  of: async () => [],
};
