/**
 * Last locations (SPEC §7 `registros/real-time/lastLocation`) and the live stream of changed
 * ones. The stream is server-sent events read over the authenticated client (fetch), since
 * EventSource cannot send the bearer token; a 401 there refreshes the session like any call.
 */
import * as v from 'valibot';
import { type LocationItem, LocationItemSchema } from '../contract';
import { api } from './client';

const LocationListSchema = v.array(LocationItemSchema);

export async function lastLocations(clientId: string | null): Promise<LocationItem[]> {
  return v.parse(
    LocationListSchema,
    await api
      .get('registros/real-time/lastLocation', {
        searchParams: clientId ? { clientId } : {},
        timeout: 60_000,
      })
      .json(),
  );
}

export interface SseEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/** Splits server-sent-event text into events; returns them and the unfinished rest. */
export function parseSse(text: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const blocks = text.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
    if (data.length > 0) events.push({ event, data: data.join('\n'), id });
  }
  return { events, rest };
}

/**
 * Reads the live stream until it ends or `signal` aborts: first what changed after `since`,
 * then 'ready', then every change. Resolves when the stream closes; rejects on errors.
 */
export async function followLocations(options: {
  clientId: string | null;
  since: string | undefined;
  signal: AbortSignal;
  onItems(items: LocationItem[]): void;
  onReady(): void;
}): Promise<void> {
  const searchParams: Record<string, string> = {};
  if (options.clientId) searchParams.clientId = options.clientId;
  if (options.since) searchParams.since = options.since;
  const response = await api.get('registros/real-time/stream', {
    searchParams,
    signal: options.signal,
    timeout: false,
    headers: { accept: 'text/event-stream' },
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const { events, rest } = parseSse(buffered + decoder.decode(value, { stream: true }));
    buffered = rest;
    const items: LocationItem[] = [];
    for (const event of events) {
      if (event.event === 'ready') options.onReady();
      if (event.event !== 'location') continue;
      const parsed = v.safeParse(LocationItemSchema, JSON.parse(event.data));
      if (parsed.success) items.push(parsed.output);
    }
    if (items.length) options.onItems(items);
  }
}
