/**
 * The base map: raster tiles from the configured URL (VITE_MAP_TILE_URL at build time,
 * OpenStreetMap by default). The service worker keeps the tiles seen for offline use.
 */
import TileLayer from 'ol/layer/Tile';
import XYZ from 'ol/source/XYZ';
import { useEffect } from 'react';
import { useMap } from './MapView';

export const TILE_URL =
  import.meta.env.VITE_MAP_TILE_URL || 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const TILE_ATTRIBUTION =
  import.meta.env.VITE_MAP_ATTRIBUTION ||
  '© <a href="https://www.openstreetmap.org/copyright">colaboradores do OpenStreetMap</a>';

export function BaseTiles() {
  const map = useMap();
  useEffect(() => {
    const layer = new TileLayer({
      source: new XYZ({ url: TILE_URL, attributions: TILE_ATTRIBUTION, crossOrigin: 'anonymous' }),
      zIndex: 0,
    });
    map.addLayer(layer);
    return () => {
      map.removeLayer(layer);
      layer.dispose();
    };
  }, [map]);
  return null;
}
