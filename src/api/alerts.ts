/**
 * Alerts (SPEC §7 `registros/alerts`): the history with its filters and paging, acknowledging
 * one, several or all, and the live alert events of the stream (`events=alerts`), read over
 * the authenticated client like the location stream.
 */
import { createParser } from 'eventsource-parser';
import * as v from 'valibot';
import { AckResultSchema, type Alert, AlertPageSchema, AlertSchema } from '../contract';
import { removeEmptyProperties } from '../lib/clean';
import { api } from './client';

export interface AlertListParams {
  clientId?: string | null;
  vehicleId?: string | null;
  type?: string | null;
  acknowledged?: boolean | null;
  beginAt?: string | null;
  endAt?: string | null;
  page?: number;
  limit?: number;
  sort?: 'name' | 'createdAt' | 'updatedAt';
  order?: 'asc' | 'desc';
}

export async function listAlerts(params: AlertListParams) {
  const searchParams = removeEmptyProperties({ ...params }) as Record<
    string,
    string | number | boolean
  >;
  return v.parse(AlertPageSchema, await api.get('registros/alerts', { searchParams }).json());
}

export async function acknowledgeAlerts(alertIds: string[]): Promise<number> {
  return v.parse(
    AckResultSchema,
    await api.put('registros/alerts/ack', { json: { alertIds } }).json(),
  ).count;
}

export async function acknowledgeAll(): Promise<number> {
  return v.parse(AckResultSchema, await api.put('registros/alerts/ack-all').json()).count;
}

/**
 * Reads alert events until the stream ends or `signal` aborts; resolves when the server closes
 * it, rejects on errors. Alerts raised while disconnected are not replayed: the caller reads
 * the history again on each `onReady`.
 */
export async function followAlerts(options: {
  signal: AbortSignal;
  onAlert(alert: Alert): void;
  onReady(): void;
}): Promise<void> {
  const response = await api.get('registros/real-time/stream', {
    searchParams: { events: 'alerts' },
    signal: options.signal,
    timeout: false,
    headers: { accept: 'text/event-stream' },
  });
  const parser = createParser({
    onEvent(event) {
      if (event.event === 'ready') options.onReady();
      if (event.event !== 'alert') return;
      try {
        const parsed = v.safeParse(AlertSchema, JSON.parse(event.data));
        if (parsed.success) options.onAlert(parsed.output);
      } catch {
        // A malformed event is skipped; the history read repairs the count.
      }
    },
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}
