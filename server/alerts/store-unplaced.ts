import type { JORNADA_ALERT_TYPES, UPKEEP_ALERT_TYPES } from '../../src/contract';
import { driverClients } from '../upkeep/queries/documents';
import { vehicleClients } from '../upkeep/queries/maintenance';
import type { AlertContext } from './outlet';
import type { RuleRow } from './queries/alert-engine';

/** One alert of a periodic check over records: about a vehicle, or about a driver. */
export type UnplacedItem = (
  | { vehicleId: string; driverId?: undefined }
  | { vehicleId: null; driverId: string; driverName: string | null }
) & {
  dedupeKey: string;
  details: Record<string, unknown>;
  plate: string | null;
  vehicleName: string | null;
};

/**
 * Stores and delivers the alerts of one rule's periodic check over the fleet's records: they
 * have no position (no place, speed nor fix time), one row per item, each about a vehicle or
 * (a driver's document) about a driver, and in its customer.
 */
export async function storeUnplaced(
  { db, store, deliver }: AlertContext,
  rule: RuleRow,
  type: (typeof UPKEEP_ALERT_TYPES | typeof JORNADA_ALERT_TYPES)[number],
  items: UnplacedItem[],
): Promise<number> {
  if (items.length === 0) return 0;
  const vehiclesOf = await vehicleClients(db, [
    ...new Set(items.flatMap((i) => i.vehicleId ?? [])),
  ]);
  const driversOf = await driverClients(db, [...new Set(items.flatMap((i) => i.driverId ?? []))]);
  const clientOf = (item: UnplacedItem) =>
    (item.vehicleId === null ? driversOf.get(item.driverId) : vehiclesOf.get(item.vehicleId)) ??
    rule.clientId;
  const notified = await db.transaction((tx) =>
    store(
      tx,
      items.map((item) => ({
        clientId: clientOf(item),
        vehicleId: item.vehicleId,
        driverId: item.driverId ?? null,
        driverName: item.vehicleId === null ? item.driverName : null,
        ruleId: rule.id,
        type,
        geofenceId: null,
        latitude: null,
        longitude: null,
        speed: null,
        fixTime: null,
        late: false,
        dedupeKey: item.dedupeKey,
        details: item.details,
        rule,
        plate: item.plate,
        vehicleName: item.vehicleName,
        geofenceName: null,
      })),
    ),
  );
  deliver(notified);
  return notified.alerts.length;
}
