/**
 * Vehicles on the map: one feature per last location, updated in place when positions change
 * (10,000 vehicles every 10 s means moving features, not rebuilding them), grouped into
 * numbered clusters when zoomed out, drawn with cached styles. Clicking a vehicle selects it;
 * clicking a cluster zooms into it. Renders nothing itself.
 *
 * A round of fixes for thousands of vehicles is applied in slices, one task each, so the page
 * never stops answering for long: meanwhile the clusters keep their last grouping (drawn where
 * the vehicles were), and they regroup once, in a task of their own, when every vehicle has
 * moved. `data-rendered` counts the vehicles grouped, so a frame drawn meanwhile says so.
 *
 * Once a frame has completed, the map element carries `data-rendered` (vehicles drawn) and
 * `data-rendered-oldest-fix` (the oldest fix among them): nothing a person sees tells that a
 * frame was painted, and the browser benchmark (bench/map.ts) times exactly that — by the
 * performance mark set with them (src/map/drawn-mark.ts), since waiting for an attribute is
 * polled.
 */

import { boundingExtent, getHeight, getWidth } from 'ol/extent';
import type { FeatureLike } from 'ol/Feature';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import { fromLonLat } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import { useEffect, useRef } from 'react';
import type { LocationItem } from '../contract';
import { type VehicleState, vehicleState } from '../lib/vehicle-state';
import { DRAWN_MARK, type DrawnDetail } from './drawn-mark';
import { useMap } from './MapView';
import { PausableCluster } from './pausable-cluster';
import { clusterStyle, vehicleStyle } from './vehicle-styles';

/** From this zoom on, every vehicle is drawn on its own. */
const UNCLUSTER_ZOOM = 15;
const CLUSTER_DISTANCE = 48;

/** Vehicles moved per task when a round of fixes is applied. */
const SLICE = 1000;
/** The longest the clusters wait for rounds that keep coming before they are applied at once. */
const MAX_WAIT_MS = 1000;

type VehicleFeature = Feature<Point>;

/**
 * The next task: lets the page paint and answer between slices. One channel for the page, held
 * here: a port nothing refers to may be collected with its message still on the way.
 */
const tasks = new MessageChannel();
const queued: (() => void)[] = [];
tasks.port1.onmessage = () => queued.shift()?.();

function nextTask(run: () => void): () => void {
  let live = true;
  queued.push(() => {
    if (live) run();
  });
  tasks.port2.postMessage(null);
  return () => {
    live = false;
  };
}

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

export function VehicleLayer({
  items,
  selectedId,
  follow,
  onSelect,
  now,
  followOffset = 0.25,
}: {
  items: MapVehicle[];
  selectedId: string | null;
  follow: boolean;
  onSelect(id: string | null): void;
  /** The clock the states are computed against (ticks so "no signal" appears by itself). */
  now: number;
  /** How far above a followed vehicle the map's centre sits, as a share of its height. */
  followOffset?: number;
}) {
  const map = useMap();
  const source = useRef(new VectorSource<VehicleFeature>());
  const features = useRef(new Map<string, VehicleFeature>());
  const layer = useRef<VectorLayer | null>(null);
  const clusters = useRef<PausableCluster | null>(null);
  const settings = useRef({ selectedId, now, onSelect });
  const oldestFix = useRef('');
  /** How many vehicles the clusters hold (those drawn once a frame completes). */
  const grouped = useRef(0);
  /** Since when the clusters wait for a round still being applied (0: they do not). */
  const waitingSince = useRef(0);
  settings.current = { selectedId, now, onSelect };

  useEffect(() => {
    const cluster = new PausableCluster({ source: source.current, distance: CLUSTER_DISTANCE });
    clusters.current = cluster;
    // Worked out when the fix or the clock changes, not at every frame for every member.
    const stateOf = (f: FeatureLike) => f.get('state') as VehicleState;
    const vectorLayer = new VectorLayer({
      source: cluster,
      zIndex: 10,
      updateWhileAnimating: false,
      updateWhileInteracting: false,
      style: (clustered) => {
        const members = clustered.get('features') as VehicleFeature[];
        const [first] = members;
        if (members.length === 1 && first) {
          const item = first.get('item') as MapVehicle;
          const selected = item.id === settings.current.selectedId;
          return vehicleStyle(
            item.vehicleType,
            stateOf(first),
            item.course,
            selected,
            item.plate ?? item.name,
          );
        }
        const counts: Partial<Record<VehicleState, number>> = {};
        for (const member of members) {
          const state = stateOf(member);
          counts[state] = (counts[state] ?? 0) + 1;
        }
        const [top] = (Object.entries(counts) as [VehicleState, number][]).sort(
          (a, b) => b[1] - a[1],
        );
        return clusterStyle(members.length, top?.[0] ?? 'offline');
      },
    });
    layer.current = vectorLayer;
    map.addLayer(vectorLayer);

    const view = map.getView();
    // getZoom() comes back from the resolution as 14.9999…: compare with a margin.
    const regroup = () =>
      cluster.setDistance((view.getZoom() ?? 0) >= UNCLUSTER_ZOOM - 0.01 ? 0 : CLUSTER_DISTANCE);
    regroup();
    view.on('change:resolution', regroup);

    const onClick = map.on('singleclick', (event) => {
      const hit = map.forEachFeatureAtPixel(event.pixel, (f) => f, {
        layerFilter: (l) => l === vectorLayer,
      });
      if (!hit) return;
      const members = hit.get('features') as VehicleFeature[];
      const [first] = members;
      if (members.length === 1 && first) {
        settings.current.onSelect((first.get('item') as MapVehicle).id);
        return;
      }
      const extent = boundingExtent(members.map((m) => m.getGeometry()?.getCoordinates() ?? []));
      // Vehicles on one spot never come apart by zooming: choose the first (the list has all).
      if (getWidth(extent) < 1 && getHeight(extent) < 1 && first) {
        settings.current.onSelect((first.get('item') as MapVehicle).id);
        return;
      }
      view.fit(extent, { duration: 300, padding: [60, 60, 60, 60], maxZoom: UNCLUSTER_ZOOM + 1 });
    });
    const onMove = map.on('pointermove', (event) => {
      if (event.dragging) return;
      const over = map.hasFeatureAtPixel(event.pixel, { layerFilter: (l) => l === vectorLayer });
      const target = map.getTargetElement();
      if (target) target.style.cursor = over ? 'pointer' : '';
    });
    const onRendered = map.on('rendercomplete', () => {
      const target = map.getTargetElement();
      if (!target) return;
      const rendered = String(grouped.current);
      if (
        target.dataset.rendered === rendered &&
        target.dataset.renderedOldestFix === oldestFix.current
      )
        return;
      target.dataset.rendered = rendered;
      target.dataset.renderedOldestFix = oldestFix.current;
      // The moment of that frame, for the browser benchmark (only the latest is kept).
      performance.clearMarks(DRAWN_MARK);
      const detail: DrawnDetail = { rendered: grouped.current, oldestFix: oldestFix.current };
      performance.mark(DRAWN_MARK, { detail });
    });

    return () => {
      view.un('change:resolution', regroup);
      map.un('singleclick', onClick.listener);
      map.un('pointermove', onMove.listener);
      map.un('rendercomplete', onRendered.listener);
      map.removeLayer(vectorLayer);
      vectorLayer.dispose();
      cluster.dispose();
    };
  }, [map]);

  // Move, add and drop features to match the items.
  useEffect(() => {
    const known = features.current;
    const cluster = clusters.current;
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
        created.set('state', vehicleState(item, settings.current.now), true);
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
    // Each change would make the clusters regroup everything (10,000 × 10,000): they wait,
    // and regroup once after.
    cluster?.pause();
    waitingSince.current ||= Date.now();
    if (gone.length) source.current.removeFeatures(gone);
    if (added.length) source.current.addFeatures(added);
    // A feature takes its new fix with its new place, so an interrupted round (newer items
    // came) leaves the rest for the next one to find.
    const move = (from: number, to: number) => {
      for (const item of moved.slice(from, to)) {
        const feature = known.get(item.id);
        if (!feature) continue;
        feature.set('item', item, true);
        feature.set('state', vehicleState(item, settings.current.now), true);
        feature.getGeometry()?.setCoordinates(fromLonLat([item.longitude, item.latitude]));
      }
    };
    const finish = () => {
      waitingSince.current = 0;
      cluster?.resume();
      grouped.current = known.size;
      oldestFix.current = oldest;
    };
    // Rounds coming faster than they are applied (each one interrupts the last) must not
    // keep the clusters waiting: past a second, the rest is applied at once.
    const slice = Date.now() - waitingSince.current > MAX_WAIT_MS ? moved.length : SLICE;
    move(0, slice);
    if (moved.length <= slice) {
      finish();
      return;
    }
    let at = slice;
    let cancel = () => {};
    const step = () => {
      move(at, at + SLICE);
      at += SLICE;
      // Regrouping is a task of its own too.
      cancel = nextTask(at < moved.length ? step : finish);
    };
    cancel = nextTask(step);
    return () => cancel();
  }, [items]);

  // States move with the clock ('Sem sinal' appears by itself).
  useEffect(() => {
    for (const feature of features.current.values())
      feature.set('state', vehicleState(feature.get('item') as MapVehicle, now), true);
    layer.current?.changed();
  }, [now]);

  // Restyle on selection.
  useEffect(() => {
    void selectedId;
    layer.current?.changed();
  }, [selectedId]);

  // Follow the selected vehicle as it moves.
  const selected = selectedId ? items.find((item) => item.id === selectedId) : undefined;
  const lon = selected?.longitude;
  const lat = selected?.latitude;
  useEffect(() => {
    if (!follow || lon === undefined || lat === undefined) return;
    const view = map.getView();
    const zoom = Math.max(view.getZoom() ?? 0, UNCLUSTER_ZOOM);
    const [x = 0, y = 0] = fromLonLat([lon, lat]);
    // With the popup above it, the vehicle sits a quarter below the middle; with the popup
    // docked at the bottom (phones), a quarter above it.
    const height = map.getSize()?.[1] ?? 0;
    const resolution = view.getResolutionForZoom(zoom);
    const shift = followOffset * height * resolution;
    view.animate({ center: [x, y + shift], zoom, duration: 400 });
  }, [follow, lon, lat, map, followOffset]);

  return null;
}
