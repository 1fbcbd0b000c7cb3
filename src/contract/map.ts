/**
 * `GET registros/map/config` (public): the base map the PWA draws under the vehicles, as the
 * server is configured (MAP_TILE_URL, MAP_PMTILES_FILE, MAP_STYLE; see the README).
 * - xyz: raster tiles from a URL template `{z}/{x}/{y}` (OpenStreetMap by default);
 * - pmtiles: one PMTiles archive served by Rastro itself (HTTP range requests), raster or
 *   vector; a vector one is drawn with `style` (a MapLibre style URL) or the built-in light
 *   style when null;
 * - style: a MapLibre/Mapbox style URL that brings its own sources (vector tiles);
 * - none: no tiles at all.
 * Whatever the choice, the PWA draws its built-in light base (land, coasts, borders) beneath,
 * so the map is never a blank box when no tile answers.
 */
import * as v from 'valibot';
import * as o from './objects';

const Attribution = v.string();

export const MapConfigSchema = v.variant('kind', [
  o.object({ kind: v.literal('xyz'), url: v.string(), attribution: Attribution }),
  o.object({
    kind: v.literal('pmtiles'),
    url: v.string(),
    tiles: v.picklist(['raster', 'vector']),
    minZoom: v.number(),
    maxZoom: v.number(),
    style: v.nullable(v.string()),
    attribution: Attribution,
  }),
  o.object({ kind: v.literal('style'), url: v.string(), attribution: Attribution }),
  o.object({ kind: v.literal('none') }),
]);
export type MapConfig = v.InferOutput<typeof MapConfigSchema>;
