/**
 * What the map's popup says about a vehicle: its state (never 'Em movimento' on a stale fix),
 * speed, ignition, driver and battery when known, the age of the last fix (ticking), the
 * coordinates to copy, the address when the data has one, and links to the vehicle's page
 * and its commands for those who may open them. The title and the actions stay in view; on a
 * phone's sheet the details between them scroll.
 */
import { Button as AriaButton, Link } from 'react-aria-components';
import { useCan } from '../../hooks/useCan';
import { useSession } from '../../hooks/useSession';
import {
  formatSpeed,
  ignitionLabel,
  isStaleMotion,
  STATE_COLORS,
  STATE_LABELS,
  vehicleState,
} from '../../lib/vehicle-state';
import type { MapVehicle } from '../../map/VehicleLayer';
import { Age } from '../../ui/Age';
import { Button } from '../../ui/Button';
import { copyText } from '../../ui/feedback/copy';
import { CopyIcon } from '../../ui/icons';
import { VehicleBadge } from '../../ui/VehicleBadge';
import { VehicleAlerts, VehicleAlertsLink } from '../alerts/VehicleAlerts';
import { allAreas, canOpen } from '../areas/areas';
import '../../ui/badge.css';
import '../../ui/Button.css';
import '../../ui/page.css';
import '../../ui/ConfirmDialog.css';
import '../../map/MapView.css';
import './VehicleDetails.css';
import { t } from '../../i18n/pt-BR';

export type VehicleDetail = MapVehicle & {
  type?: 'vehicle' | 'tracker';
  trackerId?: string;
  driver?: string | null;
  /** The driver's CNH has expired: said beside the name, where the operator looks. */
  driverLicenseExpired?: boolean;
  battery?: number | null;
  /** Only when the data carries one: there is no geocoder. */
  address?: string | null;
  /** Since when the tracker reports without a GPS fix (the place is that of its last fix). */
  noGpsSince?: string | null;
};

const coordinates = (v: MapVehicle) => `${v.latitude.toFixed(5)}, ${v.longitude.toFixed(5)}`;

const copy = (text: string) =>
  copyText(
    text,
    t.screens.vehicleDetails.coordenadasCopiadas,
    t.screens.vehicleDetails.naoFoiPossivelCopiar,
  );

/** Links to the vehicle's page and its commands, when the user's level opens them. */
function VehicleLinks({ vehicle }: { vehicle: VehicleDetail }) {
  const role = useSession()?.user.role;
  const canCommand = useCan('BlockVehicle');
  const area = allAreas().find(
    (a) =>
      a.path === (vehicle.type === 'tracker' ? '/management/trackers' : '/management/vehicles'),
  );
  if (!role || !area || !canOpen(area, role)) return null;
  const page = `${area.path}/${vehicle.type === 'tracker' ? vehicle.trackerId : vehicle.id}`;
  return (
    <>
      <Link href={page} className="btn btn-ghost">
        {vehicle.type === 'tracker'
          ? t.screens.vehicleDetails.verRastreador
          : t.screens.vehicleDetails.verVeiculo}
      </Link>
      {vehicle.type !== 'tracker' && (
        <Link href={`${page}#comandos`} className="btn btn-ghost">
          {canCommand ? 'Comandos' : t.screens.vehicleDetails.historicoDeComandos}
        </Link>
      )}
    </>
  );
}

export function VehicleDetails({
  vehicle,
  now,
  onClose,
  follow,
  onFollow,
  links = true,
}: {
  vehicle: VehicleDetail;
  now: number;
  onClose: () => void;
  follow?: boolean;
  onFollow?: () => void;
  /** Signed-in maps link to the vehicle's page; a shared link does not. */
  links?: boolean;
}) {
  const state = vehicleState(vehicle, now);
  const stale = isStaleMotion(vehicle, now);
  const title = vehicle.plate ?? vehicle.name;
  return (
    <div className="map-popup" role="dialog" aria-label={`Veículo ${title}`}>
      <div className="map-popup-header">
        <VehicleBadge state={state} type={vehicle.vehicleType} />
        <span className="map-popup-title">
          <strong>{title}</strong>
          {vehicle.plate && <span>{vehicle.name}</span>}
        </span>
        <AriaButton
          className="icon-button"
          aria-label={t.screens.vehicleDetails.fechar}
          onPress={onClose}
        >
          ×
        </AriaButton>
      </div>
      <div className="map-popup-body">
        <p className="map-popup-state">
          <strong style={{ color: STATE_COLORS[state] }}>{STATE_LABELS[state]}</strong>
          {' · '}
          {formatSpeed(vehicle.speed)}
          {stale ? t.screens.vehicleDetails.naUltimaPosicao : ''} {t.screens.vehicleDetails.ignicao}{' '}
          {ignitionLabel(vehicle.ignition).toLowerCase()}
        </p>
        <dl>
          {vehicle.driver !== undefined && (
            <>
              <dt>{t.screens.vehicleDetails.motorista}</dt>
              <dd>
                {vehicle.driver ?? t.screens.vehicleDetails.naoIdentificado}
                {vehicle.driver && vehicle.driverLicenseExpired && (
                  <>
                    {' '}
                    <span className="badge badge-danger">{t.screens.drivers.cnhVencida}</span>
                  </>
                )}
              </dd>
            </>
          )}
          {vehicle.battery !== undefined && vehicle.battery !== null && (
            <>
              <dt>{t.screens.vehicleDetails.bateria}</dt>
              <dd>{Math.round(vehicle.battery)}%</dd>
            </>
          )}
          <dt>{t.screens.vehicleDetails.ultimaPosicao}</dt>
          <dd>
            <Age at={vehicle.fixTime} withDate />
          </dd>
          {vehicle.noGpsSince && (
            <>
              <dt>{t.screens.vehicleDetails.semGpsDesde}</dt>
              <dd>
                <Age at={vehicle.noGpsSince} withDate />
              </dd>
            </>
          )}
          {vehicle.address && (
            <>
              <dt>{t.screens.vehicleDetails.endereco}</dt>
              <dd>{vehicle.address}</dd>
            </>
          )}
          <dt>{t.screens.vehicleDetails.coordenadas}</dt>
          <dd className="map-popup-coordinates">
            <span>{coordinates(vehicle)}</span>
            <AriaButton
              className="icon-button copy-button"
              aria-label={t.screens.vehicleDetails.copiarCoordenadas}
              onPress={() => void copy(coordinates(vehicle))}
            >
              <CopyIcon />
            </AriaButton>
          </dd>
        </dl>
        {links && vehicle.type !== 'tracker' && <VehicleAlerts vehicleId={vehicle.id} now={now} />}
      </div>
      <div className="map-popup-actions">
        {onFollow && (
          <Button variant="secondary" onPress={onFollow}>
            {follow
              ? t.screens.vehicleDetails.pararDeSeguir
              : t.screens.vehicleDetails.seguirVeiculo}
          </Button>
        )}
        {links && <VehicleLinks vehicle={vehicle} />}
        {links && vehicle.type !== 'tracker' && <VehicleAlertsLink vehicleId={vehicle.id} />}
      </div>
    </div>
  );
}
