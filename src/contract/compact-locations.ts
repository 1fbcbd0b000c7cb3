/**
 * `GET registros/real-time/lastLocation?format=compact`: the very same location items as the
 * default answer (which stays as it is: integrators rely on it), in a form about a sixth of
 * its size, for the PWA's full reads of 10,000 vehicles. Lossless: `expandLocations` gives
 * back exactly the items of the default answer, in the same order.
 *
 * What makes it small, before compression on the wire does the rest: one array per item
 * instead of an object, customers and vehicle types by index, times as milliseconds (fix
 * time after `since`, reception after the fix), event ids as the step from the previous
 * item, a tracker's own id not repeated, and the default name ('Veículo'/'Rastreador') left
 * out.
 */
import * as v from 'valibot';
import { isoMs } from '../lib/iso-time';
import { type LocationItem, locationName } from './locations';
import * as o from './objects';

/** The query of the lastLocation call with its optional answer format. */
export const LastLocationFormatSchema = v.optional(
  v.picklist(['compact'], 'Formato inválido: use compact ou omita'),
);

const nullableNumber = v.nullable(v.number());

/**
 * One item: [id, trackerId (null: a tracker without vehicle, whose id it is), name (null:
 * the default name), plate, vehicle type (index into `types`, or null), customer (index
 * into `clients`), latitude, longitude, speed, course, ignition, battery, driver, fix time
 * (ms after `since`), reception (ms after the fix), event id (step from the previous one),
 * without GPS since (ms after the fix, or null: it has a fix), and 1 only when the driver's
 * CNH has expired (absent otherwise)].
 */
const CompactRowSchema = v.tuple([
  v.string(),
  v.nullable(v.string()),
  v.nullable(v.string()),
  v.nullable(v.string()),
  v.nullable(v.pipe(v.number(), v.integer())),
  v.pipe(v.number(), v.integer()),
  v.number(),
  v.number(),
  nullableNumber,
  nullableNumber,
  v.nullable(v.boolean()),
  nullableNumber,
  v.nullable(v.string()),
  v.pipe(v.number(), v.integer()),
  v.pipe(v.number(), v.integer()),
  v.pipe(v.number(), v.integer()),
  v.nullish(v.pipe(v.number(), v.integer())),
  v.optional(v.literal(1)),
]);
type CompactRow = v.InferOutput<typeof CompactRowSchema>;

export const CompactLocationsSchema = o.object({
  format: v.literal('compact'),
  /** Fix times are counted from this instant (ms since 1970). */
  since: v.pipe(v.number(), v.integer()),
  /** Event ids are counted from this one (the first item's step is from here). */
  eventBase: v.pipe(v.string(), v.regex(/^\d{1,18}$/)),
  clients: v.array(v.string()),
  types: v.array(v.string()),
  rows: v.array(CompactRowSchema),
});
export type CompactLocations = v.InferOutput<typeof CompactLocationsSchema>;

/** Numbers each distinct value in order of first use. */
function dictionary() {
  const values: string[] = [];
  const index = new Map<string, number>();
  return {
    values,
    of(value: string) {
      let at = index.get(value);
      if (at === undefined) {
        at = values.push(value) - 1;
        index.set(value, at);
      }
      return at;
    },
  };
}

export function compactLocations(items: LocationItem[]): CompactLocations {
  const clients = dictionary();
  const types = dictionary();
  let since = Number.POSITIVE_INFINITY;
  for (const item of items) since = Math.min(since, isoMs(item.fixTime));
  if (!Number.isFinite(since)) since = 0;
  const eventBase = items[0]?.eventId ?? '0';
  let previous = BigInt(eventBase);
  const rows = items.map((item): CompactRow => {
    const fix = isoMs(item.fixTime);
    const event = BigInt(item.eventId);
    const step = Number(event - previous);
    previous = event;
    const row: CompactRow = [
      item.id,
      // A tracker without vehicle is its own item: its id is the tracker's.
      item.type === 'tracker' ? null : item.trackerId,
      item.name === locationName({ type: item.type }) ? null : item.name,
      item.plate,
      item.vehicleType === null ? null : types.of(item.vehicleType),
      clients.of(item.clientId),
      item.latitude,
      item.longitude,
      item.speed,
      item.course,
      item.ignition,
      item.battery,
      item.driver,
      fix - since,
      isoMs(item.receivedAt) - fix,
      step,
      item.noGpsSince ? isoMs(item.noGpsSince) - fix : null,
      item.driverLicenseExpired ? 1 : undefined,
    ];
    // Left out rather than sent as null: 10,000 rows stay as small.
    if (row[17] === undefined) row.pop();
    return row;
  });
  return {
    format: 'compact',
    since,
    eventBase,
    clients: clients.values,
    types: types.values,
    rows,
  };
}

export function expandLocations(compact: CompactLocations): LocationItem[] {
  let event = BigInt(compact.eventBase);
  return compact.rows.map((row) => {
    const [id, trackerId, name, plate, type, client, latitude, longitude] = row;
    const [, , , , , , , , speed, course, ignition, battery, driver, fixAfter, received, step] =
      row;
    const blind = row[16];
    const licenseExpired = row[17] === 1;
    const kind = trackerId === null ? 'tracker' : 'vehicle';
    const fix = compact.since + fixAfter;
    event += BigInt(step);
    return {
      id,
      type: kind,
      name: name ?? locationName({ type: kind }),
      plate,
      vehicleType: type === null ? null : (compact.types[type] ?? null),
      trackerId: trackerId ?? id,
      clientId: compact.clients[client] ?? '',
      latitude,
      longitude,
      speed,
      course,
      ignition,
      battery,
      driver,
      ...(licenseExpired ? { driverLicenseExpired: true as const } : {}),
      fixTime: new Date(fix).toISOString(),
      receivedAt: new Date(fix + received).toISOString(),
      eventId: event.toString(),
      ...(blind === null || blind === undefined
        ? {}
        : { noGpsSince: new Date(fix + blind).toISOString() }),
    };
  });
}
