/**
 * Last locations for the map and its list: read from the IndexedDB mirror at once (before any
 * network answer), then kept fresh while the app is online and visible — a full read first,
 * then the live stream, resumed after the last change applied (its event id) after any drop.
 * Going offline or hidden stops the stream; coming back online or visible catches up at once.
 *
 * Parsing and the mirror's reads and writes happen in the locations worker
 * (locations-client.ts): this page fetches, hands the bytes over and keeps the rows the
 * worker sends, changing only the rows that changed.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { lastLocationsBody, readLocationStream } from '../api/locations';
import type { LocationItem } from '../contract';
import { useOnline } from '../hooks/useOnline';
import { isAfter } from '../lib/event-id';
import { db, signedIn } from './database';
import { locationsKey } from './location-writes';
import { takePrefetchedLocations } from './locations-boot';
import { locationsWorker } from './locations-client';

const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

// Started by the app's entry already when signed in (locations-boot.ts); else now, while the
// map's code loads.
locationsWorker.warm();

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
  rows: LocationItem[] | undefined;
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

/** The rows of `scope` as the worker reports them: a new array only when a change is whole. */
function useWorkerRows(scope: string | null): LocationItem[] | undefined {
  const [rows, setRows] = useState<{ scope: string | null; items: LocationItem[] }>();
  useEffect(() => {
    if (!scope) return;
    let shown: LocationItem[] = [];
    let index = new Map<string, number>();
    let draft: LocationItem[] | null = null;
    const stop = locationsWorker.listen((event) => {
      if (event.type !== 'rows' || event.scope !== scope) return;
      if (event.reset) {
        draft = [];
        index = new Map();
      }
      draft ??= shown.slice();
      for (const item of event.items) {
        const at = index.get(item.id);
        if (at === undefined) index.set(item.id, draft.push(item) - 1);
        else draft[at] = item;
      }
      if (event.removed.length) {
        const gone = new Set(event.removed);
        draft = draft.filter((item) => !gone.has(item.id));
        index = new Map(draft.map((item, at) => [item.id, at]));
      }
      if (!event.last) return;
      shown = draft;
      draft = null;
      setRows({ scope, items: shown });
    });
    locationsWorker.open(scope);
    return stop;
  }, [scope]);
  if (!scope) return [];
  return rows?.scope === scope ? rows.items : undefined;
}

export function useLiveLocations(scope: string | null): LiveLocations {
  const rows = useWorkerRows(scope);
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
    let attempt = 0;
    const stopListening = locationsWorker.listen((event) => {
      if (event.type !== 'ready' || event.scope !== scope || signal.aborted) return;
      attempt = 0;
      setLive(true);
    });

    void (async () => {
      let synced = false;
      /** The full read's newest event: the stream resumes from it before it is written. */
      let readUpTo: string | undefined;
      while (!signal.aborted) {
        try {
          if (!synced) {
            setSyncing(true);
            const body = await (takePrefetchedLocations(scope) ?? lastLocationsBody(scope));
            if (!signedIn()) break;
            readUpTo = (await locationsWorker.full(scope, body)).watermark;
            synced = true;
            setSyncing(false);
            setError(undefined);
          }
          const written = (await db.syncState.get(locationsKey(scope)))?.watermark;
          const lastEventId = written && isAfter(written, readUpTo) ? written : readUpTo;
          locationsWorker.streamStart(scope);
          try {
            await readLocationStream({
              clientId: scope,
              lastEventId,
              signal,
              onBytes: (bytes) => locationsWorker.stream(scope, bytes),
            });
          } finally {
            locationsWorker.streamEnd(scope);
          }
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
      stopListening();
      setLive(false);
    };
  }, [scope, online, visible]);

  return { rows, syncedAt: state?.syncedAt, live, syncing, error };
}

/**
 * A scope's last locations read once, for where a fleet is (not to follow it): the first rows
 * that come, or none once the server found none; then the read and the stream stop. A null
 * scope reads nothing. A new scope is read anew.
 */
export function useLocationsOnce(scope: string | null): LocationItem[] | undefined {
  const [seen, setSeen] = useState<{ scope: string; rows: LocationItem[] }>();
  const reading = scope && seen?.scope !== scope ? scope : null;
  const { rows, syncedAt, syncing } = useLiveLocations(reading);
  useEffect(() => {
    if (!reading || !rows) return;
    if (rows.length || (syncedAt && !syncing)) setSeen({ scope: reading, rows });
  }, [reading, rows, syncedAt, syncing]);
  return scope && seen?.scope === scope ? seen.rows : undefined;
}
