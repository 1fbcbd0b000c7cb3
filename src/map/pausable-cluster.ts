/**
 * Clusters that can be told to wait (see VehicleLayer): ol's Cluster regroups every feature
 * whenever one of them changes.
 */
import type Feature from 'ol/Feature';
import type { FeatureLike } from 'ol/Feature';
import Cluster from 'ol/source/Cluster';

/**
 * Clusters that can be told to wait: while paused, changes to the vehicles do not regroup
 * (10,000 moves would regroup 10,000 times); resuming regroups once, if anything changed.
 */
export class PausableCluster<F extends FeatureLike = Feature> extends Cluster<F> {
  private paused = false;
  private due = false;

  override refresh(): void {
    if (this.paused) {
      this.due = true;
      return;
    }
    this.due = false;
    super.refresh();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    if (this.due) this.refresh();
  }
}
