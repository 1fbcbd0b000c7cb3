/**
 * The one OpenLayers map. Layers and overlays are child components that render nothing: they
 * take the map from context and add themselves to it. The map's element is a keyboard-
 * focusable region (arrows pan, + and - zoom) with pt-BR control labels.
 */

import { defaults as defaultControls } from 'ol/control/defaults';
import OlMap from 'ol/Map';
import { fromLonLat } from 'ol/proj';
import View from 'ol/View';
import 'ol/ol.css';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import './MapView.css';

const MapContext = createContext<OlMap | null>(null);

export function useMap(): OlMap {
  const map = useContext(MapContext);
  if (!map) throw new Error('useMap outside <MapView>');
  return map;
}

/** Recife: where the demo fleet drives, and a sensible start before any vehicle is known. */
export const DEFAULT_CENTER: [number, number] = [-34.8811, -8.0539];

export function MapView({
  label,
  children,
  className = 'map',
  id,
}: {
  label: string;
  children?: ReactNode;
  className?: string;
  id?: string;
}) {
  const element = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<OlMap | null>(null);

  useEffect(() => {
    if (!element.current) return;
    const created = new OlMap({
      target: element.current,
      view: new View({ center: fromLonLat(DEFAULT_CENTER), zoom: 12, maxZoom: 19 }),
      controls: defaultControls({
        zoomOptions: { zoomInTipLabel: 'Aproximar', zoomOutTipLabel: 'Afastar' },
        rotateOptions: { tipLabel: 'Apontar para o norte' },
        attributionOptions: { tipLabel: 'Atribuições', collapsible: true },
      }),
    });
    setMap(created);
    return () => {
      created.setTarget(undefined);
      created.dispose();
      setMap(null);
    };
  }, []);

  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the map takes arrow keys and +/- when focused
    <section ref={element} id={id} className={className} aria-label={label} tabIndex={0}>
      {map && <MapContext.Provider value={map}>{children}</MapContext.Provider>}
    </section>
  );
}
