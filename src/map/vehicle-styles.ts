/**
 * Styles of vehicles on the map, cached: a white badge ringed in the state's colour with the
 * pictogram of the vehicle's type, always upright (a truck never drives upside down), and,
 * while it moves, an arrow on the ring pointing where it heads; a label when selected;
 * numbered circles for clusters. 10,000 vehicles share a few hundred style objects.
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
const BADGE_RADIUS = 15;
const PICTOGRAM_PX = 22;

/** A 48 px square with an arrowhead just outside the badge's ring, pointing up (north). */
function arrowIcon(color: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48"><path d="M24 0.5 31 8.5H17Z" fill="${color}" stroke="#fff" stroke-width="1.5" stroke-linejoin="round"/></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export function vehicleStyle(
  vehicleType: string | null,
  state: VehicleState,
  course: number | null,
  selected: boolean,
  label?: string,
): Style[] {
  // The heading in steps of 10°: 36 rotations per state are plenty for the eye.
  const heading = state === 'moving' && course !== null ? Math.round(course / 10) % 36 : -1;
  const key = `${vehicleType}|${state}|${heading}|${selected ? label : ''}`;
  const found = cache.get(key);
  if (found) return found;
  const color = STATE_COLORS[state];
  const scale = selected ? 1.2 : 1;
  const z = selected ? 2 : 1;
  const styles = [
    new Style({
      image: new CircleStyle({
        radius: BADGE_RADIUS * scale,
        fill: new Fill({ color: '#ffffff' }),
        stroke: new Stroke({ color, width: selected ? 4 : 3 }),
      }),
      zIndex: z,
    }),
    new Style({
      image: new Icon({
        src: markerIcon(vehicleType ?? 'default'),
        width: PICTOGRAM_PX * scale,
        height: PICTOGRAM_PX * scale,
      }),
      zIndex: z,
      ...(selected && label
        ? {
            text: new Text({
              text: label,
              offsetY: 30,
              font: '600 13px system-ui, sans-serif',
              fill: new Fill({ color: '#1f2328' }),
              stroke: new Stroke({ color: '#fff', width: 4 }),
            }),
          }
        : {}),
    }),
    ...(heading >= 0
      ? [
          new Style({
            image: new Icon({
              src: arrowIcon(color),
              width: 48 * scale,
              height: 48 * scale,
              rotation: (heading * 10 * Math.PI) / 180,
              rotateWithView: true,
            }),
            zIndex: z,
          }),
        ]
      : []),
  ];
  cache.set(key, styles);
  return styles;
}

const clusterCache = new Map<string, Style>();
const clusterCircles = new Map<string, CircleStyle>();

/**
 * The circle of a cluster, shared by every size drawn at the same whole radius: a circle is
 * drawn once into a canvas of its own, and one for hit detection (a first frame of 10,000
 * vehicles in some hundred clusters of different sizes spent 56 ms making them).
 */
function clusterCircle(radius: number, state: VehicleState): CircleStyle {
  const key = `${radius}|${state}`;
  let circle = clusterCircles.get(key);
  if (!circle) {
    circle = new CircleStyle({
      radius,
      fill: new Fill({ color: STATE_COLORS[state] }),
      stroke: new Stroke({ color: '#fff', width: 3 }),
    });
    clusterCircles.set(key, circle);
  }
  return circle;
}

/** A numbered circle for a group of vehicles, coloured by the most common state in it. */
export function clusterStyle(size: number, state: VehicleState): Style {
  const key = `${size}|${state}`;
  const found = clusterCache.get(key);
  if (found) return found;
  const radius = Math.round(Math.min(34, 14 + Math.log2(size) * 3));
  const style = new Style({
    image: clusterCircle(radius, state),
    text: new Text({
      text: size > 9999 ? `${Math.round(size / 1000)} mil` : String(size),
      font: '700 13px system-ui, sans-serif',
      fill: new Fill({ color: '#fff' }),
    }),
  });
  if (clusterCache.size < 5000) clusterCache.set(key, style);
  return style;
}
