/**
 * Alerts (SPEC §7 `registros/alerts`): the history with its filters and paging, acknowledging
 * one, several or all, and the live alert events of the stream (`events=alerts`), read over
 * the authenticated client like the location stream.
 */
import { createParser } from 'eventsource-parser';
import * as v from 'valibot';
import {
  AckResultSchema,
  type Alert,
  AlertPageSchema,
  AlertSchema,
  KEPT_AT_HEADER,
} from '../contract';
import { removeEmptyProperties } from '../lib/clean';
import { api } from './client';
import { session } from './session';

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

/**
 * A page of alerts. Without signal the service worker answers with the copy it kept of the same
 * page, if any: `keptAt` then says when it was kept (absent for the network's answers).
 */
export async function listAlerts(params: AlertListParams) {
  const searchParams = removeEmptyProperties({ ...params }) as Record<
    string,
    string | number | boolean
  >;
  const response = await api.get('registros/alerts', { searchParams });
  const page = v.parse(AlertPageSchema, await response.json());
  return { ...page, keptAt: response.headers.get(KEPT_AT_HEADER) ?? undefined };
}

/**
 * What an acknowledgement came to: how many the server marked, or, without a connection,
 * queued by the service worker (202 `{ queued: true }`) to go when the connection returns.
 */
export interface AckOutcome {
  count: number;
  queued: boolean;
}

/** Raised on the window when an acknowledgement was queued by the worker. */
export const ACK_QUEUED_EVENT = 'rastro:ack-queued';

async function ack(path: string, json?: unknown): Promise<AckOutcome> {
  const response = await api.put(path, json === undefined ? {} : { json });
  const body: unknown = await response.json();
  if (response.status === 202 && (body as { queued?: unknown }).queued === true) {
    // The push listener then keeps asking the worker to send it until it went.
    if (typeof window !== 'undefined') window.dispatchEvent(new Event(ACK_QUEUED_EVENT));
    return { count: 0, queued: true };
  }
  return { count: v.parse(AckResultSchema, body).count, queued: false };
}

export function acknowledgeAlerts(alertIds: string[]): Promise<AckOutcome> {
  return ack('registros/alerts/ack', { alertIds });
}

export function acknowledgeAll(): Promise<AckOutcome> {
  return ack('registros/alerts/ack-all');
}

/**
 * The acknowledgements the service worker still holds (made offline), for 'pendente' in the
 * history; nothing when no worker controls the page or it does not answer within a second.
 */
export async function pendingAcknowledgements(): Promise<{ alertIds: string[]; all: boolean }> {
  const none = { alertIds: [], all: false };
  const worker = typeof navigator === 'undefined' ? null : navigator.serviceWorker?.controller;
  if (!worker) return none;
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(none), 1000);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      const data = event.data as { alertIds?: unknown; all?: unknown } | null;
      resolve({
        alertIds: Array.isArray(data?.alertIds) ? data.alertIds.map(String) : [],
        all: data?.all === true,
      });
    };
    worker.postMessage(
      { type: 'RASTRO_PENDING_ACKS', accessToken: session.accessToken() ?? undefined },
      [channel.port2],
    );
  });
}

/** Asks the worker to send the acknowledgements it holds, with the current access token. */
export function replayAcknowledgements(accessToken: string | null): void {
  const worker = typeof navigator === 'undefined' ? null : navigator.serviceWorker?.controller;
  worker?.postMessage({ type: 'RASTRO_REPLAY_ACKS', accessToken: accessToken ?? undefined });
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
