/**
 * A customer's geofences in memory, for the alert engine and the geofence reports: a static spatial
 * index (flatbush) over their boxes, widened by the hysteresis margin, so that each fix costs one
 * index look-up and a point-in-polygon test only for the few geofences whose box holds it. For each
 * of those it answers whether the fix is inside and how far it is from the border (in metres),
 * which the engine needs to tell a real crossing from GPS jitter.
 */
import Flatbush from 'flatbush';
import {
  boundsOf,
  distanceMeters,
  distanceToRingMeters,
  insideRing,
  metersToDegrees,
  type Position,
} from '../../src/lib/geo';

export interface IndexedGeofence {
  id: string;
  name: string;
  speedLimit: number | null;
  shape:
    | { kind: 'polygon'; ring: Position[] }
    | { kind: 'circle'; center: Position; radius: number };
}

export interface Nearby {
  geofence: IndexedGeofence;
  inside: boolean;
  /** Metres from the border, inside or out. */
  border: number;
}

/** The geometry of the wire shape, as the index keeps it; undefined when unusable. */
export function shapeOf(geometry: unknown): IndexedGeofence['shape'] | undefined {
  const g = geometry as {
    type?: string;
    coordinates?: Position[][];
    center?: Position;
    radius?: number;
  };
  if (g?.type === 'Polygon' && Array.isArray(g.coordinates?.[0]))
    return { kind: 'polygon', ring: g.coordinates[0] };
  if (g?.type === 'Circle' && Array.isArray(g.center) && typeof g.radius === 'number')
    return { kind: 'circle', center: g.center, radius: g.radius };
  return undefined;
}

/** The shape's box widened by `margin` metres: [minLon, minLat, maxLon, maxLat]. */
export function boxOf(shape: IndexedGeofence['shape'], margin: number) {
  if (shape.kind === 'circle') {
    const d = metersToDegrees(shape.radius + margin, shape.center[1]);
    return [
      shape.center[0] - d.lon,
      shape.center[1] - d.lat,
      shape.center[0] + d.lon,
      shape.center[1] + d.lat,
    ] as const;
  }
  const [minX, minY, maxX, maxY] = boundsOf(shape.ring);
  const d = metersToDegrees(margin, Math.max(Math.abs(minY), Math.abs(maxY)));
  return [minX - d.lon, minY - d.lat, maxX + d.lon, maxY + d.lat] as const;
}

export class GeofenceIndex {
  private readonly index: Flatbush | undefined;
  readonly byId: Map<string, IndexedGeofence>;

  constructor(
    readonly geofences: IndexedGeofence[],
    /** Boxes are widened by this much: a fix outside every box is this far from any border. */
    readonly margin: number,
  ) {
    this.byId = new Map(geofences.map((g) => [g.id, g]));
    if (geofences.length === 0) return;
    const index = new Flatbush(geofences.length);
    for (const g of geofences) {
      const [minX, minY, maxX, maxY] = boxOf(g.shape, margin);
      index.add(minX, minY, maxX, maxY);
    }
    index.finish();
    this.index = index;
  }

  /** The geofences whose widened box holds the point, with inside and border distance. */
  near(longitude: number, latitude: number): Nearby[] {
    if (!this.index) return [];
    const found: Nearby[] = [];
    for (const i of this.index.search(longitude, latitude, longitude, latitude)) {
      const geofence = this.geofences[i];
      if (!geofence) continue;
      const point: Position = [longitude, latitude];
      const { shape } = geofence;
      if (shape.kind === 'circle') {
        const d = distanceMeters(shape.center, point);
        found.push({ geofence, inside: d <= shape.radius, border: Math.abs(d - shape.radius) });
      } else {
        found.push({
          geofence,
          inside: insideRing(point, shape.ring),
          border: distanceToRingMeters(point, shape.ring),
        });
      }
    }
    return found;
  }
}
