/**
 * The performance mark the vehicle layer sets with the frame that changes what it has drawn
 * (src/map/VehicleLayer.tsx), with `{ rendered, oldestFix }` as its detail: the browser
 * benchmark (bench/map.ts) reads the frame's moment from it.
 */
export const DRAWN_MARK = 'rastro:vehicles-drawn';

export interface DrawnDetail {
  rendered: number;
  oldestFix: string;
}
