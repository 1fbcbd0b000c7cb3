/**
 * Push notifications: the public push configuration the page and the worker read,
 * this user's devices and the alert types each receives, and the payload that travels to the
 * worker (FCM `data` or a Web Push message body alike).
 */
import * as v from 'valibot';
import { ALERT_TYPES, AlertTypeSchema } from './alerts';
import * as o from './objects';

/** `GET registros/push/config` (public): how this server sends push. */
export const PushConfigSchema = o.object({
  /** 'fcm': Firebase Cloud Messaging; 'webpush': standard Web Push with the server's keys. */
  provider: v.picklist(['fcm', 'webpush']),
  /** The applicationServerKey (base64url): the Firebase project's, or the server's own. */
  vapidKey: v.string(),
  firebase: v.nullable(
    o.object({
      apiKey: v.string(),
      projectId: v.string(),
      messagingSenderId: v.string(),
      appId: v.string(),
      authDomain: v.optional(v.string()),
      storageBucket: v.optional(v.string()),
    }),
  ),
});
export type PushConfig = v.InferOutput<typeof PushConfigSchema>;

/** A Web Push subscription as `PushSubscription.toJSON()` gives it: the token of 'webpush'. */
export const WebPushSubscriptionSchema = o.object({
  endpoint: v.pipe(v.string(), v.url('Endereço de inscrição inválido')),
  expirationTime: v.optional(v.nullable(v.number())),
  keys: o.object({
    p256dh: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{80,100}$/, 'Chave p256dh inválida')),
    auth: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,32}$/, 'Chave auth inválida')),
  }),
});
export type WebPushSubscription = v.InferOutput<typeof WebPushSubscriptionSchema>;

/** One of the caller's devices: `id` is the SHA-256 of its token, base64url (pushDeviceId). */
export const PushDeviceSchema = o.object({
  id: v.string(),
  kind: v.picklist(['fcm', 'webpush']),
  /** null: every alert type. */
  alertTypes: v.nullable(v.array(AlertTypeSchema)),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type PushDevice = v.InferOutput<typeof PushDeviceSchema>;

export const PushDeviceUpdateSchema = o.strictObject({
  alertTypes: v.nullable(v.pipe(v.array(AlertTypeSchema), v.maxLength(ALERT_TYPES.length))),
});

/** What one push carries: one alert, shown by the worker (or as a toast by a visible page). */
export const PushAlertSchema = o.object({
  rastro: v.literal('alert'),
  alertId: v.string(),
  type: AlertTypeSchema,
  /**
   * '' for an alert about a driver (a driver's document expiring), then in `driverId`: an FCM
   * message's data carries only strings, and a worker of an earlier version, still running
   * until the update prompt replaces it, expects this field as a string.
   */
  vehicleId: v.string(),
  driverId: v.optional(v.string()),
  title: v.string(),
  body: v.string(),
  /** Notifications of one vehicle (or driver) and type replace each other instead of stacking. */
  tag: v.string(),
  /** Where a tap goes: the alert history, with the alert. */
  url: v.string(),
});
export type PushAlert = v.InferOutput<typeof PushAlertSchema>;

/** The device id of a token: SHA-256, base64url without padding (server and page alike). */
export function deviceIdFromDigest(digest: ArrayBuffer | Uint8Array): string {
  const bytes = digest instanceof Uint8Array ? digest : new Uint8Array(digest);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
