/**
 * The built-in light base: land, coastlines and country borders from Natural Earth (1:50m,
 * the `world-atlas` package), drawn beneath whatever tile source is configured. When no
 * tile answers — no tile server, no signal, a tile not yet cached — the map still shows
 * where things are instead of a blank box. Its data (about 750 KB, a third of it gzip) is
 * read by a worker of its own (builtin-base.worker.ts), precached by the service worker; the
 * page only makes features of the geometries it hands over.
 */
import { Feature } from 'ol';
import { LineString, Polygon } from 'ol/geom';
import VectorImageLayer from 'ol/layer/VectorImage';
import VectorSource from 'ol/source/Vector';
import { Fill, Stroke, Style } from 'ol/style';
import { type BasePieces, type BuiltinBaseData, unpackPieces } from './builtin-base-data';

/** Sea and land in the light tones of common base maps, so tiles over them do not clash. */
export const BUILTIN_COLORS = { sea: '#aad3df', land: '#f2efe9' } as const;

const land = new Style({ fill: new Fill({ color: BUILTIN_COLORS.land }) });
const coast = new Style({ stroke: new Stroke({ color: '#7fa8b8', width: 1 }) });
const border = new Style({
  stroke: new Stroke({ color: '#a89fb1', width: 1.2, lineDash: [6, 4] }),
});

/** The geometries, built by a worker of their own (reading the topology takes a while). */
function buildInWorker(): Promise<BuiltinBaseData> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./builtin-base.worker.ts', import.meta.url), {
      type: 'module',
      name: 'builtin-base',
    });
    worker.onmessage = ({ data }: MessageEvent<BuiltinBaseData>) => {
      worker.terminate();
      resolve(data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'builtin base worker failed'));
    };
  });
}

/** Features made per task: the page answers in between. */
const FEATURES_PER_TASK = 300;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * One feature per polygon and per line, not one world-wide multi-geometry: the source's
 * spatial index then hands each frame only what is in view (a city: a few features). Made a
 * few hundred per task (some 3,000 in all).
 */
async function baseFeatures(data: BuiltinBaseData): Promise<Feature[]> {
  const features: Feature[] = [];
  const kinds: [BasePieces, Style, boolean][] = [
    [data.land, land, true],
    [data.coast, coast, false],
    [data.border, border, false],
  ];
  for (const [pieces, style, polygon] of kinds)
    for (const [flat, ends] of unpackPieces(pieces)) {
      const geometry = polygon ? new Polygon(flat, 'XY', ends) : new LineString(flat, 'XY');
      features.push(new Feature({ geometry, style }));
      if (features.length % FEATURES_PER_TASK === 0) await nextTask();
    }
  return features;
}

export async function builtinBaseLayer() {
  const features = await baseFeatures(await buildInWorker());
  return new VectorImageLayer({
    source: new VectorSource({ features, attributions: 'Base embutida: Natural Earth' }),
    background: BUILTIN_COLORS.sea,
    zIndex: -1,
    properties: { name: 'builtin-base' },
    style: (f) => f.get('style') as Style,
  });
}
