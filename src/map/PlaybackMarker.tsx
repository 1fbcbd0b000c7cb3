/**
 * The vehicle being played back along its history: its badge with the heading arrow, moved in
 * place at every frame; with `follow`, the map keeps it in the middle. Renders nothing.
 */
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import { fromLonLat } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import { useEffect, useRef } from 'react';
import { useMap } from './MapView';
import { vehicleStyle } from './vehicle-styles';

export function PlaybackMarker({
  position,
  vehicleType,
  follow,
}: {
  position: {
    latitude: number;
    longitude: number;
    speed: number | null;
    course: number | null;
  } | null;
  vehicleType: string | null;
  follow: boolean;
}) {
  const map = useMap();
  const feature = useRef(new Feature(new Point([0, 0])));
  useEffect(() => {
    const layer = new VectorLayer({
      source: new VectorSource({ features: [feature.current] }),
      zIndex: 12,
      updateWhileAnimating: true,
      updateWhileInteracting: true,
    });
    map.addLayer(layer);
    return () => {
      map.removeLayer(layer);
      layer.dispose();
    };
  }, [map]);
  useEffect(() => {
    const f = feature.current;
    if (!position) {
      f.setStyle(new Array(0));
      return;
    }
    const coordinate = fromLonLat([position.longitude, position.latitude]);
    f.getGeometry()?.setCoordinates(coordinate);
    const moving = (position.speed ?? 0) >= 5;
    f.setStyle(vehicleStyle(vehicleType, moving ? 'moving' : 'idle', position.course, true));
    if (follow) map.getView().setCenter(coordinate);
  }, [map, position, vehicleType, follow]);
  return null;
}
