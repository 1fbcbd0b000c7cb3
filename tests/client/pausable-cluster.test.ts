/**
 * The vehicles' clusters wait while a round of fixes is applied in slices: no regrouping per
 * moved vehicle, the last grouping kept (drawn where the vehicles were), one regrouping on
 * resume — and none when nothing changed.
 */
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import { get as getProjection } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import { describe, expect, it, vi } from 'vitest';
import { PausableCluster } from '../../src/map/pausable-cluster';

function setup() {
  const points = [0, 10, 5000].map((x) => new Feature({ geometry: new Point([x, 0]) }));
  const source = new VectorSource<Feature<Point>>({ features: points });
  const cluster = new PausableCluster({ source, distance: 40 });
  // One map unit per pixel: the two first points group, the third stands alone.
  const projection = getProjection('EPSG:3857');
  if (!projection) throw new Error('EPSG:3857 missing');
  cluster.loadFeatures([-10_000, -10_000, 10_000, 10_000], 1, projection);
  const groups = () =>
    cluster
      .getFeatures()
      .map((c) => (c.get('features') as Feature[]).length)
      .sort();
  return { points, cluster, groups };
}

describe('PausableCluster', () => {
  it('keeps its grouping while paused and regroups once on resume', () => {
    const { points, cluster, groups } = setup();
    expect(groups()).toEqual([1, 2]);
    const regroup = vi.spyOn(cluster, 'addFeatures');

    cluster.pause();
    points[2]?.getGeometry()?.setCoordinates([20, 0]);
    points[1]?.getGeometry()?.setCoordinates([3000, 0]);
    expect(regroup).not.toHaveBeenCalled();
    expect(groups()).toEqual([1, 2]);

    cluster.resume();
    expect(regroup).toHaveBeenCalledTimes(1);
    expect(groups()).toEqual([1, 2]);
    const alone = cluster.getFeatures().find((c) => c.get('features').length === 1);
    expect(alone?.get('features')).toEqual([points[1]]);
  });

  it('does not regroup on resume when nothing changed, and regroups at once when not paused', () => {
    const { points, cluster } = setup();
    const regroup = vi.spyOn(cluster, 'addFeatures');
    cluster.pause();
    cluster.resume();
    expect(regroup).not.toHaveBeenCalled();
    points[0]?.getGeometry()?.setCoordinates([1, 0]);
    expect(regroup).toHaveBeenCalledTimes(1);
  });
});
