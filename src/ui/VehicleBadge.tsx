/**
 * A vehicle's marker icon ringed in its state's colour, beside its name in lists, the map's
 * popup and shared links. Decorative: the state and name are said in text next to it.
 */
import { markerIcon } from '../contract';
import { STATE_COLORS, type VehicleState } from '../lib/vehicle-state';
import './VehicleBadge.css';

export function VehicleBadge({ state, type }: { state: VehicleState; type: string | null }) {
  return (
    <span className="vehicle-badge" style={{ borderColor: STATE_COLORS[state] }} aria-hidden="true">
      <img src={markerIcon(type ?? 'default')} alt="" />
    </span>
  );
}
