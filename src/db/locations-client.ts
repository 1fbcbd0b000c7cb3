/**
 * The page's side of the locations worker (locations.worker.ts): one worker for the page,
 * started on first use or already by the app's entry (locations-boot.ts), and adopted here.
 * The page fetches (HTTP stays in src/api/client.ts, with its session refresh) and hands the
 * raw bytes over, transferred rather than copied; the worker parses, merges and writes the
 * mirror, and sends back only what changed. The page tells it when it is idle after showing
 * what came: the worker writes then, not while the page draws.
 *
 * The worker cannot see the session, so it is stopped at sign-out before the mirror is
 * emptied (registerWriter), and never started again while nobody is signed in.
 */
import { whenIdle } from '../lib/idle';
import { registerWriter } from './database';
import { locationsWorkerInstance, stopLocationsWorker } from './locations-boot';
import type { LocationsEvent, LocationsRequest } from './locations-engine';

type RowsEvent = Exclude<LocationsEvent, { type: 'done' }>;
type Listener = (event: RowsEvent) => void;

let worker: Worker | undefined;
const listeners = new Set<Listener>();
/** A full read merged: how many items, and its newest event id (where the stream resumes). */
export interface FullRead {
  count: number;
  watermark: string | undefined;
}
const requests = new Map<number, { resolve(read: FullRead): void; reject(error: Error): void }>();
let nextRequest = 1;

/** 'rows' messages taken from the worker, and whether an `idle` notice is on its way. */
let received = 0;
let noticeDue = false;
/** The longest the notice waits for the page to be idle. */
const IDLE_NOTICE_MS = 1000;

/** Once the page is idle (what came is shown, the frame drawn), tells the worker: it writes. */
function noticeWhenIdle(target: Worker) {
  if (noticeDue) return;
  noticeDue = true;
  const tell = () => {
    noticeDue = false;
    if (target !== worker) return;
    const message: LocationsRequest = { type: 'idle', seen: received };
    target.postMessage(message);
  };
  whenIdle(tell, IDLE_NOTICE_MS);
}

function failAll(error: Error) {
  for (const request of requests.values()) request.reject(error);
  requests.clear();
}

function start(): Worker | undefined {
  const created = locationsWorkerInstance();
  if (created === worker) return worker;
  worker = created;
  received = 0;
  noticeDue = false;
  if (!created) return undefined;
  created.onmessage = ({ data }: MessageEvent<LocationsEvent>) => {
    if (data.type !== 'done') {
      if (data.type === 'rows') {
        received += 1;
        noticeWhenIdle(created);
      }
      for (const listener of listeners) listener(data);
      return;
    }
    const request = requests.get(data.request);
    requests.delete(data.request);
    if (data.error) request?.reject(new Error(data.error));
    else request?.resolve({ count: data.count, watermark: data.watermark });
  };
  created.onerror = (event) => failAll(new Error(event.message || 'locations worker failed'));
  return created;
}

registerWriter(() => {
  stopLocationsWorker();
  worker = undefined;
  failAll(new Error('signed out'));
});

function send(message: LocationsRequest, transfer: Transferable[] = []): boolean {
  const running = start();
  running?.postMessage(message, transfer);
  return running !== undefined;
}

export const locationsWorker = {
  /** Starts the worker ahead of need (while the page is still rendering), if signed in. */
  warm(): void {
    start();
  },
  /** Hears every change and stream event the worker reports; returns the way to stop. */
  listen(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Shows `scope`: the worker answers with its rows from the mirror, then its changes. */
  open(scope: string): void {
    send({ type: 'open', scope });
  },
  /**
   * Hands over a full read's raw answer; resolves once it is merged and shown (its write to
   * the mirror follows when the page is idle), with its count and newest event id.
   */
  full(scope: string, body: ArrayBuffer): Promise<FullRead> {
    return new Promise((resolve, reject) => {
      const request = nextRequest++;
      requests.set(request, { resolve, reject });
      if (!send({ type: 'full', scope, body, request }, [body])) {
        requests.delete(request);
        resolve({ count: 0, watermark: undefined });
      }
    });
  },
  streamStart(scope: string): void {
    send({ type: 'stream-start', scope });
  },
  /** Bytes of the live stream; moved to the worker, not copied (the page needs them no more). */
  stream(scope: string, bytes: Uint8Array): void {
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const chunk = owned && bytes.buffer instanceof ArrayBuffer ? bytes : bytes.slice();
    send({ type: 'stream', scope, bytes: chunk }, [chunk.buffer]);
  },
  streamEnd(scope: string): void {
    send({ type: 'stream-end', scope });
  },
};
