/**
 * Drawing and editing one geofence on the map: draw a polygon (click each vertex, double-click
 * or click the first to close) or a circle (click the centre, click again at the radius), or
 * place a circle at the map's centre (for keyboards); then drag vertices or the circle's edge
 * (Modify) and drag the whole shape (Translate). Every change reports the wire geometry, with
 * a circle's radius in ground metres (./geofence-shapes.ts). Renders nothing itself.
 */
import Feature from 'ol/Feature';
import type { Geometry as OlGeometry } from 'ol/geom';
import CircleGeometry from 'ol/geom/Circle';
import Draw from 'ol/interaction/Draw';
import Modify from 'ol/interaction/Modify';
import Translate from 'ol/interaction/Translate';
import VectorLayer from 'ol/layer/Vector';
import { toLonLat } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import Fill from 'ol/style/Fill';
import Stroke from 'ol/style/Stroke';
import Style from 'ol/style/Style';
import { useEffect, useRef } from 'react';
import type { Geometry } from '../contract';
import { editableGeometry, wireGeometry } from './geofence-shapes';
import { useMap } from './MapView';

export type EditorMode = 'idle' | 'polygon' | 'circle' | 'center-circle';

/** Smallest radius of a circle placed at the map's centre, in ground metres. */
const CENTER_RADIUS = 50;

export function GeofenceEditor({
  geometry,
  mode,
  color,
  onChange,
  onDrawn,
}: {
  /** The geometry being edited; null while nothing is drawn yet. */
  geometry: Geometry | null;
  mode: EditorMode;
  color: string;
  onChange: (geometry: Geometry) => void;
  /** A drawing ended (the page goes back to 'idle'). */
  onDrawn: (geometry: Geometry) => void;
}) {
  const map = useMap();
  const source = useRef(new VectorSource<Feature<OlGeometry>>());
  const callbacks = useRef({ onChange, onDrawn });
  callbacks.current = { onChange, onDrawn };
  /** The last geometry reported, so that its echo through props does not rebuild the shape. */
  const reported = useRef<Geometry | null>(null);

  const style = new Style({
    stroke: new Stroke({ color, width: 3, lineDash: [8, 6] }),
    fill: new Fill({ color: 'rgba(255, 255, 255, 0.25)' }),
  });
  const styleRef = useRef(style);
  styleRef.current = style;

  useEffect(() => {
    const layer = new VectorLayer({
      source: source.current,
      zIndex: 20,
      style: () => styleRef.current,
    });
    map.addLayer(layer);
    const modify = new Modify({ source: source.current });
    const translate = new Translate({ layers: [layer] });
    const report = () => {
      const wire = wireGeometry(source.current.getFeatures()[0]?.getGeometry());
      if (!wire) return;
      reported.current = wire;
      callbacks.current.onChange(wire);
    };
    modify.on('modifyend', report);
    translate.on('translateend', report);
    map.addInteraction(modify);
    map.addInteraction(translate);
    return () => {
      map.removeInteraction(modify);
      map.removeInteraction(translate);
      map.removeLayer(layer);
      layer.dispose();
    };
  }, [map]);

  // The shape follows the geometry given (a record opened, a radius typed).
  useEffect(() => {
    if (geometry && reported.current === geometry) return;
    source.current.clear();
    if (geometry) source.current.addFeature(new Feature(editableGeometry(geometry)));
  }, [geometry]);

  // A new colour redraws the shape (the layer's style reads styleRef).
  useEffect(() => {
    void color;
    for (const feature of source.current.getFeatures()) feature.changed();
  }, [color]);

  useEffect(() => {
    if (mode === 'center-circle') {
      const view = map.getView();
      const center = view.getCenter();
      const size = map.getSize();
      if (!center || !size) return;
      const lat = toLonLat(center)[1] ?? 0;
      const cos = Math.cos((lat * Math.PI) / 180);
      // A sixth of the visible width, in round ground metres: big enough to grab and adjust.
      const visible = (view.getResolution() ?? 1) * Math.min(size[0] ?? 0, size[1] ?? 0) * cos;
      const ground = Math.min(5000, Math.max(CENTER_RADIUS, Math.round(visible / 6 / 10) * 10));
      const circle = new CircleGeometry(center, ground / cos);
      const wire = wireGeometry(circle);
      if (wire) callbacks.current.onDrawn(wire);
      return;
    }
    if (mode !== 'polygon' && mode !== 'circle') return;
    const draw = new Draw({
      source: new VectorSource(),
      type: mode === 'polygon' ? 'Polygon' : 'Circle',
      style: styleRef.current,
    });
    draw.on('drawend', (event) => {
      const wire = wireGeometry(event.feature.getGeometry() ?? undefined);
      if (wire) callbacks.current.onDrawn(wire);
    });
    map.addInteraction(draw);
    return () => {
      map.removeInteraction(draw);
    };
  }, [mode, map]);

  return null;
}
