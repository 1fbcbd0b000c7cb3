/**
 * Vehicles on the map: one feature per last location, updated in place when positions change
 * (10,000 vehicles every 10 s means moving features, not rebuilding them), grouped into
 * numbered clusters when zoomed out, drawn with cached styles. Clicking a vehicle selects it;
 * clicking a cluster zooms into it. Renders nothing itself.
 *
 * A round of fixes for thousands of vehicles is applied in slices, one task each, so the page
 * never stops answering for long: meanwhile the clusters keep their last grouping (drawn where
 * the vehicles were), and they regroup once, in a task of their own, when every vehicle has
 * moved (src/map/vehicle-rounds.ts). `data-rendered` counts the vehicles grouped, so a frame
 * drawn meanwhile says so.
 *
 * Once a frame has completed, the map element carries `data-rendered` (vehicles drawn) and
 * `data-rendered-oldest-fix` (the oldest fix among them): nothing a person sees tells that a
 * frame was painted, and the browser benchmark (bench/map.ts) times exactly that — by the
 * performance mark set with them (src/map/drawn-mark.ts), since waiting for an attribute is
 * polled.
 */

import { boundingExtent, getHeight, getWidth } from 'ol/extent';
import type { FeatureLike } from 'ol/Feature';
import VectorLayer from 'ol/layer/Vector';
import { fromLonLat } from 'ol/proj';
import { useEffect, useRef } from 'react';
import { type VehicleState, vehicleState } from '../lib/vehicle-state';
import { DRAWN_MARK, type DrawnDetail } from './drawn-mark';
import { useMap } from './MapView';
import { PausableCluster } from './pausable-cluster';
import {
  applyRound,
  createVehicleSet,
  type MapVehicle,
  type VehicleFeature,
} from './vehicle-rounds';
import { clusterStyle, vehicleStyle } from './vehicle-styles';

/** From this zoom on, every vehicle is drawn on its own. */
const UNCLUSTER_ZOOM = 15;
const CLUSTER_DISTANCE = 48;

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

export type { MapVehicle } from './vehicle-rounds';

/**
 * How far above a followed vehicle the map's centre sits, as a share of the map's height: the
 * vehicle a quarter below the middle, room above it for the popup (src/map/Popup.tsx).
 */
export const FOLLOW_OFFSET = 0.25;

export function VehicleLayer({
  items,
  selectedId,
  follow,
  onSelect,
  now,
  followOffset = FOLLOW_OFFSET,
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
  const vehicles = useRef(createVehicleSet()).current;
  const layer = useRef<VectorLayer | null>(null);
  const settings = useRef({ selectedId, now, onSelect });
  settings.current = { selectedId, now, onSelect };

  useEffect(() => {
    const cluster = new PausableCluster({ source: vehicles.source, distance: CLUSTER_DISTANCE });
    vehicles.cluster = cluster;
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
      const rendered = String(vehicles.grouped);
      if (
        target.dataset.rendered === rendered &&
        target.dataset.renderedOldestFix === vehicles.oldestFix
      )
        return;
      target.dataset.rendered = rendered;
      target.dataset.renderedOldestFix = vehicles.oldestFix;
      // The moment of that frame, for the browser benchmark (only the latest is kept).
      performance.clearMarks(DRAWN_MARK);
      const detail: DrawnDetail = { rendered: vehicles.grouped, oldestFix: vehicles.oldestFix };
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
      vehicles.cluster = null;
    };
  }, [map, vehicles]);

  // Move, add and drop features to match the items.
  useEffect(
    () => applyRound(vehicles, items, (item) => vehicleState(item, settings.current.now), nextTask),
    [items, vehicles],
  );

  // States move with the clock ('Sem sinal' appears by itself).
  useEffect(() => {
    for (const feature of vehicles.features.values())
      feature.set('state', vehicleState(feature.get('item') as MapVehicle, now), true);
    layer.current?.changed();
  }, [now, vehicles]);

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
