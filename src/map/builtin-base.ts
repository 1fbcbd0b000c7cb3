/**
 * The built-in light base: land, coastlines and country borders from Natural Earth (1:50m,
 * the `world-atlas` package), drawn beneath whatever tile source is configured. When no
 * tile answers — no tile server, no signal, a tile not yet cached — the map still shows
 * where things are instead of a blank box. Its data (about 750 KB, a third of it gzip) is a
 * chunk of its own, loaded with the map and precached by the service worker.
 */
import type { Feature } from 'ol';
import GeoJSON from 'ol/format/GeoJSON';
import type { Geometry } from 'ol/geom';
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
  const read = (geojson: object) => format.readFeatures(geojson) as Feature<Geometry>[];
  const countries = topology.objects.countries;
  const features = [
    ...read(feature(topology, topology.objects.land)).map((f) => tagged(f, land)),
    // Coasts: arcs of one country only; borders: arcs shared by two.
    tagged(read(mesh(topology, countries, (a, b) => a === b))[0], coast),
    tagged(read(mesh(topology, countries, (a, b) => a !== b))[0], border),
  ].filter((f): f is Feature<Geometry> => f !== undefined);
  return new VectorImageLayer({
    source: new VectorSource({ features, attributions: 'Base embutida: Natural Earth' }),
    background: BUILTIN_COLORS.sea,
    zIndex: -1,
    properties: { name: 'builtin-base' },
    style: (f) => f.get('style') as Style,
  });
}

function tagged(feature: Feature<Geometry> | undefined, style: Style) {
  feature?.set('style', style, true);
  return feature;
}
