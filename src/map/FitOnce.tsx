import { boundingExtent } from 'ol/extent';
import { fromLonLat } from 'ol/proj';
import { useEffect, useRef } from 'react';
import { useMap } from './MapView';

/**
 * Frames the map on these places the first time there are any; later moves are the user's.
 * Keyed by customer, it frames again when another customer's places come.
 */
export function FitOnce({
  points,
  maxZoom = 15,
  padding = [72, 72, 72, 72],
  tookOver = false,
}: {
  points: [number, number][];
  maxZoom?: number;
  /** Room kept around the places (top, right, bottom, left px): more where labels are wide. */
  padding?: [number, number, number, number];
  /** The user is at work on the map (chose a vehicle, draws a fence): it is never moved now. */
  tookOver?: boolean;
}) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (tookOver) done.current = true;
    if (done.current || points.length === 0) return;
    done.current = true;
    const extent = boundingExtent(points.map((p) => fromLonLat(p)));
    // A narrow map (a phone) keeps most of itself for the places: at most a fifth a side.
    const [width = 0, height = 0] = map.getSize() ?? [];
    const [top, right, bottom, left] = padding;
    const room = (px: number, size: number) => (size > 0 ? Math.min(px, size / 5) : px);
    map.getView().fit(extent, {
      padding: [room(top, height), room(right, width), room(bottom, height), room(left, width)],
      maxZoom,
      duration: 0,
    });
  }, [map, points, maxZoom, padding, tookOver]);
  return null;
}
