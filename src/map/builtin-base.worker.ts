/**
 * Builds the built-in base's geometries off the page's thread (builtin-base.ts draws them):
 * reads Natural Earth's 1:50m topology, turns it into land polygons, coastlines and borders,
 * projects them to the map's projection (EPSG:3857) and hands them over as flat coordinate
 * arrays, transferred rather than copied. Answers once, at start.
 */
import { fromEPSG4326 } from 'ol/proj/epsg3857';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-50m.json';
import { type BasePieces, type BuiltinBaseData, packPieces } from './builtin-base-data';

const worker = self as unknown as { postMessage(data: unknown, transfer: Transferable[]): void };

const topology = atlas as unknown as Topology<{
  countries: GeometryCollection;
  land: GeometryCollection;
}>;
const countries = topology.objects.countries;
const toMercator = (flat: number[]) => fromEPSG4326(flat, flat, 2);

const land = feature(topology, topology.objects.land);
const data: BuiltinBaseData = {
  land: packPieces(land, toMercator),
  // Coasts: arcs of one country only; borders: arcs shared by two.
  coast: packPieces(
    mesh(topology, countries, (a, b) => a === b),
    toMercator,
  ),
  border: packPieces(
    mesh(topology, countries, (a, b) => a !== b),
    toMercator,
  ),
};
const buffers = (pieces: BasePieces) => [
  pieces.flat.buffer,
  pieces.ends.buffer,
  pieces.rings.buffer,
];
worker.postMessage(data, [...buffers(data.land), ...buffers(data.coast), ...buffers(data.border)]);
