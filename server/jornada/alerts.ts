/**
 * The working-day alerts of one rule: JORNADA_DRIVING_LIMIT when a driver of the rule's
 * companies reaches 5 h of continuous driving in one of its vehicles (once per stretch), and
 * JORNADA_REST_SHORT when a driver's journey begins in one of them after less than 11 h of
 * rest (once per journey). Drivers are known by their RFID tag or by their assignment to a
 * vehicle (see service.ts).
 */
import type { AlertType } from '../../src/contract';
import { daysOf } from '../../src/lib/report-period';
import type { Db } from '../platform/db/client';
import { pendingAlerts } from './engine';
import { driversAssignedIn } from './queries/assignments';
import { driversTaggedOn, vehicleLabels } from './queries/jornada';
import { inputOf } from './service';

/** Enough to see a 5 h stretch and the 11 h rest before a journey begun within 6 h. */
const LOOK_BACK_MS = 30 * 3600_000;

export interface JornadaAlertItem {
  type: Extract<AlertType, 'JORNADA_DRIVING_LIMIT' | 'JORNADA_REST_SHORT'>;
  vehicleId: string;
  dedupeKey: string;
  details: Record<string, unknown>;
  plate: string | null;
  vehicleName: string | null;
}

export async function jornadaAlertItems(
  db: Db,
  rule: { id: string; type: string },
  scope: { clientIds: string[]; vehicleIds: Set<string> },
  now: Date,
): Promise<JornadaAlertItem[]> {
  const from = new Date(now.getTime() - LOOK_BACK_MS);
  const days = daysOf(from, now);
  const items: Omit<JornadaAlertItem, 'plate' | 'vehicleName'>[] = [];
  const [tagged, assigned] = await Promise.all([
    driversTaggedOn(db, scope.clientIds, days),
    driversAssignedIn(db, scope.clientIds, from, now),
  ]);
  const candidates = new Map([...tagged, ...assigned].map((d) => [d.id, d]));
  for (const driver of candidates.values()) {
    const input = await inputOf(db, driver, scope.clientIds, from, now);
    const pending = pendingAlerts(input, now.getTime());
    const details = { driverId: driver.id, driverName: driver.completName };
    if (rule.type === 'JORNADA_DRIVING_LIMIT' && pending.drivingLimit) {
      const { start, vehicleId, minutes } = pending.drivingLimit;
      if (scope.vehicleIds.has(vehicleId))
        items.push({
          type: 'JORNADA_DRIVING_LIMIT',
          vehicleId,
          // Once per driving stretch: a stretch is known by its start.
          dedupeKey: `${rule.id}:${driver.id}:JORNADA_DRIVING_LIMIT:${start}`,
          details: { ...details, since: new Date(start).toISOString(), minutes },
        });
    }
    if (rule.type === 'JORNADA_REST_SHORT')
      for (const j of pending.restShort)
        if (scope.vehicleIds.has(j.vehicleId))
          items.push({
            type: 'JORNADA_REST_SHORT',
            vehicleId: j.vehicleId,
            dedupeKey: `${rule.id}:${driver.id}:JORNADA_REST_SHORT:${j.start}`,
            details: {
              ...details,
              journeyStart: new Date(j.start).toISOString(),
              restMinutes: j.restMinutes,
            },
          });
  }
  const labels = await vehicleLabels(db, [...new Set(items.map((i) => i.vehicleId))]);
  return items.map((i) => ({
    ...i,
    plate: labels.get(i.vehicleId)?.plate ?? null,
    vehicleName: labels.get(i.vehicleId)?.name ?? null,
  }));
}
