/**
 * The built-in base's geometries as they travel from its worker (builtin-base.worker.ts) to
 * the page: one set per kind (land, coast, border), each piece a polygon or a line of its
 * own. Coordinates are flat (x, y, x, y…, already projected); `ends[i]` is where ring or line
 * `i` ends in `flat`, and `rings[p]` how many rings pieces 0…p hold together (a line is one
 * ring). Plain data: packed and unpacked here, tested without a worker.
 */

export interface BasePieces {
  flat: Float64Array;
  ends: Uint32Array;
  rings: Uint32Array;
}

export interface BuiltinBaseData {
  land: BasePieces;
  coast: BasePieces;
  border: BasePieces;
}

type Position = number[];
type GeoGeometry =
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: string; coordinates?: unknown; geometries?: GeoGeometry[] };
interface GeoFeature {
  type: 'Feature';
  geometry: GeoGeometry | null;
}
type GeoJsonLike = GeoGeometry | GeoFeature | { type: 'FeatureCollection'; features: GeoFeature[] };

/** Each polygon and each line of `geojson` (multi-geometries split), as lists of rings. */
function piecesOf(geojson: GeoJsonLike): Position[][][] {
  if (geojson.type === 'FeatureCollection' && 'features' in geojson)
    return geojson.features.flatMap((one) => piecesOf(one));
  if (geojson.type === 'Feature' && 'geometry' in geojson)
    return geojson.geometry ? piecesOf(geojson.geometry) : [];
  const geometry = geojson as GeoGeometry;
  switch (geometry.type) {
    case 'Polygon':
      return [geometry.coordinates as Position[][]];
    case 'MultiPolygon':
      return geometry.coordinates as Position[][][];
    case 'LineString':
      return [[geometry.coordinates as Position[]]];
    case 'MultiLineString':
      return (geometry.coordinates as Position[][]).map((line) => [line]);
    case 'GeometryCollection':
      return ('geometries' in geometry ? (geometry.geometries ?? []) : []).flatMap((one) =>
        piecesOf(one),
      );
    default:
      return [];
  }
}

/** Packs the polygons and lines of `geojson`, each position passed through `project`. */
export function packPieces(geojson: object, project: (flat: number[]) => number[]): BasePieces {
  const pieces = piecesOf(geojson as GeoJsonLike);
  const flat: number[] = [];
  const ends: number[] = [];
  const rings: number[] = [];
  for (const piece of pieces) {
    for (const ring of piece) {
      for (const [x = 0, y = 0] of ring) flat.push(x, y);
      ends.push(flat.length);
    }
    rings.push(ends.length);
  }
  const projected = project(flat);
  return {
    flat: Float64Array.from(projected),
    ends: Uint32Array.from(ends),
    rings: Uint32Array.from(rings),
  };
}

/** Each piece's own flat coordinates and its ring ends (from 0), one after another. */
export function* unpackPieces(pieces: BasePieces): Generator<[flat: number[], ends: number[]]> {
  let ring = 0;
  for (const upTo of pieces.rings) {
    const start = ring === 0 ? 0 : (pieces.ends[ring - 1] ?? 0);
    const ends: number[] = [];
    for (; ring < upTo; ring++) ends.push((pieces.ends[ring] ?? 0) - start);
    const end = start + (ends.at(-1) ?? 0);
    yield [Array.from(pieces.flat.subarray(start, end)), ends];
  }
}
