/** Inventory look-ups that cross tables: images of vehicles, links between records. */
import { and, count, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { containsAny, type Filter } from '../../owned/queries';
import type { Db } from '../../platform/db/client';
import { plateContains } from '../../platform/db/search';
import {
  drivers,
  fleets,
  simCards,
  trackers,
  trackerTypes,
  vehicleImages,
  vehicles,
} from '../schema';

export type ImageRow = typeof vehicleImages.$inferSelect;

export async function imagesOf(db: Db, vehicleIds: string[]): Promise<ImageRow[]> {
  if (vehicleIds.length === 0) return [];
  return db
    .select()
    .from(vehicleImages)
    .where(inArray(vehicleImages.vehicleId, vehicleIds))
    .orderBy(vehicleImages.createdAt);
}

export async function trackerTypeExists(db: Db, id: string): Promise<boolean> {
  return (await trackerTypeProtocol(db, id)) !== undefined;
}

/** A live tracker type's protocol ('' when it has none); undefined when there is no such type. */
export async function trackerTypeProtocol(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ protocol: trackerTypes.protocol })
    .from(trackerTypes)
    .where(and(eq(trackerTypes.id, id), isNull(trackerTypes.canceledAt)));
  return row ? (row.protocol ?? '') : undefined;
}

/** Live vehicles among the ids that belong to the customer. */
export async function vehiclesOfClient(db: Db, clientId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: vehicles.id })
    .from(vehicles)
    .where(
      and(inArray(vehicles.id, ids), eq(vehicles.clientId, clientId), isNull(vehicles.canceledAt)),
    );
  return rows.map((row) => row.id);
}

export async function liveTrackersUsing(
  db: Db,
  column: 'vehicleId' | 'simCardId',
  id: string,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(trackers)
    .where(and(eq(trackers[column], id), isNull(trackers.canceledAt)));
  return row?.n ?? 0;
}

export async function liveVehiclesOfClient(db: Db, clientId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(vehicles)
    .where(and(eq(vehicles.clientId, clientId), isNull(vehicles.canceledAt)));
  return row?.n ?? 0;
}

const activeIs = (active: boolean | undefined, column: AnyPgColumn): Filter =>
  active === undefined ? undefined : eq(column, active);

interface BaseQuery {
  search: string;
  active?: boolean | undefined;
}

/** The table, sort columns and list filters of each customer-owned resource. */
export const vehicleQueries = {
  table: vehicles,
  sorts: {
    name: sql`lower(${vehicles.name})`,
    plate: vehicles.plate,
    createdAt: vehicles.createdAt,
    updatedAt: vehicles.updatedAt,
  },
  filters: (q: BaseQuery & { vehicleQuery: string }): Filter[] => [
    or(
      containsAny(q.search || q.vehicleQuery, [
        vehicles.name,
        vehicles.plate,
        vehicles.brand,
        vehicles.model,
      ]),
      plateContains(q.search || q.vehicleQuery, vehicles.plate),
    ),
    activeIs(q.active, vehicles.active),
  ],
};

export const driverQueries = {
  table: drivers,
  sorts: {
    completName: sql`lower(${drivers.completName})`,
    createdAt: drivers.createdAt,
    updatedAt: drivers.updatedAt,
  },
  filters: (q: BaseQuery & { completName: string; rfidcode: string; cpf: string }): Filter[] => [
    containsAny(q.search, [drivers.completName, drivers.cpf, drivers.rfidCode]),
    containsAny(q.completName, [drivers.completName]),
    q.rfidcode ? ilike(drivers.rfidCode, `%${q.rfidcode}%`) : undefined,
    q.cpf ? ilike(drivers.cpf, `%${q.cpf.replace(/\D/g, '')}%`) : undefined,
    activeIs(q.active, drivers.active),
  ],
};

export const simCardQueries = {
  table: simCards,
  sorts: {
    iccid: simCards.iccid,
    carrier: simCards.carrier,
    createdAt: simCards.createdAt,
    updatedAt: simCards.updatedAt,
  },
  filters: (q: BaseQuery): Filter[] => [
    containsAny(q.search, [simCards.iccid, simCards.phoneNumber, simCards.carrier]),
    activeIs(q.active, simCards.active),
  ],
};

export const trackerQueries = {
  table: trackers,
  sorts: {
    identifier: trackers.identifier,
    provider: trackers.provider,
    protocol: sql`coalesce(${trackers.protocol}, '')`,
    // Never heard from sorts as the oldest communication.
    lastSeenAt: sql`coalesce((select d.last_seen_at from device_status d
      where d.tracker_id = ${trackers.id}), '-infinity'::timestamptz)`,
    createdAt: trackers.createdAt,
    updatedAt: trackers.updatedAt,
  },
  filters: (q: BaseQuery): Filter[] => [
    containsAny(q.search, [trackers.identifier, trackers.provider, trackers.protocol]),
    activeIs(q.active, trackers.active),
  ],
};

export const fleetQueries = {
  table: fleets,
  sorts: {
    name: sql`lower(${fleets.name})`,
    createdAt: fleets.createdAt,
    updatedAt: fleets.updatedAt,
  },
  filters: (q: BaseQuery): Filter[] => [
    containsAny(q.search, [fleets.name, fleets.description]),
    activeIs(q.active, fleets.active),
  ],
};
