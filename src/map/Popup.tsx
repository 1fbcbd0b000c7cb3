/**
 * A popup about a place on the map whose content is React. On a wide screen it is an
 * OpenLayers overlay anchored above the place, kept clear of the map's edges (and so of the
 * zoom buttons, which are also drawn above it). Docked (phones), it is a sheet across the
 * bottom of the map instead: a finger-sized popup beside the vehicle would cover the map it
 * is about, and the zoom buttons with it.
 *
 * An anchored popup is never taller than the room above a followed vehicle (its details
 * scroll, the title with 'Fechar' and the actions stay in view): taller, on a short map, its
 * top was cut off by the map's edge. While the map follows the place, the popup does not pan
 * the map itself: the two pans fought at every new position and the popup never stood still.
 */
import Overlay from 'ol/Overlay';
import { fromLonLat } from 'ol/proj';
import { type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useMap } from './MapView';
import { FOLLOW_OFFSET } from './VehicleLayer';
import './Popup.css';

/** Wider than the zoom buttons and their inset: an anchored popup never reaches under them. */
const EDGE_MARGIN = 64;
/** From the place up to the popup's bottom edge (the vehicle's mark sits between). */
const ABOVE_PLACE = 30;
/** Left free above a followed vehicle's popup. */
const TOP_GAP = 12;
const AUTO_PAN = { animation: { duration: 250 }, margin: EDGE_MARGIN };

/**
 * The tallest an anchored popup may be on a map `height` px tall: it fits above a followed
 * vehicle (which sits FOLLOW_OFFSET below the middle), and between the margins the popup keeps
 * when it pans the map.
 */
const popupMaxHeight = (height: number) =>
  Math.max(
    0,
    Math.floor(
      Math.min(height * (0.5 + FOLLOW_OFFSET) - ABOVE_PLACE - TOP_GAP, height - 2 * EDGE_MARGIN),
    ),
  );

export function Popup({
  position,
  docked = false,
  followed = false,
  children,
}: {
  position: [number, number] | null;
  docked?: boolean;
  /** The map keeps the place in view itself (a followed vehicle): the popup does not pan it. */
  followed?: boolean;
  children: ReactNode;
}) {
  const map = useMap();
  const [element] = useState(() => document.createElement('div'));
  const [overlay] = useState(
    () =>
      new Overlay({
        element,
        positioning: 'bottom-center',
        offset: [0, -ABOVE_PLACE],
        stopEvent: true,
      }),
  );

  useEffect(() => {
    map.addOverlay(overlay);
    const sizeToMap = () => {
      const height = map.getSize()?.[1];
      if (height) element.style.setProperty('--popup-max-height', `${popupMaxHeight(height)}px`);
    };
    sizeToMap();
    const listener = map.on('change:size', sizeToMap);
    return () => {
      map.un('change:size', listener.listener);
      map.removeOverlay(overlay);
    };
  }, [map, overlay, element]);

  useEffect(() => {
    overlay.setPosition(position && !docked ? fromLonLat(position) : undefined);
    // Pans the map when the popup would be cut off at an edge.
    if (position && !docked && !followed) overlay.panIntoView(AUTO_PAN);
  }, [overlay, position?.[0], position?.[1], position, docked, followed]);

  if (!position) return null;
  if (docked) return <div className="map-sheet">{children}</div>;
  return createPortal(children, element);
}
