/**
 * The geofences page's map: the customer's fences in their colours, the open one under the
 * editor (for people who may write), and — for a customer without fences yet — the last
 * positions of its vehicles as dots, so the first fence is drawn near them. Framed once per
 * customer, on the fences or else on the vehicles.
 */
import { useMemo } from 'react';
import type { Geofence, Geometry } from '../../contract';
import { useMapConfig } from '../../hooks/useMapConfig';
import { geofencesText } from '../../i18n/geofences';
import { destination, type Position } from '../../lib/geo';
import { BaseTiles } from '../../map/BaseTiles';
import { FitOnce } from '../../map/FitOnce';
import { type EditorMode, GeofenceEditor } from '../../map/GeofenceEditor';
import { GeofenceLayer } from '../../map/GeofenceLayer';
import { MapView } from '../../map/MapView';
import { type Marker, MarkersLayer } from '../../map/MarkersLayer';
import '../../map/MapView.css';
import './GeofencesPage.css';

/** The dots of a fenceless customer's vehicles: one colour, their states are not the point. */
const FLEET_DOT = '#0b5cad';

/** Points that frame a geofence: its vertices, or its circle's four extremes. */
function framePoints(geometry: Geometry): [number, number][] {
  if (geometry.type === 'Polygon') return (geometry.coordinates[0] ?? []).map(([x, y]) => [x, y]);
  const center = geometry.center as Position;
  return [0, 90, 180, 270].map((bearing) => destination(center, bearing, geometry.radius));
}

/** The fleet's last positions as map dots (for a customer without fences). */
export function fleetMarkers(
  fleet: { id: string; latitude: number; longitude: number }[] | undefined,
): Marker[] {
  return (fleet ?? []).map((v) => ({
    id: v.id,
    latitude: v.latitude,
    longitude: v.longitude,
    color: FLEET_DOT,
    text: '',
  }));
}

export function GeofenceMap({
  clientId,
  geofences,
  fleetDots,
  selectedId,
  editable,
  editor,
}: {
  clientId: string | null;
  geofences: Geofence[];
  fleetDots: Marker[];
  /** The open fence (null: none, or a new one). */
  selectedId: string | null;
  /** Whether the open fence is drawn by the editor instead of the layer. */
  editable: boolean;
  /** The editor's drawing, when a fence (or a new one) is open. */
  editor: {
    open: boolean;
    geometry: Geometry | null;
    mode: EditorMode;
    color: string;
    onOpen: (id: string) => void;
    onChange: (geometry: Geometry) => void;
    onDrawn: (geometry: Geometry) => void;
  };
}) {
  const baseMap = useMapConfig();
  const framing = useMemo(
    () =>
      geofences.length
        ? geofences.flatMap((g) => framePoints(g.geometry))
        : fleetDots.map((v): [number, number] => [v.longitude, v.latitude]),
    [geofences, fleetDots],
  );
  return (
    <MapView label={geofencesText.map} className="map geofence-map">
      <BaseTiles config={baseMap} />
      {/* The names are drawn across each fence's middle: room for them at the sides. */}
      <FitOnce
        key={clientId ?? ''}
        points={framing}
        maxZoom={16}
        padding={[72, 160, 72, 160]}
        tookOver={editor.open || editor.mode !== 'idle'}
      />
      {fleetDots.length > 0 && <MarkersLayer markers={fleetDots} />}
      <GeofenceLayer
        geofences={geofences}
        selectedId={selectedId}
        hiddenId={editable ? selectedId : null}
        onSelect={editor.open ? undefined : editor.onOpen}
        fitTo={selectedId}
      />
      {editable && editor.open && (
        <GeofenceEditor
          geometry={editor.geometry}
          mode={editor.mode}
          color={editor.color}
          onChange={editor.onChange}
          onDrawn={editor.onDrawn}
        />
      )}
    </MapView>
  );
}
