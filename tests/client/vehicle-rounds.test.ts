/**
 * Rounds of fixes on the map's vehicles, task by task: a small round at once; a round of
 * thousands in slices, the features out of the source while they move and back in one pass,
 * the clusters keeping their grouping until the last task; a round interrupted by a newer one,
 * with vehicles gone and added meanwhile; a round past its wait applied at once.
 */
import { get as getProjection, toLonLat } from 'ol/proj';
import { describe, expect, it } from 'vitest';
import type { LocationItem } from '../../src/contract';
import { PausableCluster } from '../../src/map/pausable-cluster';
import {
  ATTACH_SLICE,
  applyRound,
  createVehicleSet,
  DETACH_AT,
  MAX_WAIT_MS,
  type MapVehicle,
  type Schedule,
} from '../../src/map/vehicle-rounds';
import { locationItem } from './location-items';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds)).toISOString();

/** Vehicle n at fix time `seconds`, placed on a grid (about 1 km apart), moved by `shift`. */
function vehicle(n: number, seconds: number, shift = 0): MapVehicle {
  const item: LocationItem = locationItem(n, {
    latitude: -8 - Math.floor(n / 100) * 0.01 - shift,
    longitude: -35 + (n % 100) * 0.01,
    fixTime: at(seconds),
    receivedAt: at(seconds + 1),
  });
  return item;
}

function harness() {
  const set = createVehicleSet();
  const cluster = new PausableCluster({ source: set.source, distance: 40 });
  set.cluster = cluster;
  const projection = getProjection('EPSG:3857');
  if (!projection) throw new Error('EPSG:3857 missing');
  // Far out: every vehicle in one group (it is the grouping, not the groups, that matters).
  const world = [-20_037_508, -20_037_508, 20_037_508, 20_037_508];
  cluster.loadFeatures(world, 100_000, projection);
  const queue: (() => void)[] = [];
  const schedule: Schedule = (run) => {
    let live = true;
    queue.push(() => {
      if (live) run();
    });
    return () => {
      live = false;
    };
  };
  let clock = 1_000_000;
  const round = (items: MapVehicle[]) =>
    applyRound(
      set,
      items,
      () => 'moving',
      schedule,
      () => clock,
    );
  const drain = () => {
    let tasks = 0;
    for (let next = queue.shift(); next; next = queue.shift()) {
      next();
      tasks += 1;
    }
    return tasks;
  };
  const grouped = () =>
    cluster.getFeatures().reduce((n, c) => n + (c.get('features') as unknown[]).length, 0);
  /** Where the source says vehicle `id` is (lon, lat), found through its spatial index. */
  const placeOf = (id: string) => {
    const feature = set.source.getFeatureById(id);
    const point = feature?.getGeometry()?.getCoordinates();
    if (!feature || !point) return undefined;
    const [x = 0, y = 0] = point;
    const found = set.source.getFeaturesInExtent([x - 1, y - 1, x + 1, y + 1]);
    return found.includes(feature) ? toLonLat(point) : undefined;
  };
  return {
    set,
    round,
    drain,
    queue,
    grouped,
    placeOf,
    later: (ms: number) => {
      clock += ms;
    },
  };
}

describe('rounds of fixes on the map', () => {
  it('applies a small round at once', () => {
    const { set, round, queue, grouped } = harness();
    round(Array.from({ length: 10 }, (_, n) => vehicle(n, 0)));
    expect(queue).toHaveLength(0);
    expect(set.source.getFeatures()).toHaveLength(10);
    expect(grouped()).toBe(10);
    expect(set.grouped).toBe(10);
    expect(set.oldestFix).toBe(at(0));
  });

  it('moves thousands outside the source and puts them back in one pass, the clusters waiting', () => {
    const { set, round, drain, queue, grouped, placeOf } = harness();
    const count = DETACH_AT + 500;
    round(Array.from({ length: count }, (_, n) => vehicle(n, 0)));
    expect(grouped()).toBe(count);
    const groupsBefore = set.cluster?.getFeatures();

    round(Array.from({ length: count }, (_, n) => vehicle(n, 10, 0.5)));
    // Nothing more in the task that found the changes; taken out in the next one.
    expect(set.source.getFeatures()).toHaveLength(count);
    queue.shift()?.();
    // Out of the source while they move; the clusters keep the grouping they had.
    expect(set.detached).toBe(true);
    expect(set.source.getFeatures()).toHaveLength(0);
    expect(queue.length).toBeGreaterThan(0);
    expect(set.cluster?.getFeatures()).toEqual(groupsBefore);
    expect(set.oldestFix).toBe(at(0));

    // Moves, then back in parts, then the regrouping.
    let tasks = 0;
    while (set.detached) {
      queue.shift()?.();
      tasks += 1;
      expect(set.cluster?.getFeatures()).toEqual(groupsBefore);
    }
    expect(tasks).toBeGreaterThanOrEqual(2);
    expect(set.source.getFeatures()).toHaveLength(count);
    expect(drain()).toBe(1);
    expect(set.detached).toBe(false);
    expect(set.source.getFeatures()).toHaveLength(count);
    expect(grouped()).toBe(count);
    expect(set.oldestFix).toBe(at(10));
    for (const n of [0, 1234, count - 1]) {
      const place = placeOf(vehicle(n, 10).id);
      expect(place?.[1]).toBeCloseTo(vehicle(n, 10, 0.5).latitude, 6);
    }
  });

  it('lets a newer round take over one interrupted, with vehicles gone and added meanwhile', () => {
    const { set, round, drain, queue, grouped, placeOf } = harness();
    const count = DETACH_AT + 500;
    round(Array.from({ length: count }, (_, n) => vehicle(n, 0)));
    const stop = round(Array.from({ length: count }, (_, n) => vehicle(n, 10, 0.5)));
    queue.shift()?.(); // taken out
    queue.shift()?.(); // one slice moved, then a newer round arrives
    stop();
    queue.length = 0;
    // Vehicle 0 is gone, a new one came, every other moved again.
    const newer = [
      ...Array.from({ length: count - 1 }, (_, n) => vehicle(n + 1, 20, 1)),
      vehicle(count, 20, 1),
    ];
    round(newer);
    expect(set.detached).toBe(true);
    drain();
    expect(set.detached).toBe(false);
    expect(set.source.getFeatures()).toHaveLength(count);
    expect(set.source.getFeatureById(vehicle(0, 0).id)).toBeNull();
    expect(grouped()).toBe(count);
    for (const item of [newer[0], newer[999], newer.at(-1)]) {
      if (!item) throw new Error('missing');
      expect(placeOf(item.id)?.[1]).toBeCloseTo(item.latitude, 6);
    }
  });

  it('takes every feature out again when a round is cut short while they are put back', () => {
    const { set, round, drain, queue, grouped, placeOf } = harness();
    const count = ATTACH_SLICE + DETACH_AT;
    round(Array.from({ length: count }, (_, n) => vehicle(n, 0)));
    const stop = round(Array.from({ length: count }, (_, n) => vehicle(n, 10, 0.5)));
    while (!set.partial) queue.shift()?.();
    expect(set.source.getFeatures()).toHaveLength(ATTACH_SLICE);
    stop();
    queue.length = 0;
    const newer = Array.from({ length: count - 1 }, (_, n) => vehicle(n, 20, 1));
    round(newer);
    expect(set.partial).toBe(false);
    expect(set.source.getFeatures()).toHaveLength(0);
    drain();
    expect(set.source.getFeatures()).toHaveLength(count - 1);
    expect(grouped()).toBe(count - 1);
    const last = newer.at(-1);
    expect(last && placeOf(last.id)?.[1]).toBeCloseTo(last?.latitude ?? 0, 6);
  });

  it('comes back whole when every vehicle left during a round, and shows the next ones', () => {
    const { set, round, drain, queue, grouped } = harness();
    const count = DETACH_AT + 10;
    round(Array.from({ length: count }, (_, n) => vehicle(n, 0)));
    const stop = round(Array.from({ length: count }, (_, n) => vehicle(n, 10, 0.5)));
    queue.shift()?.(); // taken out
    stop();
    queue.length = 0;
    // Another customer chosen: none of these vehicles, then three of its own.
    round([]);
    drain();
    expect(set.detached).toBe(false);
    expect(grouped()).toBe(0);
    round([vehicle(20_000, 30), vehicle(20_001, 30), vehicle(20_002, 30)]);
    drain();
    expect(set.source.getFeatures()).toHaveLength(3);
    expect(grouped()).toBe(3);
  });

  it('applies the rest at once when rounds keep the clusters waiting too long', () => {
    const { set, round, queue, grouped, later } = harness();
    const count = DETACH_AT + 500;
    round(Array.from({ length: count }, (_, n) => vehicle(n, 0)));
    const stop = round(Array.from({ length: count }, (_, n) => vehicle(n, 10, 0.5)));
    stop();
    queue.length = 0;
    later(MAX_WAIT_MS + 1);
    round(Array.from({ length: count }, (_, n) => vehicle(n, 20, 1)));
    expect(queue).toHaveLength(0);
    expect(set.detached).toBe(false);
    expect(set.source.getFeatures()).toHaveLength(count);
    expect(grouped()).toBe(count);
    expect(set.oldestFix).toBe(at(20));
  });
});
