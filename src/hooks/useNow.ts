/**
 * A clock for what depends on the time but need not move every second (vehicle states, the
 * counts of the legend): one shared ticker per period, stopped when no screen listens.
 */
import { useSyncExternalStore } from 'react';
import { createTicker, type Ticker } from '../lib/clock';

const tickers = new Map<number, Ticker>();

export function useNow(periodMs = 15_000): number {
  let ticker = tickers.get(periodMs);
  if (!ticker) {
    ticker = createTicker(periodMs);
    tickers.set(periodMs, ticker);
  }
  return useSyncExternalStore(ticker.subscribe, ticker.now, ticker.now);
}
