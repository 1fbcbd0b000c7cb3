/**
 * Last locations (SPEC §7 `registros/real-time/lastLocation`) and the live stream of changed
 * ones. The stream is server-sent events read over the authenticated client (fetch), since
 * EventSource cannot send the bearer token; a 401 there refreshes the session like any call.
 * The map hands the raw bytes of both to the locations worker, which parses them off the
 * page's thread with location-stream.ts; `lastLocations` and `followLocations` parse here.
 */
import type { LocationItem } from '../contract';
import { isAfter } from '../lib/event-id';
import { api } from './client';
import { createLocationStreamParser, readCompactLocations } from './location-stream';

export { isAfter };

/**
 * The raw answer of the full read of every last location the user may see (of one customer
 * and its children with `clientId`), in the compact form: a sixth of the bytes for 10,000
 * vehicles (compact-locations.ts). `readCompactLocations` reads it.
 */
export function lastLocationsBody(clientId: string | null): Promise<ArrayBuffer> {
  return api
    .get('registros/real-time/lastLocation', {
      searchParams: { ...(clientId ? { clientId } : {}), format: 'compact' },
      timeout: 60_000,
    })
    .arrayBuffer();
}

/** Every last location the user may see, parsed. */
export async function lastLocations(clientId: string | null): Promise<LocationItem[]> {
  const body = await lastLocationsBody(clientId);
  return readCompactLocations(JSON.parse(new TextDecoder().decode(body)));
}

/**
 * Opens the live stream and hands over its bytes as they arrive until it ends or `signal`
 * aborts: first the changes after `lastEventId` (sent as Last-Event-ID, as EventSource
 * would), then the 'ready' event, then every change. Resolves when the stream closes (the
 * server closes it when the session ends); rejects on errors.
 */
export async function readLocationStream(options: {
  clientId: string | null;
  lastEventId: string | undefined;
  signal: AbortSignal;
  onBytes(bytes: Uint8Array): void;
}): Promise<void> {
  const searchParams: Record<string, string> = {};
  if (options.clientId) searchParams.clientId = options.clientId;
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.lastEventId && /^\d+$/.test(options.lastEventId))
    headers['last-event-id'] = options.lastEventId;
  const response = await api.get('registros/real-time/stream', {
    searchParams,
    signal: options.signal,
    timeout: false,
    headers,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    options.onBytes(value);
  }
}

/**
 * Reads the live stream parsed: each item carries its `eventId`, and the caller keeps the
 * greatest it applied and resumes from it, so a drop in the middle of a batch loses nothing.
 */
export async function followLocations(options: {
  clientId: string | null;
  lastEventId: string | undefined;
  signal: AbortSignal;
  onItems(items: LocationItem[]): void;
  onReady(): void;
}): Promise<void> {
  let items: LocationItem[] = [];
  const parser = createLocationStreamParser({
    onItem: (item) => items.push(item),
    onReady: options.onReady,
  });
  await readLocationStream({
    ...options,
    onBytes(bytes) {
      parser.feed(bytes);
      if (items.length === 0) return;
      const batch = items;
      items = [];
      options.onItems(batch);
    },
  });
}
