/**
 * Labelled markers (a history's stops, alerts, start and end): a coloured disc with a short
 * text in it, drawn above the route. Clicking one calls `onSelect` with its id. Renders nothing.
 */
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import { fromLonLat } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import CircleStyle from 'ol/style/Circle';
import Fill from 'ol/style/Fill';
import Stroke from 'ol/style/Stroke';
import Style from 'ol/style/Style';
import Text from 'ol/style/Text';
import { useEffect, useRef } from 'react';
import { useMap } from './MapView';

export interface Marker {
  id: string;
  latitude: number;
  longitude: number;
  color: string;
  /** One or two characters drawn inside ('P', 'A', '!'). */
  text: string;
}

const styles = new Map<string, Style>();
function styleOf(color: string, text: string): Style {
  const key = `${color}|${text}`;
  let style = styles.get(key);
  if (!style) {
    style = new Style({
      image: new CircleStyle({
        radius: 11,
        fill: new Fill({ color }),
        stroke: new Stroke({ color: '#ffffff', width: 2 }),
      }),
      text: new Text({
        text,
        font: 'bold 12px system-ui, sans-serif',
        fill: new Fill({ color: '#ffffff' }),
      }),
    });
    styles.set(key, style);
  }
  return style;
}

export function MarkersLayer({
  markers,
  onSelect,
}: {
  markers: Marker[];
  onSelect?: (id: string) => void;
}) {
  const map = useMap();
  const select = useRef(onSelect);
  select.current = onSelect;
  useEffect(() => {
    const source = new VectorSource({
      features: markers.map((m) => {
        const feature = new Feature(new Point(fromLonLat([m.longitude, m.latitude])));
        feature.setId(m.id);
        feature.setStyle(styleOf(m.color, m.text));
        return feature;
      }),
    });
    const layer = new VectorLayer({ source, zIndex: 8 });
    map.addLayer(layer);
    const click = map.on('singleclick', (event) => {
      const hit = map.forEachFeatureAtPixel(event.pixel, (f) => f, {
        layerFilter: (l) => l === layer,
      });
      if (hit) select.current?.(String(hit.getId()));
    });
    return () => {
      map.un('singleclick', click.listener);
      map.removeLayer(layer);
      layer.dispose();
    };
  }, [map, markers]);
  return null;
}
