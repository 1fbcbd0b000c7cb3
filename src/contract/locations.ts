/** Last locations (SPEC §3 "Location item"): what the map and the list beside it show. */
import * as v from 'valibot';
import { IdSchema } from './common';
import * as o from './objects';

/** Comma-separated ids; an empty value is no filter at all (not 'none of them'). */
const IdList = v.pipe(
  v.string(),
  v.transform((s: string) => {
    const ids = s
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    return ids.length ? ids : undefined;
  }),
  v.optional(v.pipe(v.array(IdSchema), v.maxLength(10_000))),
);

/**
 * `GET registros/real-time/lastLocation`: without `clientId`, everything the caller may see
 * (their customer and its descendants; a VISITOR's linked vehicles).
 */
export const LastLocationQuerySchema = o.strictObject({
  clientId: v.optional(IdSchema),
  vehicleIds: v.optional(IdList),
  fleets: v.optional(IdList),
});

export const LocationItemSchema = o.object({
  id: v.string(),
  type: v.picklist(['vehicle', 'tracker']),
  /** The vehicle's name, or 'Veículo'/'Rastreador' when it has none. */
  name: v.string(),
  plate: v.nullable(v.string()),
  vehicleType: v.nullable(v.string()),
  trackerId: v.string(),
  clientId: v.string(),
  latitude: v.number(),
  longitude: v.number(),
  speed: v.nullable(v.number()),
  course: v.nullable(v.number()),
  ignition: v.nullable(v.boolean()),
  battery: v.nullable(v.number()),
  driver: v.nullable(v.string()),
  /** True when that driver's CNH has expired (absent: it has not, or no driver is known). */
  driverLicenseExpired: v.optional(v.literal(true)),
  fixTime: v.string(),
  receivedAt: v.string(),
  /**
   * Since when the tracker reports without a GPS fix (absent or null: it has one). The place
   * and fixTime stay those of its last fix; the readings are its newest report's.
   */
  noGpsSince: v.optional(v.nullable(v.string())),
  /**
   * The number of this change of the last location: unique and increasing, the live stream's
   * event id. A client resumes after the greatest it has applied (Last-Event-ID).
   */
  eventId: v.pipe(v.string(), v.regex(/^\d{1,18}$/)),
});
export type LocationItem = v.InferOutput<typeof LocationItemSchema>;

export function locationName(item: { type: 'vehicle' | 'tracker'; name?: string | null }): string {
  return item.name?.trim() || (item.type === 'vehicle' ? 'Veículo' : 'Rastreador');
}
