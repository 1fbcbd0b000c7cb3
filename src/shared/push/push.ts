/**
 * This browser's push token (SPEC §4): asked for only after the user grants permission from
 * a visible control ('Ativar notificações'); then, while signed in, when no `fcmToken` is
 * stored, a token is obtained, registered with `PUT registros/push/subscribe-token` and stored
 * under `fcmToken`, and it is renewed after 7 days (the old one unregistered). Sign-out
 * unregisters and removes it (src/api/client.ts), and here drops the browser's subscription
 * and the worker's lookups of the user.
 *
 * One route, two ways to a token: with a Firebase project, Firebase's `getToken` with the
 * worker's registration and the project's VAPID key (Firebase loads only then, never with the
 * first page); without one, a standard Web Push subscription to the server's VAPID key, its
 * JSON sent as the token. Push errors are only logged (SPEC §8).
 */
import { subscribePushToken } from '../../api/auth';
import { getPushConfig, unsubscribeToken } from '../../api/push';
import { onSignOut, STORAGE_KEYS } from '../../api/session';
import type { PushConfig } from '../../contract';

/** When the stored token was obtained (ms since the epoch). */
export const TOKEN_AT_KEY = 'fcmTokenAt';
export const REFRESH_AFTER_MS = 7 * 24 * 3600_000;
const LOOKUP_CACHE_PREFIX = 'rastro-lookups:';

export type PushState = 'unsupported' | 'denied' | 'default' | 'granted';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'Notification' in window &&
    'serviceWorker' in navigator &&
    'PushManager' in window
  );
}

export function pushState(): PushState {
  if (!pushSupported()) return 'unsupported';
  return Notification.permission;
}

export const storedToken = () => localStorage.getItem(STORAGE_KEYS.fcmToken);

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  return (await navigator.serviceWorker.getRegistration('/')) ?? navigator.serviceWorker.ready;
}

async function obtainToken(config: PushConfig): Promise<string> {
  const worker = await registration();
  if (config.provider === 'fcm' && config.firebase) {
    const [{ getApps, initializeApp }, { getMessaging, getToken }] = await Promise.all([
      import('firebase/app'),
      import('firebase/messaging'),
    ]);
    const app = getApps()[0] ?? initializeApp(config.firebase);
    return getToken(getMessaging(app), {
      vapidKey: config.vapidKey,
      serviceWorkerRegistration: worker,
    });
  }
  const subscription =
    (await worker.pushManager.getSubscription()) ??
    (await worker.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(config.vapidKey),
    }));
  return JSON.stringify(subscription.toJSON());
}

/** Drops this browser's subscription (a new token next time). */
async function dropBrowserToken(): Promise<void> {
  const worker = await navigator.serviceWorker.getRegistration('/');
  const subscription = await worker?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}

let running: Promise<string | null> | null = null;

/**
 * With permission granted: obtains, registers and stores a token when none is stored, or
 * renews one older than 7 days. Resolves with the token (null without permission).
 */
export function ensurePushToken(now = Date.now()): Promise<string | null> {
  running ??= (async () => {
    if (pushState() !== 'granted') return null;
    const stored = storedToken();
    const at = Number(localStorage.getItem(TOKEN_AT_KEY) ?? 0);
    if (stored && now - at < REFRESH_AFTER_MS) return stored;
    const config = await getPushConfig();
    if (stored) {
      await unsubscribeToken(stored).catch((err: unknown) =>
        console.warn('push: old token not unregistered', err),
      );
      await dropBrowserToken();
    }
    const token = await obtainToken(config);
    await subscribePushToken(token);
    localStorage.setItem(STORAGE_KEYS.fcmToken, token);
    localStorage.setItem(TOKEN_AT_KEY, String(now));
    return token;
  })().finally(() => {
    running = null;
  });
  return running;
}

/** The visible control: asks the browser, then registers. Resolves with the new state. */
export async function enablePush(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const answer = await Notification.requestPermission();
  if (answer === 'granted') await ensurePushToken();
  return answer;
}

// Sign-out (after the token was unregistered): the subscription and the worker's lookups.
onSignOut(async () => {
  localStorage.removeItem(TOKEN_AT_KEY);
  if (typeof caches !== 'undefined')
    for (const name of await caches.keys())
      if (name.startsWith(LOOKUP_CACHE_PREFIX)) await caches.delete(name);
  if (pushSupported()) await dropBrowserToken();
});
