/**
 * The one hook screens read a mirrored table through (vehicles, drivers, geofences): the rows
 * of a customer at once from IndexedDB, and a controller effect that syncs on mount, when the
 * connection comes back and when the app becomes visible again (at once, not after a fixed
 * delay).
 *
 * Rows and sync state come from one query, tagged with what they were read for: after a
 * change of customer, useLiveQuery still answers the previous query's result until the new
 * one's comes, and a screen must not take the previous customer's rows or "synced at" for the
 * new one's (the geofences page framed a customer on another one's fences when it did).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import { db } from './database';

export interface Mirrored<T> {
  /** `undefined` until the mirror answered for the current customer. */
  rows: T[] | undefined;
  syncedAt: string | undefined;
  syncing: boolean;
  error: unknown;
  /** Syncs now (after a write); resolves when the mirror holds the answer. */
  refresh: () => Promise<void>;
}

/** How one mirrored table is read and synced, for one sync target (a customer). */
export interface MirrorSource<T> {
  /** The rows for the target, in the order screens show them. */
  read: (target: string, scope: readonly string[] | 'all') => Promise<T[]>;
  /** The key of the target's sync state in `syncState`. */
  stateKey: (target: string) => string;
  sync: (target: string) => Promise<unknown>;
}

/**
 * `target`: the customer synced (null: nothing to show); `scope`: the company ids read from
 * the mirror (the customer and those below it, as the server answers), or 'all'.
 */
export function useMirror<T>(
  source: MirrorSource<T>,
  target: string | null,
  scope: readonly string[] | 'all' = [],
): Mirrored<T> {
  const ids = scope === 'all' ? 'all' : [...new Set([target ?? '', ...scope])].filter(Boolean);
  const tag = target ? `${target}|${ids === 'all' ? ids : ids.join()}` : '';
  const read = useLiveQuery(async () => {
    if (!target) return { tag, rows: [] as T[], state: undefined };
    const [rows, state] = await Promise.all([
      source.read(target, ids),
      db.syncState.get(source.stateKey(target)),
    ]);
    return { tag, rows, state };
  }, [tag, source]);
  const current = read?.tag === tag ? read : undefined;
  const [syncing, setSyncing] = useState(false);
  const [error, setError] = useState<unknown>();

  const refresh = useCallback(async () => {
    if (!target || !navigator.onLine) return;
    setSyncing(true);
    try {
      await source.sync(target);
      setError(undefined);
    } catch (err) {
      setError(err);
    } finally {
      setSyncing(false);
    }
  }, [target, source]);

  useEffect(() => {
    const run = () => void refresh();
    run();
    const onVisible = () => document.visibilityState === 'visible' && run();
    window.addEventListener('online', run);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('online', run);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh]);

  return { rows: current?.rows, syncedAt: current?.state?.syncedAt, syncing, error, refresh };
}
