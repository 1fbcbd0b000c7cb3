/**
 * A route on the map, coloured by speed: consecutive points of the same speed band make one
 * line, so a day of 8,640 points is a few hundred features, drawn over a white casing. The
 * map frames the route whenever it changes. Renders nothing itself; the map element carries
 * `data-route-points` once a frame with the route has been drawn (the browser bench waits on it).
 */

import Feature from 'ol/Feature';
import LineString from 'ol/geom/LineString';
import VectorLayer from 'ol/layer/Vector';
import { fromLonLat } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import Stroke from 'ol/style/Stroke';
import Style from 'ol/style/Style';
import { useEffect } from 'react';
import { useMap } from './MapView';
import { SPEED_BANDS, speedBand } from './speed-colors';

export interface RoutePoint {
  latitude: number;
  longitude: number;
  speed: number | null;
}

const casing = new Style({ stroke: new Stroke({ color: '#ffffff', width: 7 }), zIndex: 0 });
const bandStyles = SPEED_BANDS.map((band) => [
  casing,
  new Style({ stroke: new Stroke({ color: band.color, width: 4 }), zIndex: 1 }),
]);

export function RouteLayer({ points, fit = true }: { points: RoutePoint[]; fit?: boolean }) {
  const map = useMap();
  useEffect(() => {
    const features: Feature<LineString>[] = [];
    let run: number[][] = [];
    let band = -1;
    const flush = () => {
      if (run.length > 1) {
        const feature = new Feature(new LineString(run));
        feature.setStyle(bandStyles[band]);
        features.push(feature);
      }
    };
    for (const point of points) {
      const coordinate = fromLonLat([point.longitude, point.latitude]);
      const next = speedBand(point.speed);
      if (next !== band) {
        flush();
        // Each run starts where the last one ended, so the line has no breaks.
        run = run.length ? [run[run.length - 1] as number[], coordinate] : [coordinate];
        band = next;
      } else run.push(coordinate);
    }
    flush();
    const source = new VectorSource({ features });
    const layer = new VectorLayer({ source, zIndex: 5, updateWhileAnimating: true });
    map.addLayer(layer);
    const extent = source.getExtent();
    if (fit && features.length && extent)
      map.getView().fit(extent, { padding: [48, 48, 48, 48], maxZoom: 16, duration: 0 });
    const drawn = map.once('rendercomplete', () => {
      const target = map.getTargetElement();
      if (target) target.dataset.routePoints = String(points.length);
    });
    return () => {
      map.un('rendercomplete', drawn.listener);
      map.removeLayer(layer);
      layer.dispose();
    };
  }, [map, points, fit]);
  return null;
}
