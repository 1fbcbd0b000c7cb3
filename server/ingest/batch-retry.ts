/**
 * A batch written, and what is done when the write fails (server/ingest/pipeline.ts). A failed
 * batch is retried message by message, and a failed message fix by fix, so that a value the
 * database refuses (a data error: SQLSTATE class 22/23/54) costs only its own fix, which is
 * dropped and counted as 'invalid_value'. Any other failure (connection, shutdown) rejects the
 * message: it is not acknowledged, and the device sends it again.
 */
import type { Logger } from '../platform/log';
import { isDataError, type WriteBatch } from './batch-write';
import { type AcceptResult, type Counters, inTimeOrder, type Pending } from './message';
import type { TrackerCache } from './tracker-cache';

/** Writes a batch and answers each of its messages (resolves or rejects it). */
export type SettleBatch = (batch: Pending[]) => Promise<void>;

export function createSettle(parts: {
  write: WriteBatch;
  cache: TrackerCache | undefined;
  log: Logger;
  counters: Counters;
}): SettleBatch {
  const { write, cache, log, counters } = parts;

  /** One message alone failed: store it fix by fix, dropping only the fixes refused as data. */
  async function writeFixByFix(pending: Pending): Promise<AcceptResult> {
    const total: AcceptResult = {
      status: 'ok',
      stored: 0,
      telemetry: 0,
      rejected: [],
      unstored: [],
    };
    for (const fix of inTimeOrder(pending.fixes)) {
      let result: AcceptResult | undefined;
      try {
        [result] = await write([{ ...pending, fixes: [fix] }]);
      } catch (err) {
        if (!isDataError(err)) {
          cache?.clear();
          throw err;
        }
        log.warn('ingest: fix refused by the database, dropped', {
          identifier: pending.identifier,
          err,
        });
        counters.invalid_value += 1;
        result = { status: 'ok', stored: 0, rejected: ['invalid_value'], unstored: [fix] };
      }
      if (!result) continue;
      if (result.status === 'unknown_device') return result;
      total.stored += result.stored;
      total.telemetry = (total.telemetry ?? 0) + (result.telemetry ?? 0);
      total.authenticated = result.authenticated;
      total.rejected.push(...result.rejected);
      total.unstored?.push(...(result.unstored ?? []));
    }
    return total;
  }

  /** Writes a batch; when it fails, each message alone, then each fix alone (see above). */
  async function settle(batch: Pending[]): Promise<void> {
    try {
      const results = await write(batch);
      batch.forEach((pending, i) => {
        const result = results[i];
        if (result) pending.resolve(result);
      });
      return;
    } catch (err) {
      // Whether a failed write committed is not always known: the trackers are read again.
      cache?.clear();
      if (batch.length > 1) {
        log.warn('ingest: batch failed, storing one by one', { size: batch.length, err });
        for (const pending of batch) await settle([pending]);
        return;
      }
      const [only] = batch;
      if (!only) return;
      if (!isDataError(err)) {
        only.reject(err);
        return;
      }
      await writeFixByFix(only).then(only.resolve, only.reject);
    }
  }

  return settle;
}
