/**
 * The built-in base's geometries as its worker packs them and the page unpacks them: the same
 * polygons and lines, with the same projected coordinates, as OpenLayers' own GeoJSON reader
 * gives for Natural Earth's topology (what the page built on its thread before).
 */
import GeoJSON from 'ol/format/GeoJSON';
import { type Geometry, MultiLineString, MultiPolygon } from 'ol/geom';
import { fromEPSG4326 } from 'ol/proj/epsg3857';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { describe, expect, it } from 'vitest';
import atlas from 'world-atlas/countries-50m.json';
import { packPieces, unpackPieces } from '../../src/map/builtin-base-data';

const topology = atlas as unknown as Topology<{
  countries: GeometryCollection;
  land: GeometryCollection;
}>;
const project = (flat: number[]) => fromEPSG4326(flat, flat, 2);

/** Each polygon's or line's flat coordinates and ends, as OpenLayers reads the GeoJSON. */
function olPieces(geojson: object): { flat: number[]; ends: number[] }[] {
  const format = new GeoJSON({ featureProjection: 'EPSG:3857' });
  return format.readFeatures(geojson).flatMap((whole) => {
    const geometry = whole.getGeometry() as Geometry | undefined;
    const parts =
      geometry instanceof MultiPolygon
        ? geometry.getPolygons()
        : geometry instanceof MultiLineString
          ? geometry.getLineStrings()
          : geometry
            ? [geometry]
            : [];
    return parts.map((part) => {
      const simple = part as unknown as { getFlatCoordinates(): number[]; getEnds?(): number[] };
      const flat = simple.getFlatCoordinates();
      return { flat, ends: simple.getEnds?.() ?? [flat.length] };
    });
  });
}

function unpacked(geojson: object) {
  return [...unpackPieces(packPieces(geojson, project))].map(([flat, ends]) => ({ flat, ends }));
}

describe('built-in base geometries', () => {
  it('packs and unpacks a polygon with a hole and two lines', () => {
    const pieces = unpacked({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [10, 0],
                [10, 10],
                [0, 0],
              ],
              [
                [1, 1],
                [2, 1],
                [2, 2],
                [1, 1],
              ],
            ],
          },
        },
        {
          type: 'Feature',
          geometry: {
            type: 'MultiLineString',
            coordinates: [
              [
                [0, 0],
                [0, 5],
              ],
              [
                [5, 5],
                [6, 6],
                [7, 7],
              ],
            ],
          },
        },
      ],
    });
    expect(pieces.map((p) => p.ends)).toEqual([[8, 16], [4], [6]]);
    expect(pieces[2]?.flat).toEqual(project([5, 5, 6, 6, 7, 7]));
  });

  it('gives the land, coasts and borders OpenLayers reads from Natural Earth', () => {
    const countries = topology.objects.countries;
    for (const geojson of [
      feature(topology, topology.objects.land),
      mesh(topology, countries, (a, b) => a === b),
      mesh(topology, countries, (a, b) => a !== b),
    ]) {
      const ours = unpacked(geojson);
      const theirs = olPieces(geojson);
      expect(ours.length).toBeGreaterThan(100);
      expect(ours.map((p) => p.ends)).toEqual(theirs.map((p) => p.ends));
      ours.forEach((piece, i) => {
        const other = theirs[i]?.flat ?? [];
        expect(piece.flat.length).toBe(other.length);
        for (let k = 0; k < other.length; k += 97)
          expect(piece.flat[k]).toBeCloseTo(other[k] ?? 0, 6);
      });
    }
  });
});
