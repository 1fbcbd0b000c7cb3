/**
 * Geometry on the ground, shared by the server's alert engine, the contract's geofence checks
 * and the map: positions in GeoJSON order ([longitude, latitude]), distances in metres.
 *
 * Geofences are small (a depot, a district, a stretch of road), so within one the earth is
 * treated as flat around the point being tested (an equirectangular projection centred on
 * it): the error stays far below a GPS fix's own. Circles are true ground circles (a radius
 * in metres), drawn as geodesic polygons where a polygon is needed.
 */

/** [longitude, latitude] */
export type Position = [number, number];

const EARTH_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Great-circle distance in metres. */
export function distanceMeters(a: Position, b: Position): number {
  const dLat = (b[1] - a[1]) * RAD;
  const dLon = (b[0] - a[0]) * RAD;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point `meters` away from `from` towards `bearing` (degrees from north). */
export function destination(from: Position, bearing: number, meters: number): Position {
  const d = meters / EARTH_M;
  const b = bearing * RAD;
  const lat1 = from[1] * RAD;
  const lon1 = from[0] * RAD;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lon2 =
    lon1 +
    Math.atan2(
      Math.sin(b) * Math.sin(d) * Math.cos(lat1),
      Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
    );
  return [((((lon2 / RAD + 540) % 360) + 360) % 360) - 180, lat2 / RAD];
}

/** A ground circle as a closed ring of `steps` + 1 positions (geodesic, not a map circle). */
export function circleRing(center: Position, radius: number, steps = 64): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < steps; i += 1) ring.push(destination(center, (360 * i) / steps, radius));
  const first = ring[0];
  if (first) ring.push([first[0], first[1]]);
  return ring;
}

/**
 * Ground metres of a radius measured in Web Mercator (EPSG:3857) units at a latitude: the
 * projection stretches distances by 1/cos(latitude), so a circle drawn on the map is about
 * 9 % too large at São Paulo and 15 % at Porto Alegre when its radius is taken as metres.
 */
export function mercatorToGroundMeters(radius: number, latitude: number): number {
  return radius * Math.cos(latitude * RAD);
}

/** Whether a point lies inside a ring (ray casting; the ring's closing position is ignored). */
export function insideRing(point: Position, ring: Position[]): boolean {
  const [x, y] = point;
  let inside = false;
  const n = ring.length - 1;
  for (let i = 0, j = n - 1; i < n; j = i, i += 1) {
    const a = ring[i];
    const b = ring[j];
    if (!a || !b) continue;
    if (a[1] > y !== b[1] > y && x < ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]) + a[0])
      inside = !inside;
  }
  return inside;
}

/** Metres from a point to the nearest edge of a ring (flat around the point). */
export function distanceToRingMeters(point: Position, ring: Position[]): number {
  const kx = Math.cos(point[1] * RAD) * RAD * EARTH_M;
  const ky = RAD * EARTH_M;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < ring.length - 1; i += 1) {
    const a = ring[i];
    const b = ring[i + 1];
    if (!a || !b) continue;
    const ax = (a[0] - point[0]) * kx;
    const ay = (a[1] - point[1]) * ky;
    const bx = (b[0] - point[0]) * kx;
    const by = (b[1] - point[1]) * ky;
    const dx = bx - ax;
    const dy = by - ay;
    const length = dx * dx + dy * dy;
    const t = length === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length));
    const px = ax + t * dx;
    const py = ay + t * dy;
    best = Math.min(best, Math.sqrt(px * px + py * py));
  }
  return best;
}

function orientation(p: Position, q: Position, r: Position): number {
  const value = (q[1] - p[1]) * (r[0] - q[0]) - (q[0] - p[0]) * (r[1] - q[1]);
  return Math.abs(value) < 1e-18 ? 0 : value > 0 ? 1 : 2;
}

function onSegment(p: Position, q: Position, r: Position): boolean {
  return (
    q[0] <= Math.max(p[0], r[0]) &&
    q[0] >= Math.min(p[0], r[0]) &&
    q[1] <= Math.max(p[1], r[1]) &&
    q[1] >= Math.min(p[1], r[1])
  );
}

function segmentsCross(p1: Position, q1: Position, p2: Position, q2: Position): boolean {
  const o1 = orientation(p1, q1, p2);
  const o2 = orientation(p1, q1, q2);
  const o3 = orientation(p2, q2, p1);
  const o4 = orientation(p2, q2, q1);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(p1, p2, q1)) ||
    (o2 === 0 && onSegment(p1, q2, q1)) ||
    (o3 === 0 && onSegment(p2, p1, q2)) ||
    (o4 === 0 && onSegment(p2, q1, q2))
  );
}

/**
 * Whether a closed ring crosses or touches itself (edges that are not neighbours meet).
 * Quadratic, with a bounding-box test first: rings are capped at a few thousand positions.
 */
export function ringSelfIntersects(ring: Position[]): boolean {
  const n = ring.length - 1;
  for (let i = 0; i < n; i += 1) {
    const a1 = ring[i];
    const a2 = ring[i + 1];
    if (!a1 || !a2) continue;
    const minX = Math.min(a1[0], a2[0]);
    const maxX = Math.max(a1[0], a2[0]);
    const minY = Math.min(a1[1], a2[1]);
    const maxY = Math.max(a1[1], a2[1]);
    for (let j = i + 2; j < n; j += 1) {
      // The first and last edges share the closing position: neighbours.
      if (i === 0 && j === n - 1) continue;
      const b1 = ring[j];
      const b2 = ring[j + 1];
      if (!b1 || !b2) continue;
      if (
        Math.max(b1[0], b2[0]) < minX ||
        Math.min(b1[0], b2[0]) > maxX ||
        Math.max(b1[1], b2[1]) < minY ||
        Math.min(b1[1], b2[1]) > maxY
      )
        continue;
      if (segmentsCross(a1, a2, b1, b2)) return true;
    }
  }
  return false;
}

/** [minLon, minLat, maxLon, maxLat] of positions. */
export function boundsOf(positions: Position[]): [number, number, number, number] {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const [x, y] of positions) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

/** Degrees of latitude and longitude that `meters` span at a latitude (to widen a box). */
export function metersToDegrees(meters: number, latitude: number): { lat: number; lon: number } {
  const lat = meters / (RAD * EARTH_M);
  const cos = Math.max(0.01, Math.cos(latitude * RAD));
  return { lat, lon: lat / cos };
}
