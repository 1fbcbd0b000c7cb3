/**
 * The configured base map as an OpenLayers layer (see src/contract/map.ts): raster tiles
 * from a URL template, a PMTiles archive served by Rastro (raster with ol-pmtiles, vector
 * with ol-pmtiles and ol-mapbox-style), or a MapLibre style with its own sources. A chunk of
 * its own: the vector machinery loads only when a vector base is configured.
 *
 * Labels use the browser's fonts: ol-mapbox-style would otherwise fetch web fonts from a CDN,
 * which the Content-Security-Policy does not allow (and an offline phone cannot reach).
 */
import type BaseLayer from 'ol/layer/Base';
import LayerGroup from 'ol/layer/Group';
import TileLayer from 'ol/layer/Tile';
import VectorTileLayer from 'ol/layer/VectorTile';
import WebGLTileLayer from 'ol/layer/WebGLTile';
import XYZ from 'ol/source/XYZ';
import type { MapConfig } from '../contract';

type TileConfig = Exclude<MapConfig, { kind: 'none' }>;
type StyleDocument = {
  version: number;
  sources: Record<string, { type: string }>;
  layers: { layout?: Record<string, unknown> }[];
  metadata?: Record<string, unknown>;
};

/** Font stacks of a style mapped to the browser's own sans-serif, weight and style kept. */
export function withSystemFonts<S extends StyleDocument>(style: S): S {
  for (const layer of style.layers) {
    const fonts = layer.layout?.['text-font'];
    if (!Array.isArray(fonts) || !fonts.every((f) => typeof f === 'string')) continue;
    const primary = String(fonts[0] ?? '');
    const weight = /bold/i.test(primary) ? 'Bold' : /medium|semibold/i.test(primary) ? 'Bold' : '';
    const italic = /italic/i.test(primary) ? 'Italic' : '';
    if (layer.layout)
      layer.layout['text-font'] = [`Arial ${weight} ${italic}`.replace(/ +/g, ' ').trim()];
  }
  return style;
}

async function fetchStyle(url: string): Promise<StyleDocument> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`estilo do mapa: ${res.status}`);
  return (await res.json()) as StyleDocument;
}

/** The built-in style of a Protomaps vector archive: the 'light' theme, labels in Portuguese. */
async function protomapsStyle(): Promise<StyleDocument> {
  const { layers, namedTheme } = await import('protomaps-themes-base');
  return {
    version: 8,
    sources: { protomaps: { type: 'vector' } },
    layers: layers('protomaps', namedTheme('light'), { lang: 'pt' }) as StyleDocument['layers'],
  };
}

export async function tileLayer(config: TileConfig): Promise<BaseLayer> {
  if (config.kind === 'xyz') {
    return new TileLayer({
      source: new XYZ({
        url: config.url,
        attributions: config.attribution,
        crossOrigin: 'anonymous',
      }),
    });
  }
  if (config.kind === 'pmtiles' && config.tiles === 'raster') {
    const { PMTilesRasterSource } = await import('ol-pmtiles');
    return new WebGLTileLayer({
      source: new PMTilesRasterSource({ url: config.url, attributions: config.attribution }),
    });
  }
  const { applyStyle, apply } = await import('ol-mapbox-style');
  if (config.kind === 'pmtiles') {
    const { PMTilesVectorSource } = await import('ol-pmtiles');
    const layer = new VectorTileLayer({
      declutter: true,
      source: new PMTilesVectorSource({ url: config.url, attributions: config.attribution }),
    });
    const style = withSystemFonts(
      config.style ? await fetchStyle(config.style) : await protomapsStyle(),
    );
    const source =
      Object.entries(style.sources).find(([, s]) => s.type === 'vector')?.[0] ?? 'protomaps';
    await applyStyle(layer, style, { source, updateSource: false });
    return layer;
  }
  const group = new LayerGroup();
  const style = withSystemFonts(await fetchStyle(config.url));
  await apply(group, style, { styleUrl: config.url });
  for (const layer of group.getLayersArray())
    layer.getSource()?.setAttributions(config.attribution);
  return group;
}
