/**
 * The cost of one ingest batch (`BENCH_PARTS=batch`), a steadier figure than throughput: 2,000
 * trackers each hand the pipeline one fix at once, which makes one batch of 2,000; 30 such
 * batches after 5 to warm up, with the alert engine on (three rules covering every vehicle, as
 * in bench/ingest.ts). Prints the median batch (first accept to last answer), its spread and
 * the event loop's longest pause. Throughput end to end (bench/ingest.ts) also depends on how
 * devices and batches interleave, and moves ±15 % from run to run on this machine; a change to
 * the work of a batch shows here first. BENCH_BATCH_SIZE and BENCH_BATCHES change the sizes.
 */
import type { Fix } from '../server/ingest/queries/positions';
import { coverWithRules, seed } from './ingest';
import { withLoopWatch } from './loop-watch';
import { benchServer } from './server';

const SIZE = Number(process.env.BENCH_BATCH_SIZE ?? 2000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 30);
const WARM_UP = 5;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;

/** Device `i`'s fix of batch `n`: a step north each batch, speeds across the limit, the
 * ignition off now and then (so that the engine raises and clears alerts). */
function fixOf(i: number, n: number, start: number): Fix {
  return {
    fixTime: new Date(start + n * 10_000),
    latitude: -8.2 + (i % 100) * 0.003 + n * 0.0001,
    longitude: -35.05 + Math.floor(i / 100) * 0.003,
    speed: (i * 7 + n * 13) % 120,
    course: 0,
    ignition: (i + n) % 10 !== 0,
    attributes: {},
  };
}

export async function benchBatch(label: string, databaseUrl?: string) {
  const server = await benchServer(databaseUrl, { ALERT_ENGINE: 'on' });
  try {
    const clientId = await seed(server, 'lote-', SIZE);
    await coverWithRules(server, clientId);
    const { pipeline } = server.deps;
    const start = Date.now() - (BATCHES + WARM_UP + 1) * 10_000;
    const times: number[] = [];
    let stored = 0;
    const { pauseMs } = await withLoopWatch(async () => {
      for (let n = 0; n < WARM_UP + BATCHES; n += 1) {
        const t0 = performance.now();
        const results = await Promise.all(
          Array.from({ length: SIZE }, (_, i) =>
            pipeline.accept(`lote-${i}`, [fixOf(i, n, start)], 'wialon_ips'),
          ),
        );
        if (n < WARM_UP) continue;
        times.push(performance.now() - t0);
        for (const r of results) stored += r.stored;
      }
    });
    const sorted = [...times].sort((a, b) => a - b);
    const median = percentile(sorted, 0.5);
    console.log(`\n${label}: one ingest batch of ${SIZE} fixes, alert engine on`);
    console.log(
      `  median ${median.toFixed(0)} ms (${((median / SIZE) * 1000).toFixed(0)} ms per 1,000; p10 ${percentile(sorted, 0.1).toFixed(0)}, p90 ${percentile(sorted, 0.9).toFixed(0)} ms over ${times.length} batches), ${stored} stored, longest pause ${pauseMs.toFixed(0)} ms`,
    );
  } finally {
    await server.close();
  }
}
