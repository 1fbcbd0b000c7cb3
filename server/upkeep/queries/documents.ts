/**
 * Documents and what expires: the documents of the customers given plus their drivers' CNH
 * (licenseExpiry), each with the São Paulo calendar days left until its expiry day.
 */
import { and, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { DOCUMENT_KIND_LABELS, type ExpiringItem } from '../../../src/contract';
import { reportDay } from '../../../src/lib/report-period';
import { containsAny, type Filter } from '../../owned/queries';
import type { Db } from '../../platform/db/client';
import { documents, drivers, vehicles } from '../../schema';

interface BaseQuery {
  search: string;
  active?: boolean | undefined;
}

export const documentQueries = {
  table: documents,
  sorts: {
    expiry: documents.expiry,
    kind: documents.kind,
    createdAt: documents.createdAt,
    updatedAt: documents.updatedAt,
  },
  filters: (q: BaseQuery): Filter[] => [
    containsAny(q.search, [documents.name, documents.number, documents.notes]),
    q.active === undefined ? undefined : sql`${documents.active} = ${q.active}`,
  ],
};

/** The documents of these vehicles, and every driver's when `drivers`. */
function ownedBy(only: { vehicleIds: Set<string>; drivers: boolean }) {
  const ofVehicles =
    only.vehicleIds.size === 0 ? sql`false` : inArray(documents.vehicleId, [...only.vehicleIds]);
  return only.drivers ? or(ofVehicles, isNotNull(documents.driverId)) : ofVehicles;
}

/** The customer of each of these drivers. */
export async function driverClients(db: Db, driverIds: string[]): Promise<Map<string, string>> {
  if (driverIds.length === 0) return new Map();
  const rows = await db
    .select({ id: drivers.id, clientId: drivers.clientId })
    .from(drivers)
    .where(inArray(drivers.id, driverIds));
  return new Map(rows.map((row) => [row.id, row.clientId]));
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
/** Calendar days from `today` to `day` (both São Paulo days). */
export const daysBetween = (today: string, day: string) => dayNumber(day) - dayNumber(today);
const addDays = (day: string, n: number) =>
  new Date((dayNumber(day) + n) * DAY_MS).toISOString().slice(0, 10);

/**
 * What expires up to `days` São Paulo days after `now` (and what already expired), on the
 * customers given, the soonest first. `only` (the alert check, a rule's scope): only the
 * documents of these vehicles, and the drivers' (their documents and CNH) when `drivers`.
 */
export async function expiringList(
  db: Db,
  clientIds: string[],
  now: Date,
  days: number,
  only?: { vehicleIds: Set<string>; drivers: boolean },
): Promise<ExpiringItem[]> {
  if (clientIds.length === 0) return [];
  const today = reportDay(now);
  const last = addDays(today, days);
  const docs = await db
    .select({
      doc: documents,
      plate: vehicles.plate,
      driverName: drivers.completName,
    })
    .from(documents)
    .leftJoin(vehicles, sql`${vehicles.id} = ${documents.vehicleId}`)
    .leftJoin(drivers, sql`${drivers.id} = ${documents.driverId}`)
    .where(
      and(
        inArray(documents.clientId, clientIds),
        isNull(documents.canceledAt),
        sql`${documents.active}`,
        lte(documents.expiry, last),
        // A document of a removed vehicle or driver is gone with it.
        sql`(${vehicles.id} is null or ${vehicles.canceledAt} is null)`,
        sql`(${drivers.id} is null or ${drivers.canceledAt} is null)`,
        only ? ownedBy(only) : undefined,
      ),
    );
  const items: ExpiringItem[] = docs.map(({ doc, plate, driverName }) => ({
    id: doc.id,
    kind: doc.kind as ExpiringItem['kind'],
    label:
      doc.kind === 'other' || doc.kind === 'course'
        ? (doc.name ?? DOCUMENT_KIND_LABELS.other)
        : DOCUMENT_KIND_LABELS[doc.kind as ExpiringItem['kind']],
    name: doc.name,
    number: doc.number,
    expiry: doc.expiry,
    daysLeft: daysBetween(today, doc.expiry),
    vehicleId: doc.vehicleId,
    plate,
    driverId: doc.driverId,
    driverName,
  }));
  if (!only || only.drivers) {
    const cnhs = await db
      .select()
      .from(drivers)
      .where(
        and(
          inArray(drivers.clientId, clientIds),
          isNull(drivers.canceledAt),
          sql`${drivers.active}`,
          isNotNull(drivers.licenseExpiry),
          lte(drivers.licenseExpiry, last),
        ),
      );
    for (const d of cnhs) {
      if (!d.licenseExpiry) continue;
      items.push({
        id: `cnh:${d.id}`,
        kind: 'cnh',
        label: DOCUMENT_KIND_LABELS.cnh,
        name: d.licenseCategory ? `Categoria ${d.licenseCategory}` : null,
        number: d.licenseNumber,
        expiry: d.licenseExpiry,
        daysLeft: daysBetween(today, d.licenseExpiry),
        vehicleId: null,
        plate: null,
        driverId: d.id,
        driverName: d.completName,
      });
    }
  }
  return items.sort((a, b) => a.daysLeft - b.daysLeft || a.label.localeCompare(b.label));
}
