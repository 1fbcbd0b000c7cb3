/**
 * The base map under the vehicles: the built-in light base (land, coasts, borders) always at
 * the bottom, and over it the base map the server is configured with (`config`, from
 * `registros/map/config`: raster tiles, a PMTiles archive served by Rastro, or a vector style). When no tile
 * answers, the built-in base still shows where things are. The service worker keeps the
 * tiles seen for use without signal (bounded).
 *
 * The map element says what was drawn, for tests and the benchmark (nothing a person sees
 * tells it): `data-base-map` (the configured kind), `data-builtin-base="drawn"` once the
 * built-in base was painted, and `data-base-tiles` (tiles of the configured source loaded).
 */
import type BaseLayer from 'ol/layer/Base';
import type Layer from 'ol/layer/Layer';
import type TileSource from 'ol/source/Tile';
import { useEffect } from 'react';
import type { MapConfig } from '../contract';
import { whenIdle } from '../lib/idle';
import { useMap } from './MapView';

/** How long after the page's first frame the built-in base waits before it is built. */
const AFTER_FRAME_MS = 300;

/**
 * `config`: the server's base map (hooks/useMapConfig); without it, only the built-in base.
 * `ready`: whether what the page came for is there to draw (the fleet map: its vehicles); the
 * built-in base is built after the first frame that follows, so it never delays that frame.
 */
export function BaseTiles({
  config = null,
  ready = true,
}: {
  config?: MapConfig | null;
  ready?: boolean;
}) {
  const map = useMap();

  // The built-in base, beneath everything.
  useEffect(() => {
    if (!ready) return;
    let layer: BaseLayer | undefined;
    let cancelled = false;
    let frames = 0;
    let stopWaiting = () => {};
    // Built after the page's first frame with what it came for, once the page has had a
    // moment to answer after it and is idle.
    const afterFirstFrame = (run: () => void) => {
      let stopLater = () => {};
      const later = () => {
        const timer = setTimeout(() => {
          stopLater = whenIdle(run, 1500, 200);
        }, AFTER_FRAME_MS);
        stopLater = () => clearTimeout(timer);
      };
      const drawn = map.once('rendercomplete', () => {
        frames += 1;
        later();
      });
      // A map with nothing new to draw completes no frame: do not wait for one for long.
      const timer = setTimeout(() => {
        if (frames > 0 || cancelled) return;
        map.un('rendercomplete', drawn.listener);
        later();
      }, 3000);
      stopWaiting = () => {
        clearTimeout(timer);
        map.un('rendercomplete', drawn.listener);
        stopLater();
      };
    };
    const build = () =>
      import('./builtin-base').then(async ({ builtinBaseLayer }) => {
        const built = await builtinBaseLayer();
        if (cancelled) return built.dispose();
        layer = built;
        built.once('postrender', () => {
          const target = map.getTargetElement();
          if (target) target.dataset.builtinBase = 'drawn';
        });
        map.addLayer(built);
      });
    afterFirstFrame(() => {
      if (!cancelled) void build();
    });
    return () => {
      cancelled = true;
      stopWaiting();
      if (layer) {
        map.removeLayer(layer);
        layer.dispose();
      }
    };
  }, [map, ready]);

  // The configured base map over it.
  useEffect(() => {
    const target = map.getTargetElement();
    if (target) target.dataset.baseMap = config?.kind ?? 'none';
    if (!config || config.kind === 'none') return;
    let layer: BaseLayer | undefined;
    let cancelled = false;
    let loaded = 0;
    void import('./tile-layers')
      .then(({ tileLayer }) => tileLayer(config))
      .then((made) => {
        if (cancelled) return made.dispose();
        layer = made;
        made.setZIndex(0);
        const layers =
          'getLayersArray' in made
            ? (made as { getLayersArray(): Layer[] }).getLayersArray()
            : [made as Layer];
        for (const one of layers) {
          const source = one.getSource() as TileSource | null;
          source?.on('tileloadend', () => {
            loaded += 1;
            if (target) target.dataset.baseTiles = String(loaded);
          });
        }
        map.addLayer(made);
      })
      .catch((err: unknown) => {
        // The built-in base stays; the reason goes to the console for whoever configures.
        console.warn('mapa base: não foi possível carregar', err);
      });
    return () => {
      cancelled = true;
      if (layer) {
        map.removeLayer(layer);
        layer.dispose();
      }
    };
  }, [map, config]);

  return null;
}
