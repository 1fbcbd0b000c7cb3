/**
 * The built-in light base: land, coastlines and country borders from Natural Earth (1:50m,
 * the `world-atlas` package), drawn beneath whatever tile source is configured. When no
 * tile answers — no tile server, no signal, a tile not yet cached — the map still shows
 * where things are instead of a blank box. Its data (about 750 KB, a third of it gzip) is a
 * chunk of its own, loaded with the map and precached by the service worker.
 */
import { type Feature, Feature as OlFeature } from 'ol';
import GeoJSON from 'ol/format/GeoJSON';
import { type Geometry, MultiLineString, MultiPolygon } from 'ol/geom';
import VectorImageLayer from 'ol/layer/VectorImage';
import VectorSource from 'ol/source/Vector';
import { Fill, Stroke, Style } from 'ol/style';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** Sea and land in the light tones of common base maps, so tiles over them do not clash. */
export const BUILTIN_COLORS = { sea: '#aad3df', land: '#f2efe9' } as const;

const land = new Style({ fill: new Fill({ color: BUILTIN_COLORS.land }) });
const coast = new Style({ stroke: new Stroke({ color: '#7fa8b8', width: 1 }) });
const border = new Style({
  stroke: new Stroke({ color: '#a89fb1', width: 1.2, lineDash: [6, 4] }),
});

export async function builtinBaseLayer() {
  const { default: atlas } = await import('world-atlas/countries-50m.json');
  const topology = atlas as unknown as Topology<{
    countries: GeometryCollection;
    land: GeometryCollection;
  }>;
  const format = new GeoJSON({ featureProjection: 'EPSG:3857' });
  const countries = topology.objects.countries;
  // One feature per polygon and per line, not one world-wide multi-geometry: the source's
  // spatial index then hands each frame only what is in view (a city: a few features).
  const pieces = (geojson: object, style: Style) =>
    (format.readFeatures(geojson) as Feature<Geometry>[]).flatMap((whole) => {
      const geometry = whole.getGeometry();
      const parts =
        geometry instanceof MultiPolygon
          ? geometry.getPolygons()
          : geometry instanceof MultiLineString
            ? geometry.getLineStrings()
            : geometry
              ? [geometry]
              : [];
      return parts.map((part) => new OlFeature({ geometry: part, style }));
    });
  const features = [
    ...pieces(feature(topology, topology.objects.land), land),
    // Coasts: arcs of one country only; borders: arcs shared by two.
    ...pieces(
      mesh(topology, countries, (a, b) => a === b),
      coast,
    ),
    ...pieces(
      mesh(topology, countries, (a, b) => a !== b),
      border,
    ),
  ];
  return new VectorImageLayer({
    source: new VectorSource({ features, attributions: 'Base embutida: Natural Earth' }),
    background: BUILTIN_COLORS.sea,
    zIndex: -1,
    properties: { name: 'builtin-base' },
    style: (f) => f.get('style') as Style,
  });
}
