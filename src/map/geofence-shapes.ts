/**
 * Geofences between their wire shape (GeoJSON order, ground metres) and OpenLayers (Web
 * Mercator). A stored circle is drawn as a geodesic polygon, true on the ground; while it is
 * edited it is an `ol/geom/Circle`, whose radius is in projection units: a drawn circle's
 * radius is turned into ground metres (× cos latitude, about 9 % less at São Paulo and 15 % at
 * Porto Alegre) and a stored one back into projection units, so the round trip keeps its size.
 */
import type { Geometry as OlGeometry } from 'ol/geom';
import CircleGeometry from 'ol/geom/Circle';
import Polygon from 'ol/geom/Polygon';
import { fromLonLat, toLonLat } from 'ol/proj';
import type { Geometry } from '../contract';
import { circleRing, mercatorToGroundMeters, type Position } from '../lib/geo';

const toMap = (p: Position) => fromLonLat(p);

/** What the map draws for a stored geofence (circles as geodesic polygons). */
export function displayGeometry(geometry: Geometry): Polygon {
  if (geometry.type === 'Circle')
    return new Polygon([circleRing(geometry.center as Position, geometry.radius, 96).map(toMap)]);
  return new Polygon(geometry.coordinates.map((ring) => ring.map((p) => toMap(p as Position))));
}

/** What the editor modifies: a circle stays a circle (radius in projection units). */
export function editableGeometry(geometry: Geometry): OlGeometry {
  if (geometry.type !== 'Circle') return displayGeometry(geometry);
  const [lon, lat] = geometry.center;
  const projected = geometry.radius / Math.cos((lat * Math.PI) / 180);
  return new CircleGeometry(toMap([lon, lat]), projected);
}

const round = (n: number) => Math.round(n * 1e7) / 1e7;
const lonLat = (coordinate: number[]): [number, number] => {
  const [lon = 0, lat = 0] = toLonLat(coordinate);
  return [round(lon), round(lat)];
};

/** The wire geometry of an edited or drawn OpenLayers geometry (undefined for others). */
export function wireGeometry(geometry: OlGeometry | undefined): Geometry | undefined {
  if (geometry instanceof CircleGeometry) {
    const center = lonLat(geometry.getCenter());
    const radius = mercatorToGroundMeters(geometry.getRadius(), center[1]);
    return { type: 'Circle', center, radius: Math.round(radius * 10) / 10 };
  }
  if (geometry instanceof Polygon) {
    const ring = (geometry.getCoordinates()[0] ?? []).map(lonLat);
    const first = ring[0];
    const last = ring.at(-1);
    if (first && last && (first[0] !== last[0] || first[1] !== last[1])) ring.push([...first]);
    return { type: 'Polygon', coordinates: [ring] };
  }
  return undefined;
}

/** A short description: '12 vértices' or 'raio de 250 m'. */
export function describeGeometry(geometry: Geometry): string {
  if (geometry.type === 'Circle')
    return geometry.radius >= 1000
      ? `círculo, raio de ${(geometry.radius / 1000).toLocaleString('pt-BR', { maximumFractionDigits: 2 })} km`
      : `círculo, raio de ${Math.round(geometry.radius)} m`;
  return `polígono, ${(geometry.coordinates[0]?.length ?? 1) - 1} vértices`;
}
