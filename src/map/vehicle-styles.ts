/**
 * Styles of vehicles on the map, cached: a ring in the state's colour under the vehicle
 * type's marker rotated by course, a label when selected, and numbered circles for clusters.
 * 10,000 vehicles share a few hundred style objects.
 */
import CircleStyle from 'ol/style/Circle';
import Fill from 'ol/style/Fill';
import Icon from 'ol/style/Icon';
import Stroke from 'ol/style/Stroke';
import Style from 'ol/style/Style';
import Text from 'ol/style/Text';
import { markerIcon } from '../contract';
import { STATE_COLORS, type VehicleState } from '../lib/vehicle-state';

const cache = new Map<string, Style[]>();

export function vehicleStyle(
  vehicleType: string | null,
  state: VehicleState,
  course: number | null,
  selected: boolean,
  label?: string,
): Style[] {
  // Course in steps of 10°: 36 rotations per type and state are plenty for the eye.
  const step = course === null ? 0 : Math.round(course / 10) % 36;
  const key = `${vehicleType}|${state}|${step}|${selected ? label : ''}`;
  const found = cache.get(key);
  if (found) return found;
  const styles = [
    new Style({
      image: new CircleStyle({
        radius: selected ? 21 : 17,
        fill: new Fill({ color: `${STATE_COLORS[state]}33` }),
        stroke: new Stroke({ color: STATE_COLORS[state], width: selected ? 5 : 4 }),
      }),
      zIndex: selected ? 2 : 1,
    }),
    new Style({
      image: new Icon({
        src: markerIcon(vehicleType ?? 'default'),
        scale: 0.62,
        rotation: (step * 10 * Math.PI) / 180,
        rotateWithView: true,
      }),
      zIndex: selected ? 2 : 1,
      ...(selected && label
        ? {
            text: new Text({
              text: label,
              offsetY: 32,
              font: '600 13px system-ui, sans-serif',
              fill: new Fill({ color: '#1f2328' }),
              stroke: new Stroke({ color: '#fff', width: 4 }),
            }),
          }
        : {}),
    }),
  ];
  cache.set(key, styles);
  return styles;
}

const clusterCache = new Map<string, Style>();

/** A numbered circle for a group of vehicles, coloured by the most urgent state in it. */
export function clusterStyle(size: number, state: VehicleState): Style {
  const key = `${size}|${state}`;
  const found = clusterCache.get(key);
  if (found) return found;
  const radius = Math.min(34, 14 + Math.log2(size) * 3);
  const style = new Style({
    image: new CircleStyle({
      radius,
      fill: new Fill({ color: STATE_COLORS[state] }),
      stroke: new Stroke({ color: '#fff', width: 3 }),
    }),
    text: new Text({
      text: size > 9999 ? `${Math.round(size / 1000)} mil` : String(size),
      font: '700 13px system-ui, sans-serif',
      fill: new Fill({ color: '#fff' }),
    }),
  });
  if (clusterCache.size < 5000) clusterCache.set(key, style);
  return style;
}
