/**
 * Last locations for the map and its list: read from the IndexedDB mirror at once (before any
 * network answer), then kept fresh while the app is online and visible — a full read first,
 * then the live stream, resumed after the last change applied (its event id) after any drop. Going offline or
 * hidden stops the stream; coming back online or visible catches up at once.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { followLocations } from '../api/locations';
import type { LocationItem } from '../contract';
import { useOnline } from '../hooks/useOnline';
import { db, type MirroredLocation } from './database';
import { applyLocations, locationsKey, syncLastLocations } from './locations';

/** Live changes are written to the mirror in batches at most this often. */
const FLUSH_MS = 250;
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

function subscribeVisibility(callback: () => void) {
  document.addEventListener('visibilitychange', callback);
  return () => document.removeEventListener('visibilitychange', callback);
}

function useVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState === 'visible',
    () => true,
  );
}

export interface LiveLocations {
  rows: MirroredLocation[] | undefined;
  /** When the mirror last heard from the server. */
  syncedAt: string | undefined;
  /** Connected to the live stream right now. */
  live: boolean;
  syncing: boolean;
  error: unknown;
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export function useLiveLocations(scope: string | null): LiveLocations {
  const rows = useLiveQuery(
    () =>
      scope
        ? db.lastLocations.where('scope').equals(scope).toArray()
        : Promise.resolve([] as MirroredLocation[]),
    [scope],
  );
  const state = useLiveQuery(
    () => (scope ? db.syncState.get(locationsKey(scope)) : undefined),
    [scope],
  );
  const online = useOnline();
  const visible = useVisible();
  const [live, setLive] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    if (!scope || !online || !visible) return;
    const controller = new AbortController();
    const { signal } = controller;
    let pending: LocationItem[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      flushTimer = undefined;
      const items = pending;
      pending = [];
      void applyLocations(scope, items).catch(setError);
    };

    void (async () => {
      let attempt = 0;
      let synced = false;
      while (!signal.aborted) {
        try {
          if (!synced) {
            setSyncing(true);
            await syncLastLocations(scope);
            synced = true;
            setSyncing(false);
            setError(undefined);
          }
          const lastEventId = (await db.syncState.get(locationsKey(scope)))?.watermark;
          await followLocations({
            clientId: scope,
            lastEventId,
            signal,
            onReady: () => {
              attempt = 0;
              setLive(true);
            },
            onItems: (items) => {
              pending.push(...items);
              flushTimer ??= setTimeout(flush, FLUSH_MS);
            },
          });
        } catch (err) {
          if (signal.aborted) break;
          setError(err);
        }
        setLive(false);
        setSyncing(false);
        await wait(RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)] ?? 30_000, signal);
      }
    })();

    return () => {
      controller.abort();
      if (flushTimer) clearTimeout(flushTimer);
      if (pending.length) void applyLocations(scope, pending);
      setLive(false);
    };
  }, [scope, online, visible]);

  return { rows, syncedAt: state?.syncedAt, live, syncing, error };
}
