/**
 * /temp-access/[token]: what a shared link shows, without signing in — a map with the shared
 * vehicles' last positions, read again every few seconds so they move as fixes arrive, the
 * age of each (ticking), and until when the link works. Made for a phone in someone's hand
 * (a customer waiting for a delivery): the map first, the vehicles under it.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { toClientError } from '../../api/errors';
import { keys } from '../../api/keys';
import { openSharedLocations } from '../../api/sharing';
import { useMapConfig } from '../../hooks/useMapConfig';
import { PHONE, useMediaQuery } from '../../hooks/useMediaQuery';
import { useNow } from '../../hooks/useNow';
import { t } from '../../i18n/pt-BR';
import { localDateAndClock } from '../../lib/local-time';
import { maskPlate } from '../../lib/masks';
import { formatSpeed, STATE_COLORS, STATE_LABELS, vehicleState } from '../../lib/vehicle-state';
import { BaseTiles } from '../../map/BaseTiles';
import { FitOnce } from '../../map/FitOnce';
import { MapView } from '../../map/MapView';
import { Popup } from '../../map/Popup';
import { VehicleLayer } from '../../map/VehicleLayer';
import { VehicleDetails } from '../../shared/vehicles/VehicleDetails';
import { Age } from '../../ui/Age';
import { Button } from '../../ui/Button';
import { FormMessage, Loading } from '../../ui/States';
import { VehicleBadge } from '../../ui/VehicleBadge';
import '../../ui/page.css';
import '../../ui/text.css';
import '../../map/MapView.css';
import './TempAccessPage.css';

/** How often the shared positions are read again while the page is open. */
const REFRESH_MS = 5000;

function useSharedLocations(token: string) {
  const query = useQuery({
    queryKey: keys.sharedLocations(token),
    queryFn: () => openSharedLocations(token),
    refetchInterval: (q) => (q.state.error ? false : REFRESH_MS),
    // A link that stopped working answers 410: no point asking again.
    retry: false,
  });
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    if (query.error) void toClientError(query.error).then((f) => setFailure(f.message));
  }, [query.error]);
  return { ...query, failure };
}

export function TempAccessPage() {
  const { token = '' } = useParams();
  const shared = useSharedLocations(token);
  const phone = useMediaQuery(PHONE);
  const now = useNow(15_000);
  const baseMap = useMapConfig();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const locations = useMemo(() => shared.data?.locations ?? [], [shared.data]);
  const points = useMemo(
    () => locations.map((l) => [l.longitude, l.latitude] as [number, number]),
    [locations],
  );
  const selected = locations.find((l) => l.id === selectedId);
  const expires = shared.data ? localDateAndClock(shared.data.expiresAt) : '';

  return (
    <main className="shared-page" aria-labelledby="shared-title">
      <header className="shared-header">
        <img src="/icons/rastro.svg" alt="" width="28" height="28" />
        <div>
          <h1 id="shared-title">{shared.data?.name ?? t.tempAccess.title}</h1>
          <p className="muted">
            {shared.data ? (
              <>
                {t.tempAccess.title} {t.screens.tempAccessPage.validoAte} <strong>{expires}</strong>
              </>
            ) : (
              t.tempAccess.intro
            )}
          </p>
        </div>
      </header>
      {shared.isPending && !shared.error && (
        <Loading label={t.screens.tempAccessPage.abrindoOLink} />
      )}
      {shared.failure && <FormMessage kind="error">{shared.failure}</FormMessage>}
      {shared.data && (
        <>
          <MapView
            label={t.screens.tempAccessPage.mapaDosVeiculosCompartilhados}
            className="map shared-map"
          >
            <BaseTiles config={baseMap} />
            <FitOnce points={points} />
            <VehicleLayer
              items={locations}
              selectedId={selectedId}
              follow={false}
              now={now}
              onSelect={setSelectedId}
            />
            <Popup
              position={selected ? [selected.longitude, selected.latitude] : null}
              docked={phone}
            >
              {selected && (
                <VehicleDetails
                  vehicle={selected}
                  now={now}
                  links={false}
                  onClose={() => setSelectedId(null)}
                />
              )}
            </Popup>
          </MapView>
          <ul
            className="shared-vehicles"
            aria-label={t.screens.tempAccessPage.veiculosCompartilhados}
          >
            {shared.data.vehicles.map((vehicle) => {
              const fix = locations.find((l) => l.id === vehicle.id);
              const state = fix ? vehicleState(fix, now) : 'offline';
              return (
                <li key={vehicle.id}>
                  <VehicleBadge state={state} type={vehicle.type.id} />
                  <span className="shared-vehicle-text">
                    <strong>{maskPlate(vehicle.plate)}</strong>
                    <span className="muted">{vehicle.name}</span>
                    <span>
                      {fix ? (
                        <>
                          <span style={{ color: STATE_COLORS[state] }}>{STATE_LABELS[state]}</span>
                          {' · '}
                          <span className="nowrap">{formatSpeed(fix.speed)}</span> ·{' '}
                          <Age at={fix.fixTime} />
                        </>
                      ) : (
                        t.screens.tempAccessPage.aindaSemPosicao
                      )}
                    </span>
                  </span>
                  {fix && (
                    <Button variant="ghost" onPress={() => setSelectedId(vehicle.id)}>
                      {t.screens.tempAccessPage.verNoMapa}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </main>
  );
}
