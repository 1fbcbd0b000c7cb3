/**
 * What the driver made on this device and the server has not stored yet (marks, problems),
 * kept in localStorage so that it survives a closed page or a dead battery. Each item carries
 * the id and time it was made with: sent twice, the server stores it once, at that time.
 * The service worker also queues what it could not send (background sync) and sends it when
 * the connection returns even with the page closed; the page empties this list as soon as the
 * server answers that an item is stored.
 */
import { DriverCallError, sendDriverItem } from '../../api/driver-page';

export interface OutboxItem {
  id: string;
  kind: 'marks' | 'problems';
  body: { id: string; at: string } & Record<string, unknown>;
}

const KEY = 'rastro-driver-outbox';
/** A photo makes a problem big; past this many items the oldest problems' photos are dropped. */
const MAX_ITEMS = 200;

export function outboxItems(): OutboxItem[] {
  try {
    const items = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(items) ? (items as OutboxItem[]) : [];
  } catch {
    return [];
  }
}

function save(items: OutboxItem[]) {
  localStorage.setItem(KEY, JSON.stringify(items.slice(-MAX_ITEMS)));
}

export function addToOutbox(item: OutboxItem) {
  save([...outboxItems().filter((i) => i.id !== item.id), item]);
}

function remove(id: string) {
  save(outboxItems().filter((i) => i.id !== id));
}

export function clearOutbox() {
  localStorage.removeItem(KEY);
}

export interface FlushResult {
  stored: OutboxItem[];
  /** Items the server refused for good (too old, invalid): dropped, with its message. */
  refused: { item: OutboxItem; message: string }[];
  /** The session ended: nothing more can be sent with it. */
  sessionEnded: boolean;
}

/** Sends what is waiting, oldest first; stops at the first that cannot go yet. */
export async function flushOutbox(token: string): Promise<FlushResult> {
  const result: FlushResult = { stored: [], refused: [], sessionEnded: false };
  for (const item of outboxItems()) {
    try {
      const answer = await sendDriverItem(token, item.kind, item.body);
      // Queued by the worker: it goes with the connection; the page tries again too.
      if (answer === 'queued') break;
      remove(item.id);
      result.stored.push(item);
    } catch (err) {
      if (!(err instanceof DriverCallError) || err.offline || err.status >= 500) break;
      if (err.status === 401) {
        result.sessionEnded = true;
        break;
      }
      remove(item.id);
      result.refused.push({ item, message: err.message });
    }
  }
  return result;
}
