/**
 * Rounds of fixes applied to the vehicles' features (VehicleLayer): one feature per vehicle,
 * moved in place, added and dropped to match the items. Kept apart from the layer (no map, no
 * React) so that tests drive a round task by task.
 *
 * - The clusters wait while a round is applied (each change would regroup every vehicle:
 *   10,000 × 10,000) and regroup once after, in a task of their own; meanwhile they keep
 *   their last grouping, drawn where the vehicles were.
 * - A round for thousands of vehicles is applied in slices, one task each, so the page never
 *   stops answering for long. Rounds coming faster than they are applied (each interrupts the
 *   last) must not keep the clusters waiting: past MAX_WAIT_MS the rest is applied at once.
 * - When thousands move at once they leave the source while they move and come back together:
 *   moving a feature inside it updates the source's spatial index one feature at a time (a
 *   removal, an insertion and two events each), while putting them all back builds the index
 *   in one pass (a few thousand per task: the index takes each part as a subtree). Vehicles
 *   added or gone meanwhile are settled when the features come back.
 */
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import { fromLonLat } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import type { LocationItem } from '../contract';
import type { VehicleState } from '../lib/vehicle-state';
import type { PausableCluster } from './pausable-cluster';

/** What the map needs of a vehicle's last location (a signed-in user's or a shared link's). */
export type MapVehicle = Pick<
  LocationItem,
  | 'id'
  | 'name'
  | 'plate'
  | 'vehicleType'
  | 'latitude'
  | 'longitude'
  | 'speed'
  | 'course'
  | 'ignition'
  | 'fixTime'
  | 'receivedAt'
>;

export type VehicleFeature = Feature<Point>;

/** Vehicles moved per task when a round of fixes is applied. */
export const SLICE = 1000;
/** From this many vehicles moved at once, they move outside the source (see above)… */
export const DETACH_AT = 2000;
/** …where moving one costs a fraction: more per task. */
export const DETACHED_SLICE = 2500;
/** Features put back into the source per task. */
export const ATTACH_SLICE = 2500;
/** The longest the clusters wait for rounds that keep coming before they are applied at once. */
export const MAX_WAIT_MS = 1000;

/** Runs `run` in a task of its own; returns the way to call it off. */
export type Schedule = (run: () => void) => () => void;

/** The vehicles' features and what a round in progress needs to know. */
export interface VehicleSet {
  /** Every vehicle's feature (out of the source while `detached`). */
  readonly source: VectorSource<VehicleFeature>;
  readonly features: Map<string, VehicleFeature>;
  /** The layer's clusters over `source` (set by the layer when it is on a map). */
  cluster: PausableCluster | null;
  /** Whether the features are out of the source for a round of many moves… */
  detached: boolean;
  /** …and some of them already back (a round cut short while putting them back). */
  partial: boolean;
  /** Since when the clusters wait for a round still being applied (0: they do not). */
  waitingSince: number;
  /** How many vehicles the clusters hold (those drawn once a frame completes). */
  grouped: number;
  /** The oldest fix among them. */
  oldestFix: string;
}

export function createVehicleSet(): VehicleSet {
  return {
    source: new VectorSource<VehicleFeature>(),
    features: new Map(),
    cluster: null,
    detached: false,
    partial: false,
    waitingSince: 0,
    grouped: 0,
    oldestFix: '',
  };
}

/**
 * Applies `items` (the whole set) to the vehicles: the first task now, the others through
 * `schedule`. Returns the way to stop the round (a newer one takes over from where it is).
 */
export function applyRound(
  set: VehicleSet,
  items: readonly MapVehicle[],
  stateOf: (item: MapVehicle) => VehicleState,
  schedule: Schedule,
  clock: () => number = Date.now,
): () => void {
  const known = set.features;
  const { cluster, source } = set;
  const added: VehicleFeature[] = [];
  const moved: MapVehicle[] = [];
  const seen = new Set<string>();
  let oldest = '';
  for (const item of items) {
    seen.add(item.id);
    if (!oldest || item.fixTime < oldest) oldest = item.fixTime;
    const feature = known.get(item.id);
    if (!feature) {
      const created = new Feature({
        geometry: new Point(fromLonLat([item.longitude, item.latitude])),
      });
      created.setId(item.id);
      created.set('item', item, true);
      created.set('state', stateOf(item), true);
      known.set(item.id, created);
      added.push(created);
      continue;
    }
    const previous = feature.get('item') as MapVehicle;
    if (previous === item) continue;
    if (previous.fixTime === item.fixTime && previous.receivedAt === item.receivedAt) continue;
    moved.push(item);
  }
  const gone: VehicleFeature[] = [];
  for (const [id, feature] of known) {
    if (seen.has(id)) continue;
    gone.push(feature);
    known.delete(id);
  }
  cluster?.pause();
  set.waitingSince ||= clock();
  // A round cut short while the features were being put back: out again, all of them.
  if (set.partial) {
    source.clear(true);
    set.partial = false;
  }
  const detach = !set.detached && moved.length >= DETACH_AT;
  const outside = set.detached || detach;
  if (gone.length && !set.detached) source.removeFeatures(gone);
  if (added.length && !set.detached) source.addFeatures(added);
  const takeOut = () => {
    source.clear(true);
    set.detached = true;
  };
  // A feature takes its new fix with its new place, so an interrupted round leaves the rest
  // for the next one to find.
  const move = (from: number, to: number) => {
    for (let i = from; i < to && i < moved.length; i++) {
      const item = moved[i] as MapVehicle;
      const feature = known.get(item.id);
      if (!feature) continue;
      feature.set('item', item, true);
      feature.set('state', stateOf(item), true);
      feature.getGeometry()?.setCoordinates(fromLonLat([item.longitude, item.latitude]));
    }
  };
  let back: VehicleFeature[] = [];
  const putBack = (from: number, to = Number.POSITIVE_INFINITY) => {
    if (!set.detached) return;
    if (from === 0) back = [...known.values()];
    source.addFeatures(back.slice(from, to));
    set.partial = to < back.length;
    set.detached = set.partial;
  };
  const finish = () => {
    set.waitingSince = 0;
    cluster?.resume();
    set.grouped = known.size;
    set.oldestFix = oldest;
  };
  const overdue = clock() - set.waitingSince > MAX_WAIT_MS;
  if (overdue || (!outside && moved.length <= SLICE)) {
    if (detach) takeOut();
    move(0, moved.length);
    putBack(0);
    finish();
    return () => {};
  }
  // One task per slice: taking the features out, their moves, putting them back; then the
  // regrouping. Out of the source, the first task is a task of its own too.
  const size = outside ? DETACHED_SLICE : SLICE;
  const steps: (() => void)[] = [];
  if (detach) steps.push(takeOut);
  for (let from = 0; from < moved.length; from += size) steps.push(() => move(from, from + size));
  // At least one, so that the set comes back even with no vehicle left in it.
  if (outside)
    for (let from = 0; from === 0 || from < known.size; from += ATTACH_SLICE)
      steps.push(() => putBack(from, from + ATTACH_SLICE));
  steps.push(finish);
  let cancel = () => {};
  const run = (at: number) => {
    steps[at]?.();
    if (at + 1 < steps.length) cancel = schedule(() => run(at + 1));
  };
  if (outside) cancel = schedule(() => run(0));
  else run(0);
  return () => cancel();
}
