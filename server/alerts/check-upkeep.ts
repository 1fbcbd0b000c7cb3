import { withinWindow } from '../../src/lib/schedule';
import { expiringList } from '../upkeep/queries/documents';
import { dueList } from '../upkeep/queries/maintenance';
import type { AlertContext } from './outlet';
import { activeRulesOfType, ruleScope } from './queries/alert-engine';
import { storeUnplaced, type UnplacedItem } from './store-unplaced';

/**
 * Raises MAINTENANCE_DUE for plans entering their warning margin or past their limit, on
 * the vehicles of each rule of the type, once per plan cycle and stage; then the documents'
 * alerts (checkDocuments). Returns how many.
 */
export async function checkUpkeep(context: AlertContext, now: Date): Promise<number> {
  const { db } = context;
  let count = 0;
  for (const rule of await activeRulesOfType(db, 'MAINTENANCE_DUE')) {
    if (rule.schedule && !withinWindow(rule.schedule, now.getTime())) continue;
    const scope = await ruleScope(db, rule);
    if (scope.vehicleIds.size === 0) continue;
    const due = (await dueList(db, scope.clientIds, now, scope.vehicleIds)).filter(
      (item) => item.status !== 'ok',
    );
    count += await storeUnplaced(
      context,
      rule,
      'MAINTENANCE_DUE',
      due.map((item) => ({
        vehicleId: item.vehicleId,
        // Once per cycle (the service it counts from) and stage: a service starts another.
        dedupeKey: `${rule.id}:${item.vehicleId}:MAINTENANCE_DUE:${item.planId}:${item.cycle}:${item.status}`,
        details: {
          stage: item.status,
          planId: item.planId,
          planName: item.planName,
          kmLeft: item.km?.left ?? null,
          hoursLeft: item.hours?.left ?? null,
          daysLeft: item.days?.left ?? null,
          dueDate: item.days?.due ?? null,
        },
        plate: item.plate,
        vehicleName: item.vehicleName,
      })),
    );
  }
  return count + (await checkDocuments(context, now));
}

/**
 * DOCUMENT_EXPIRING within each rule's daysBefore (São Paulo days): the documents of the
 * vehicles a rule covers and, when the rule covers its whole customer (no vehicle nor fleet
 * chosen), the drivers' too — their documents and CNH. A driver belongs to no vehicle nor
 * fleet: a rule limited to some vehicles speaks of those vehicles only.
 */
async function checkDocuments(context: AlertContext, now: Date): Promise<number> {
  const { db } = context;
  let count = 0;
  for (const rule of await activeRulesOfType(db, 'DOCUMENT_EXPIRING')) {
    if (rule.schedule && !withinWindow(rule.schedule, now.getTime())) continue;
    const daysBefore = Number((rule.params as { daysBefore?: unknown }).daysBefore ?? 30);
    if (!Number.isFinite(daysBefore)) continue;
    const scope = await ruleScope(db, rule);
    const drivers = rule.vehicleIds.length === 0 && rule.fleetIds.length === 0;
    if (scope.vehicleIds.size === 0 && !drivers) continue;
    const expiring = await expiringList(db, scope.clientIds, now, daysBefore, {
      vehicleIds: scope.vehicleIds,
      drivers,
    });
    count += await storeUnplaced(
      context,
      rule,
      'DOCUMENT_EXPIRING',
      expiring.flatMap((doc): UnplacedItem[] => {
        const common = {
          details: {
            documentId: doc.id,
            kind: doc.kind,
            label: doc.label,
            number: doc.number,
            expiry: doc.expiry,
            daysLeft: doc.daysLeft,
            daysBefore,
          },
          plate: doc.plate,
          vehicleName: null,
        };
        // Once per document and expiry: a renewed document (a new expiry) warns again.
        if (doc.vehicleId !== null)
          return [
            {
              ...common,
              vehicleId: doc.vehicleId,
              dedupeKey: `${rule.id}:${doc.vehicleId}:DOCUMENT_EXPIRING:${doc.id}:${doc.expiry}`,
            },
          ];
        if (doc.driverId === null) return [];
        return [
          {
            ...common,
            vehicleId: null,
            driverId: doc.driverId,
            driverName: doc.driverName,
            // The CNH's id is 'cnh:<driver>': a new licenseExpiry is a new key too.
            dedupeKey: `${rule.id}:driver:${doc.driverId}:DOCUMENT_EXPIRING:${doc.id}:${doc.expiry}`,
          },
        ];
      }),
    );
  }
  return count;
}
