/**
 * The worker's push duties (issue 12). Firebase messaging starts at the worker's top level
 * when the server has a Firebase project (its web config comes from /push-config.js, imported
 * before this runs); otherwise standard Web Push arrives at our own `push` handler. Either way:
 *
 * - one notification per alert, with title, body, icon, badge and a tag per vehicle and type,
 *   so that a burst replaces instead of stacking; data-only messages are shown by us, FCM
 *   notification messages are shown by Firebase alone (never twice);
 * - with a visible window, no system notification: the message goes to the page, which shows
 *   the alert toast (SPEC §2);
 * - a tap focuses an open window (and takes it to the alert history) or opens one there.
 */
import { initializeApp } from 'firebase/app';
import { getMessaging, onBackgroundMessage } from 'firebase/messaging/sw';
import * as v from 'valibot';
import { type PushAlert, PushAlertSchema, type PushConfig } from '../src/contract/push';

declare const self: ServiceWorkerGlobalScope & { RASTRO_PUSH?: PushConfig };

export const HISTORY_URL = '/fleet-management/alerts/alerts-history';
/** What the page hears (src/app/PushListener.tsx): a push that arrived while it was visible. */
export const PAGE_MESSAGE = 'RASTRO_PUSH';

/** Our alert from a Web Push body, or from the `data` of an FCM-shaped message. */
function alertOf(payload: unknown): PushAlert | undefined {
  const candidates = [
    payload,
    typeof payload === 'object' && payload !== null && 'data' in payload
      ? (payload as { data: unknown }).data
      : undefined,
  ];
  for (const candidate of candidates) {
    const parsed = v.safeParse(PushAlertSchema, candidate);
    if (parsed.success) return parsed.output;
  }
  return undefined;
}

const isFcmShaped = (payload: unknown) =>
  typeof payload === 'object' &&
  payload !== null &&
  ('fcmMessageId' in payload || 'from' in payload || 'notification' in payload);

async function visibleWindows() {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.filter((w) => w.visibilityState === 'visible');
}

async function show(alert: PushAlert) {
  await self.registration.showNotification(alert.title, {
    body: alert.body,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    tag: alert.tag,
    data: { url: alert.url, alertId: alert.alertId },
    lang: 'pt-BR',
  });
}

/** A visible page shows the toast itself; otherwise one system notification. */
async function deliver(alert: PushAlert) {
  const visible = await visibleWindows();
  if (visible.length) {
    for (const window of visible) window.postMessage({ type: PAGE_MESSAGE, alert });
    return;
  }
  await show(alert);
}

const firebase = self.RASTRO_PUSH?.firebase;
if (firebase) {
  // At the top level, so that Firebase's push listener exists from the worker's first run.
  // It forwards pushes to a visible page itself, and shows notification messages itself.
  const messaging = getMessaging(initializeApp(firebase));
  onBackgroundMessage(messaging, (payload) => {
    if (payload.notification) return;
    const alert = alertOf(payload);
    if (alert) return show(alert);
  });
}

self.addEventListener('push', (event) => {
  let payload: unknown;
  try {
    payload = event.data?.json();
  } catch {
    return;
  }
  // Firebase's own listener handles its messages.
  if (firebase && isFcmShaped(payload)) return;
  const alert = alertOf(payload);
  if (alert) event.waitUntil(deliver(alert));
});

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data as { url?: unknown } | null;
  const target = new URL(
    typeof data?.url === 'string' && data.url.startsWith('/') ? data.url : HISTORY_URL,
    self.location.origin,
  ).href;
  event.notification.close();
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        // To the alert history in the open window (it is ours: the worker controls it), then
        // to the front.
        const moved = await open.navigate(target).catch(() => null);
        await (moved ?? open).focus().catch(() => undefined);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
