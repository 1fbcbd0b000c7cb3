/**
 * LOCATION_TIMEOUT: a periodic check (every ALERT_TIMEOUT_CHECK_SECONDS, in one process at a
 * time: server/platform/jobs.ts) over last locations, keyed by the silent vehicle's last fix:
 * raised once per silence, and two processes running it anyway store it once.
 */
import { withinWindow } from '../../src/lib/schedule';
import type { AlertContext } from './outlet';
import { activeRulesOfType, silentVehicles } from './queries/alert-engine';

/** Raises LOCATION_TIMEOUT for vehicles silent past their rules' minutes; returns how many. */
export async function checkTimeouts(
  { db, store, deliver }: AlertContext,
  now: Date,
): Promise<number> {
  const rules = await activeRulesOfType(db, 'LOCATION_TIMEOUT');
  let count = 0;
  for (const rule of rules) {
    if (rule.schedule && !withinWindow(rule.schedule, now.getTime())) continue;
    const minutes = Number((rule.params as { minutes?: unknown }).minutes);
    if (!Number.isFinite(minutes) || minutes <= 0) continue;
    const silent = await silentVehicles(db, rule, new Date(now.getTime() - minutes * 60_000));
    if (silent.length === 0) continue;
    const notified = await db.transaction((tx) =>
      store(
        tx,
        silent.map((v) => ({
          clientId: v.clientId,
          vehicleId: v.vehicleId,
          ruleId: rule.id,
          type: 'LOCATION_TIMEOUT',
          geofenceId: null,
          latitude: v.latitude,
          longitude: v.longitude,
          speed: v.speed,
          fixTime: v.fixTime,
          late: false,
          // Once per silence: the silence is named by the fix it follows.
          dedupeKey: `${rule.id}:${v.vehicleId}:LOCATION_TIMEOUT:${v.fixTime.getTime()}`,
          details: { minutes, lastFix: v.fixTime.toISOString() },
          rule,
          plate: v.plate,
          vehicleName: v.name,
          geofenceName: null,
        })),
      ),
    );
    count += notified.alerts.length;
    deliver(notified);
  }
  return count;
}
