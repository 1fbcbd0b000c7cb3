/**
 * This process's figures in the Prometheus text format (GET /metrics, with METRICS_TOKEN):
 * the positions taken and refused by reason, the fixes waiting to be written, the Wialon IPS
 * connections, and the process's memory, CPU and event-loop delay. Each process answers for
 * itself: with several behind a load balancer, Prometheus scrapes each one (docs/deployment.md).
 *
 * Parts of the server add their figures as they start (`counter`, `gauge`); a figure is read
 * when it is scraped, never kept twice.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** One value of a family, with its labels. */
export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

interface Family {
  type: 'counter' | 'gauge';
  help: string;
  read: () => Sample[] | number;
}

/** A label value as the text format wants it: backslash, quote and line break escaped. */
function escapeLabel(value: string) {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatValue(value: number) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

export class Metrics {
  private readonly families = new Map<string, Family>();
  private readonly stops: (() => void)[] = [];

  /** Something to stop when the process's server closes (a monitor the registry started). */
  onClose(stop: () => void) {
    this.stops.push(stop);
  }

  close() {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** A value that only grows while the process runs (reset when it restarts). */
  counter(name: string, help: string, read: Family['read']) {
    this.add(name, { type: 'counter', help, read });
  }

  /** A value that goes up and down. */
  gauge(name: string, help: string, read: Family['read']) {
    this.add(name, { type: 'gauge', help, read });
  }

  private add(name: string, family: Family) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`metric name ${name}`);
    if (this.families.has(name)) throw new Error(`metric ${name} registered twice`);
    this.families.set(name, family);
  }

  /** Every family, read now, in the text exposition format 0.0.4. */
  render(): string {
    const lines: string[] = [];
    for (const [name, family] of this.families) {
      let read: Sample[] | number;
      try {
        read = family.read();
      } catch {
        continue;
      }
      const samples = typeof read === 'number' ? [{ value: read }] : read;
      lines.push(`# HELP ${name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`);
      lines.push(`# TYPE ${name} ${family.type}`);
      for (const sample of samples) {
        const labels = Object.entries(sample.labels ?? {});
        const text = labels.length
          ? `{${labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`
          : '';
        lines.push(`${name}${text} ${formatValue(sample.value)}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }
}

/**
 * A registry with this process's own figures: version, start time, CPU, memory and the
 * event loop's delay (the longest and the 99th percentile since the last scrape).
 */
export function createMetrics(version: string): Metrics {
  const metrics = new Metrics();
  const started = Date.now() / 1000;
  // A histogram fed by libuv: it holds no handle, so the process can exit with it on.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  metrics.onClose(() => delay.disable());
  metrics.gauge('rastro_build_info', 'A 1 labelled with the running version.', () => [
    { labels: { version }, value: 1 },
  ]);
  metrics.gauge(
    'process_start_time_seconds',
    'When the process started (Unix seconds).',
    () => started,
  );
  metrics.counter(
    'process_cpu_seconds_total',
    'CPU time used by the process (user + system).',
    () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    },
  );
  metrics.gauge('process_resident_memory_bytes', 'Resident memory of the process.', () =>
    process.memoryUsage.rss(),
  );
  metrics.gauge(
    'nodejs_heap_used_bytes',
    'JavaScript heap in use.',
    () => process.memoryUsage().heapUsed,
  );
  metrics.gauge(
    'nodejs_eventloop_delay_seconds',
    "The event loop's delay since the last scrape: its 99th percentile and its longest.",
    () => {
      const measured = delay.count > 0;
      const samples = [
        { labels: { stat: 'p99' }, value: measured ? delay.percentile(99) / 1e9 : 0 },
        { labels: { stat: 'max' }, value: measured ? delay.max / 1e9 : 0 },
      ];
      delay.reset();
      return samples;
    },
  );
  return metrics;
}
