/**
 * '/': the live map of the fleet. The map and the list beside it read the last locations
 * from the IndexedDB mirror, so they appear at once and stay readable offline ("Sem conexão
 * — dados de HH:MM"); while online the live stream moves the vehicles as fixes arrive. States
 * are recomputed as time passes, so a vehicle that stops reporting stops being 'Em movimento'.
 */
import { useMemo, useState } from 'react';
import { useMirroredGeofences } from '../../db/geofences';
import { useMirrorsInBackground } from '../../db/hooks';
import { useLiveLocations } from '../../db/useLiveLocations';
import { useMapConfig } from '../../hooks/useMapConfig';
import { PHONE, useMediaQuery } from '../../hooks/useMediaQuery';
import { useNow } from '../../hooks/useNow';
import { useOnline } from '../../hooks/useOnline';
import { geofencesText } from '../../i18n/geofences';
import { t } from '../../i18n/pt-BR';
import {
  STATE_COLORS,
  STATE_LABELS,
  type VehicleState,
  vehicleState,
} from '../../lib/vehicle-state';
import { BaseTiles } from '../../map/BaseTiles';
import { FitOnce } from '../../map/FitOnce';
import { GeofenceLayer } from '../../map/GeofenceLayer';
import { MapView } from '../../map/MapView';
import { Popup } from '../../map/Popup';
import { RememberView, readView } from '../../map/RememberView';
import { FOLLOW_OFFSET, VehicleLayer } from '../../map/VehicleLayer';
import { useAccess } from '../../shared/areas/useAccess';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { VehicleDetails } from '../../shared/vehicles/VehicleDetails';
import { Switch } from '../../ui/Choice';
import { MirrorState } from '../../ui/feedback/MirrorState';
import { VehicleList } from './VehicleList';
import '../../ui/page.css';
import '../../ui/VehicleBadge.css';
import '../../map/MapView.css';
import './FleetMapPage.css';

const MAP_ID = 'fleet-map';

/** On phones the list sits under the map: bring the map into view to show the choice. */
function revealMap() {
  const map = document.getElementById(MAP_ID);
  if (!map || !window.matchMedia('(max-width: 899px)').matches) return;
  const { top, bottom } = map.getBoundingClientRect();
  if (top >= 0 && bottom <= window.innerHeight) return;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  map.scrollIntoView({ block: 'start', behavior: reduced ? 'auto' : 'smooth' });
}

/** States and counts are recomputed this often ('Sem sinal' appears by itself). */
const STATE_CLOCK_MS = 15_000;

const GEOFENCE_LAYER_KEY = 'map:geofences';

export function FleetMapPage() {
  const [clientId, setClientId] = useSelectedClient();
  const seesGeofences = useAccess('/fleet-management/geofences').read;
  const [showGeofences, setShowGeofences] = useState(
    () => localStorage.getItem(GEOFENCE_LAYER_KEY) === 'on',
  );
  const geofences = useMirroredGeofences(seesGeofences && showGeofences ? clientId : null);
  const live = useLiveLocations(clientId);
  // The vehicles' and drivers' pages reached from here open without signal too.
  useMirrorsInBackground(
    clientId,
    {
      vehicles: useAccess('/management/vehicles').read,
      drivers: useAccess('/management/drivers').read,
    },
    live.live,
  );
  const online = useOnline();
  const phone = useMediaQuery(PHONE);
  const now = useNow(STATE_CLOCK_MS);
  const baseMap = useMapConfig();
  const items = useMemo(() => live.rows ?? [], [live.rows]);
  // Where the fleet is: the map opens on it (the default view is one city, and a customer's
  // vehicles may all be elsewhere), once per customer.
  const framing = useMemo(
    () => items.map((item): [number, number] => [item.longitude, item.latitude]),
    [items],
  );
  // Back on the page in the same session, the map is where it was left instead.
  const savedView = useMemo(() => readView('fleet', clientId), [clientId]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [follow, setFollow] = useState(false);
  const selected = useMemo(
    () => (selectedId ? items.find((item) => item.id === selectedId) : undefined),
    [items, selectedId],
  );
  const counts = useMemo(() => {
    const byState: Record<VehicleState, number> = { moving: 0, idle: 0, off: 0, offline: 0 };
    for (const item of items) byState[vehicleState(item, now)] += 1;
    return byState;
  }, [items, now]);

  return (
    <section className="page page-map" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.home}</h1>
        <MirrorState
          syncedAt={live.syncedAt}
          syncing={live.syncing}
          live={live.live}
          online={online}
        />
      </div>
      <div className="map-toolbar">
        <CustomerPicker value={clientId} onChange={setClientId} />
        <ul className="state-legend" aria-label={t.screens.fleetMapPage.situacaoDaFrota}>
          {(Object.keys(STATE_LABELS) as VehicleState[]).map((state) => (
            <li key={state}>
              <span
                className="state-dot"
                style={{ background: STATE_COLORS[state] }}
                aria-hidden="true"
              />
              {STATE_LABELS[state]}: <strong>{counts[state]}</strong>
            </li>
          ))}
        </ul>
        {seesGeofences && (
          <Switch
            isSelected={showGeofences}
            onChange={(on) => {
              setShowGeofences(on);
              localStorage.setItem(GEOFENCE_LAYER_KEY, on ? 'on' : 'off');
            }}
          >
            {geofencesText.layer}
          </Switch>
        )}
      </div>
      <div className="fleet-map">
        <VehicleList
          items={items}
          selectedId={selectedId}
          now={now}
          onChoose={(id) => {
            setSelectedId(id);
            setFollow(true);
            revealMap();
          }}
          onDismiss={() => {
            setSelectedId(null);
            setFollow(false);
          }}
        />
        <MapView label={t.screens.fleetMapPage.mapaDaFrota} id={MAP_ID}>
          <BaseTiles config={baseMap} ready={live.rows !== undefined} />
          <RememberView name="fleet" scope={clientId} saved={savedView} keep={items.length > 0} />
          <FitOnce
            key={clientId ?? ''}
            points={framing}
            maxZoom={15}
            padding={[60, 60, 60, 60]}
            tookOver={savedView !== undefined || selected !== undefined}
          />
          {seesGeofences && showGeofences && <GeofenceLayer geofences={geofences.rows ?? []} />}
          <VehicleLayer
            items={items}
            selectedId={selectedId}
            follow={follow}
            now={now}
            followOffset={phone ? -0.2 : FOLLOW_OFFSET}
            onSelect={(id) => {
              setSelectedId(id);
              setFollow(false);
            }}
          />
          <Popup
            position={selected ? [selected.longitude, selected.latitude] : null}
            docked={phone}
            followed={follow}
          >
            {selected && (
              <VehicleDetails
                vehicle={selected}
                now={now}
                follow={follow}
                onFollow={() => setFollow((f) => !f)}
                onClose={() => {
                  setSelectedId(null);
                  setFollow(false);
                }}
              />
            )}
          </Popup>
        </MapView>
      </div>
    </section>
  );
}
