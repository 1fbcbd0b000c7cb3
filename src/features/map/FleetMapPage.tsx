/**
 * '/': the live map of the fleet. The map and the list beside it read the last locations
 * from the IndexedDB mirror, so they appear at once and stay readable offline ("Sem conexão
 * — dados de HH:MM"); while online the live stream moves the vehicles as fixes arrive.
 */
import { useEffect, useMemo, useState } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import { MirrorState } from '../../app/MirrorState';
import { useCan } from '../../app/permissions';
import { useSession } from '../../app/useSession';
import { useLiveLocations } from '../../db/useLiveLocations';
import { t } from '../../i18n/pt-BR';
import {
  formatSpeed,
  ignitionLabel,
  STATE_COLORS,
  STATE_LABELS,
  timeSince,
  type VehicleState,
  vehicleState,
} from '../../lib/vehicle-state';
import { BaseTiles } from '../../map/BaseTiles';
import { MapView } from '../../map/MapView';
import { Popup } from '../../map/Popup';
import { VehicleLayer } from '../../map/VehicleLayer';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/States';
import { CustomerPicker } from '../customers/CustomerPicker';
import { useSelectedClient } from '../customers/useCustomers';
import { VehicleList } from './VehicleList';

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

/** States and ages are recomputed this often, so "Sem sinal" appears by itself. */
const CLOCK_MS = 15_000;

function useClock() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function FleetMapPage() {
  const canView = useCan('view_map');
  const current = useSession();
  if (!canView) {
    return (
      <section className="page" aria-labelledby="page-title">
        <div className="page-header">
          <h1 id="page-title">{t.home}</h1>
        </div>
        <p>
          Olá, <strong>{current?.user.name}</strong>.
        </p>
        <EmptyState title="Seu nível de acesso não inclui o mapa da frota." />
      </section>
    );
  }
  return <FleetMap />;
}

function FleetMap() {
  const [clientId, setClientId] = useSelectedClient();
  const live = useLiveLocations(clientId);
  const now = useClock();
  const items = useMemo(() => live.rows ?? [], [live.rows]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [follow, setFollow] = useState(false);
  const selected = useMemo(
    () => (selectedId ? items.find((item) => item.id === selectedId) : undefined),
    [items, selectedId],
  );
  const selectedState = selected ? vehicleState(selected, now) : undefined;
  const counts = useMemo(() => {
    const byState: Record<VehicleState, number> = { moving: 0, idle: 0, off: 0, offline: 0 };
    for (const item of items) byState[vehicleState(item, now)] += 1;
    return byState;
  }, [items, now]);

  return (
    <section className="page page-map" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.home}</h1>
        <MirrorState syncedAt={live.syncedAt} syncing={live.syncing} live={live.live} />
      </div>
      <div className="map-toolbar">
        <CustomerPicker value={clientId} onChange={setClientId} />
        <ul className="state-legend" aria-label="Situação da frota">
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
        />
        <MapView label="Mapa da frota" id={MAP_ID}>
          <BaseTiles />
          <VehicleLayer
            items={items}
            selectedId={selectedId}
            follow={follow}
            now={now}
            onSelect={(id) => {
              setSelectedId(id);
              setFollow(false);
            }}
          />
          <Popup position={selected ? [selected.longitude, selected.latitude] : null}>
            {selected && (
              <div
                className="map-popup"
                role="dialog"
                aria-label={`Veículo ${selected.plate ?? selected.name}`}
              >
                <div className="map-popup-header">
                  <strong>{selected.plate ?? selected.name}</strong>
                  <AriaButton
                    className="icon-button"
                    aria-label="Fechar"
                    onPress={() => {
                      setSelectedId(null);
                      setFollow(false);
                    }}
                  >
                    ×
                  </AriaButton>
                </div>
                <dl>
                  {selected.plate && (
                    <>
                      <dt>Nome</dt>
                      <dd>{selected.name}</dd>
                    </>
                  )}
                  <dt>Situação</dt>
                  <dd style={{ color: STATE_COLORS[selectedState ?? 'offline'] }}>
                    {STATE_LABELS[selectedState ?? 'offline']}
                  </dd>
                  <dt>Motorista</dt>
                  <dd>{selected.driver ?? 'Não identificado'}</dd>
                  <dt>Velocidade</dt>
                  <dd>{formatSpeed(selected.speed)}</dd>
                  <dt>Ignição</dt>
                  <dd>{ignitionLabel(selected.ignition)}</dd>
                  {selected.battery !== null && (
                    <>
                      <dt>Bateria</dt>
                      <dd>{Math.round(selected.battery)}%</dd>
                    </>
                  )}
                  <dt>Última posição</dt>
                  <dd>
                    <time dateTime={selected.fixTime}>
                      {timeSince(selected.fixTime, now)} (
                      {new Date(selected.fixTime).toLocaleString('pt-BR')})
                    </time>
                  </dd>
                </dl>
                <Button variant="secondary" onPress={() => setFollow((f) => !f)}>
                  {follow ? 'Parar de seguir' : 'Seguir veículo'}
                </Button>
              </div>
            )}
          </Popup>
        </MapView>
      </div>
    </section>
  );
}
