/**
 * A popup anchored to a place on the map (an OpenLayers overlay) whose content is React.
 * Renders into the overlay's element through a portal; nothing when there is no position.
 */
import Overlay from 'ol/Overlay';
import { fromLonLat } from 'ol/proj';
import { type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useMap } from './MapView';

export function Popup({
  position,
  children,
}: {
  position: [number, number] | null;
  children: ReactNode;
}) {
  const map = useMap();
  const [element] = useState(() => document.createElement('div'));
  const [overlay] = useState(
    () =>
      new Overlay({
        element,
        positioning: 'bottom-center',
        offset: [0, -26],
        stopEvent: true,
        // Pans the map when the popup would be cut off at an edge.
        autoPan: { animation: { duration: 250 }, margin: 16 },
      }),
  );

  useEffect(() => {
    map.addOverlay(overlay);
    return () => {
      map.removeOverlay(overlay);
    };
  }, [map, overlay]);

  useEffect(() => {
    overlay.setPosition(position ? fromLonLat(position) : undefined);
  }, [overlay, position?.[0], position?.[1], position]);

  return position ? createPortal(children, element) : null;
}
