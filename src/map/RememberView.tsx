/**
 * Where a map was left, per map and customer, for this tab's session: back on the page (from
 * the alerts, a vehicle's page) the map shows the same place and zoom instead of framing the
 * whole fleet again; a new session frames it anew (the vehicles will have moved). Pure but for
 * sessionStorage.
 */
import type OlMap from 'ol/Map';
import { unByKey } from 'ol/Observable';
import { useEffect, useRef } from 'react';
import { useMap } from './MapView';

export interface SavedView {
  center: [number, number];
  zoom: number;
}

const storageKey = (name: string, scope: string) => `map-view:${name}:${scope}`;

export function readView(name: string, scope: string | null): SavedView | undefined {
  if (!scope) return undefined;
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(storageKey(name, scope)) ?? 'null');
    if (!saved || typeof saved !== 'object') return undefined;
    const { center, zoom } = saved as Partial<SavedView>;
    if (
      !Array.isArray(center) ||
      center.length !== 2 ||
      !center.every(Number.isFinite) ||
      typeof zoom !== 'number' ||
      !Number.isFinite(zoom)
    )
      return undefined;
    return { center: [center[0], center[1]], zoom };
  } catch {
    return undefined;
  }
}

/**
 * Puts `saved` on the map (when there is one) and, from then on, writes where the map rests
 * after each move while `keep()` says so (not before the map has shown anything of its own:
 * the start view is nobody's choice). Returns the stop.
 */
export function rememberView(
  map: OlMap,
  name: string,
  scope: string,
  saved: SavedView | undefined,
  keep: () => boolean,
): () => void {
  const view = map.getView();
  if (saved) {
    view.setCenter(saved.center);
    view.setZoom(saved.zoom);
  }
  const key = map.on('moveend', () => {
    const center = view.getCenter();
    const zoom = view.getZoom();
    if (!keep() || !center || zoom === undefined) return;
    try {
      sessionStorage.setItem(
        storageKey(name, scope),
        JSON.stringify({ center: [center[0], center[1]], zoom }),
      );
    } catch {
      // Storage full or refused: the map is framed again next time.
    }
  });
  return () => unByKey(key);
}

/**
 * The map's memory of where it was left (see rememberView): `saved` from readView(name, scope),
 * read by the page, which frames the map itself only when there is none. Renders nothing.
 */
export function RememberView({
  name,
  scope,
  saved,
  keep,
}: {
  name: string;
  scope: string | null;
  saved: SavedView | undefined;
  /** Whether where the map rests now is worth keeping (it shows something). */
  keep: boolean;
}) {
  const map = useMap();
  const keeping = useRef(keep);
  keeping.current = keep;
  useEffect(() => {
    if (!scope) return;
    return rememberView(map, name, scope, saved, () => keeping.current);
  }, [map, name, scope, saved]);
  return null;
}
