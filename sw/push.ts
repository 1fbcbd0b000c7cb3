/**
 * The worker's push duties. Firebase messaging starts at the worker's top level
 * when the server has a Firebase project (its web config comes from /push-config.js, imported
 * before this runs); otherwise standard Web Push arrives alone. Either way every push reaches
 * our own `push` handler first, and it alone shows notifications:
 *
 * - one notification per alert, with title, body, icon, badge and a tag per vehicle and type,
 *   so that a burst replaces instead of stacking;
 * - an FCM notification message (a notice sent from the Firebase console, say) is shown once,
 *   by us, with our icon: Firebase's own push listener never sees the message, so it cannot
 *   show it a second time, and the display does not depend on its internals (a notice that
 *   woke a stopped worker was not always shown by it: see the push journey);
 * - with a visible window, no system notification for an alert: it goes to the page, which
 *   shows the alert toast (SPEC §2). A notice has no toast, so it is shown anyway;
 * - a tap focuses an open window (and takes it to the alert history) or opens one there.
 *
 * What Firebase still does here is its own: keeping the device's token when the browser
 * renews the push subscription (`pushsubscriptionchange`).
 */
import { initializeApp } from 'firebase/app';
import { getMessaging } from 'firebase/messaging/sw';
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

/** An FCM notification message that carries no alert of ours: a notice, shown as sent. */
interface Notice {
  title: string;
  body?: string;
  icon?: string;
  image?: string;
  tag?: string;
  url: string;
}

/** The notice in an FCM-shaped payload (`notification`, and where a tap goes), if any. */
function noticeOf(payload: unknown): Notice | undefined {
  if (typeof payload !== 'object' || payload === null || !('notification' in payload)) return;
  const { notification } = payload as { notification: unknown };
  if (typeof notification !== 'object' || notification === null) return;
  const field = (object: object, key: string) => {
    const value = (object as Record<string, unknown>)[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const body = field(notification, 'body');
  // The console lets a notice go without a title: ours then, never a notice dropped.
  const title = field(notification, 'title') ?? (body ? 'Rastro' : undefined);
  if (!title) return;
  const options = (payload as { fcmOptions?: unknown }).fcmOptions;
  const link =
    (typeof options === 'object' && options !== null ? field(options, 'link') : undefined) ??
    field(notification, 'click_action');
  return {
    title,
    body,
    icon: field(notification, 'icon'),
    image: field(notification, 'image'),
    tag: field(notification, 'tag'),
    url: sameOriginPath(link) ?? '/',
  };
}

/** A link as a URL of Rastro, or nothing when it leaves for another site (or is no URL). */
function ownUrl(link: unknown): URL | undefined {
  if (typeof link !== 'string' || !link) return;
  try {
    const url = new URL(link, self.location.origin);
    return url.origin === self.location.origin ? url : undefined;
  } catch {
    return;
  }
}

/** A link's path when it stays in Rastro ('//other.site/' is another site, not a path). */
function sameOriginPath(link: string | undefined): string | undefined {
  const url = ownUrl(link);
  const path = url && url.pathname + url.search + url.hash;
  // Read again as the tap will read it: '//other.site/' must stay ours as a path too.
  return path && ownUrl(path) ? path : undefined;
}

async function showNotice(notice: Notice) {
  await self.registration.showNotification(notice.title, {
    body: notice.body,
    icon: notice.icon ?? '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    ...(notice.tag ? { tag: notice.tag } : {}),
    // The notice's picture (Chromium shows it; not in TypeScript's NotificationOptions yet).
    ...(notice.image ? { image: notice.image } : {}),
    data: { url: notice.url },
    lang: 'pt-BR',
  });
}

// Registered before Firebase starts, so that it runs first and can keep Firebase's listener
// from a message as well: we show every push ourselves, and each once.
self.addEventListener('push', (event) => {
  let payload: unknown;
  try {
    payload = event.data?.json();
  } catch {
    return;
  }
  if (isFcmShaped(payload)) event.stopImmediatePropagation();
  const alert = alertOf(payload);
  if (alert) {
    event.waitUntil(deliver(alert));
    return;
  }
  const notice = noticeOf(payload);
  if (notice) event.waitUntil(showNotice(notice));
});

const firebase = self.RASTRO_PUSH?.firebase;
// At the top level, as Firebase asks: it keeps the device's token when the subscription is
// renewed. Its push listener comes after ours and hears no message.
if (firebase) getMessaging(initializeApp(firebase));

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data as { url?: unknown } | null;
  // A tap never leaves Rastro, whatever the payload said.
  const target = (ownUrl(data?.url) ?? new URL(HISTORY_URL, self.location.origin)).href;
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
