import { boundingExtent } from 'ol/extent';
import { fromLonLat } from 'ol/proj';
import { useEffect, useRef } from 'react';
import { useMap } from './MapView';

/** Frames the map on these places the first time there are any; later moves are the user's. */
export function FitOnce({
  points,
  maxZoom = 15,
}: {
  points: [number, number][];
  maxZoom?: number;
}) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (done.current || points.length === 0) return;
    done.current = true;
    const extent = boundingExtent(points.map((p) => fromLonLat(p)));
    map.getView().fit(extent, { padding: [72, 72, 72, 72], maxZoom, duration: 0 });
  }, [map, points, maxZoom]);
  return null;
}
