/**
 * Geofences on a map: each in its colour (outline and a light fill) with its name, circles as
 * true ground circles. Clicking one selects it (when `onSelect` is given); `fitTo` frames the
 * map on one. Renders nothing itself.
 */
import Feature from 'ol/Feature';
import type Polygon from 'ol/geom/Polygon';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import Fill from 'ol/style/Fill';
import Stroke from 'ol/style/Stroke';
import Style from 'ol/style/Style';
import Text from 'ol/style/Text';
import { useEffect, useRef } from 'react';
import type { Geometry } from '../contract';
import { displayGeometry } from './geofence-shapes';
import { useMap } from './MapView';

export interface MapGeofence {
  id: string;
  name: string;
  color: string;
  geometry: Geometry;
}

function hexToRgba(hex: string, alpha: number) {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

function styleOf(g: MapGeofence, selected: boolean) {
  return new Style({
    stroke: new Stroke({ color: g.color, width: selected ? 4 : 2 }),
    fill: new Fill({ color: hexToRgba(g.color, selected ? 0.22 : 0.12) }),
    text: new Text({
      text: g.name,
      font: '600 13px system-ui, sans-serif',
      fill: new Fill({ color: '#1b2430' }),
      stroke: new Stroke({ color: '#fff', width: 3 }),
      overflow: true,
    }),
    zIndex: selected ? 2 : 1,
  });
}

export function GeofenceLayer({
  geofences,
  selectedId = null,
  hiddenId = null,
  onSelect,
  fitTo = null,
  zIndex = 5,
}: {
  geofences: MapGeofence[];
  selectedId?: string | null;
  /** One being edited is drawn by the editor instead. */
  hiddenId?: string | null;
  onSelect?: (id: string) => void;
  fitTo?: string | null;
  zIndex?: number;
}) {
  const map = useMap();
  const source = useRef(new VectorSource<Feature<Polygon>>());
  const select = useRef(onSelect);
  select.current = onSelect;
  const known = useRef(geofences);
  known.current = geofences;

  useEffect(() => {
    const layer = new VectorLayer({ source: source.current, zIndex });
    map.addLayer(layer);
    const click = map.on('singleclick', (event) => {
      if (!select.current) return;
      const hit = map.forEachFeatureAtPixel(event.pixel, (f) => f, {
        layerFilter: (l) => l === layer,
      });
      const id = hit?.getId();
      if (typeof id === 'string') select.current(id);
    });
    return () => {
      map.getTargetElement()?.removeAttribute('data-geofences');
      map.un('singleclick', click.listener);
      map.removeLayer(layer);
      layer.dispose();
    };
  }, [map, zIndex]);

  useEffect(() => {
    const features = geofences
      .filter((g) => g.id !== hiddenId)
      .map((g) => {
        const feature = new Feature(displayGeometry(g.geometry));
        feature.setId(g.id);
        feature.setStyle(styleOf(g, g.id === selectedId));
        return feature;
      });
    source.current.clear(true);
    source.current.addFeatures(features);
    // Nothing a person sees says how many are drawn: the journeys read it here.
    map.getTargetElement()?.setAttribute('data-geofences', String(features.length));
  }, [geofences, selectedId, hiddenId, map]);

  useEffect(() => {
    if (!fitTo) return;
    // Only when the choice changes, not when the list is read again.
    const geofence = known.current.find((g) => g.id === fitTo);
    if (!geofence) return;
    const extent = displayGeometry(geofence.geometry).getExtent();
    map.getView().fit(extent, { padding: [60, 60, 60, 60], maxZoom: 17, duration: 300 });
  }, [fitTo, map]);

  return null;
}
