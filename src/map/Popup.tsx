/**
 * A popup about a place on the map whose content is React. On a wide screen it is an
 * OpenLayers overlay anchored above the place, kept clear of the map's edges (and so of the
 * zoom buttons, which are also drawn above it). Docked (phones), it is a sheet across the
 * bottom of the map instead: a finger-sized popup beside the vehicle would cover the map it
 * is about, and the zoom buttons with it.
 */
import Overlay from 'ol/Overlay';
import { fromLonLat } from 'ol/proj';
import { type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useMap } from './MapView';

/** Wider than the zoom buttons and their inset: an anchored popup never reaches under them. */
const EDGE_MARGIN = 64;

export function Popup({
  position,
  docked = false,
  children,
}: {
  position: [number, number] | null;
  docked?: boolean;
  children: ReactNode;
}) {
  const map = useMap();
  const [element] = useState(() => document.createElement('div'));
  const [overlay] = useState(
    () =>
      new Overlay({
        element,
        positioning: 'bottom-center',
        offset: [0, -30],
        stopEvent: true,
        // Pans the map when the popup would be cut off at an edge.
        autoPan: { animation: { duration: 250 }, margin: EDGE_MARGIN },
      }),
  );

  useEffect(() => {
    map.addOverlay(overlay);
    return () => {
      map.removeOverlay(overlay);
    };
  }, [map, overlay]);

  useEffect(() => {
    overlay.setPosition(position && !docked ? fromLonLat(position) : undefined);
  }, [overlay, position?.[0], position?.[1], position, docked]);

  if (!position) return null;
  if (docked) return <div className="map-sheet">{children}</div>;
  return createPortal(children, element);
}
