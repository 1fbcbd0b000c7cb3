/**
 * What a temporary shared link shows without signing in (GET registros/temp-access/{token}/
 * locations): the link's vehicles and the last position of each, kept live by reading again.
 * Less than a signed-in user's location item: no driver's name and no tracker, since whoever
 * holds the link is outside the customer.
 */
import * as v from 'valibot';
import * as o from './objects';
import { SharedVehicleSchema } from './sharing';

export const SharedLocationSchema = o.object({
  /** The vehicle's id. */
  id: v.string(),
  name: v.string(),
  plate: v.nullable(v.string()),
  vehicleType: v.nullable(v.string()),
  latitude: v.number(),
  longitude: v.number(),
  speed: v.nullable(v.number()),
  course: v.nullable(v.number()),
  ignition: v.nullable(v.boolean()),
  fixTime: v.string(),
  receivedAt: v.string(),
});
export type SharedLocation = v.InferOutput<typeof SharedLocationSchema>;

export const SharedLocationsSchema = o.object({
  name: v.string(),
  expiresAt: v.string(),
  vehicles: v.array(SharedVehicleSchema),
  locations: v.array(SharedLocationSchema),
});
export type SharedLocations = v.InferOutput<typeof SharedLocationsSchema>;
