/**
 * Writes the demo's past week (server/demo/history.ts) through the same store step as ingest
 * (odometer, rollup, last locations), vehicle by vehicle in fix-time order, a few thousand
 * fixes a transaction. It runs once, after the server listens, on a database whose demo was
 * just seeded; the live simulator starts when it is done, so live fixes always come after.
 */
import { dayStart } from '../../src/lib/report-period';
import { storeFixes, type TrackerFix, trackersByIdentifiers } from '../ingest/queries/positions';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/log';
import { monthOf, shiftMonth } from '../reports/driving-report';
import { DEMO_FLEET } from './fleet';
import { HISTORY_GAP_MS, historyOf } from './history';
import { seedDemoJornada } from './jornada';

const BATCH = 4000;

export async function writeDemoHistory(
  db: Db,
  days: number,
  log: Logger,
  signal?: AbortSignal,
  now = new Date(),
) {
  const started = performance.now();
  const end = new Date(now.getTime() - HISTORY_GAP_MS);
  // The drivers' vehicles go back to the start of last month: the driving ranking compares
  // this month with the one before.
  const lastMonth = dayStart(`${shiftMonth(monthOf(end), -1)}-01`).getTime();
  const olderDays =
    days > 0
      ? Math.max(0, Math.ceil((end.getTime() - days * 86_400_000 - lastMonth) / 86_400_000))
      : 0;
  const trackers = await trackersByIdentifiers(
    db,
    DEMO_FLEET.map((v) => v.identifier),
  );
  let written = 0;
  for (const vehicle of DEMO_FLEET) {
    if (signal?.aborted) return written;
    const tracker = trackers.get(vehicle.identifier);
    if (!tracker) continue;
    const rows: TrackerFix[] = historyOf(vehicle, days, end, olderDays).map((fix) => ({
      tracker,
      fix,
      protocol: vehicle.protocol,
    }));
    for (let i = 0; i < rows.length && !signal?.aborted; i += BATCH) {
      await storeFixes(db, rows.slice(i, i + BATCH));
      // Let requests in between (the embedded database shares this thread).
      await new Promise((resolve) => setImmediate(resolve));
    }
    written += rows.length;
  }
  const marks = signal?.aborted
    ? 0
    : await seedDemoJornada(db, new Date(end.getTime() - days * 86_400_000), end);
  log.info('demo: histórico da semana gravado', {
    marks,
    days,
    positions: written,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  });
  return written;
}
