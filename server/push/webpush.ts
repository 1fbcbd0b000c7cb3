/**
 * Standard Web Push (RFC 8030/8291/8292) with the `web-push` package: the payload encrypted
 * for each subscription (aes128gcm) and signed with the server's VAPID keys, generated once
 * and kept in the settings table like the JWT secret. Subscriptions answering 404 or 410 are
 * gone (the user revoked permission or the browser dropped them): reported for removal.
 * Sent in batches of at most 500 in flight, like FCM.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import * as v from 'valibot';
import webpush from 'web-push';
import { type PushAlert, WebPushSubscriptionSchema } from '../../src/contract';
import type { Db } from '../platform/db/client';
import { getOrCreateSetting } from '../platform/db/settings';
import { type EndpointPolicy, endpointProblem, publicOnlyLookup } from './endpoint';
import { FCM_BATCH, type SendResult, startEach } from './fcm';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export async function vapidKeys(db: Db): Promise<VapidKeys> {
  const raw = await getOrCreateSetting(db, 'vapid_keys', () =>
    JSON.stringify(webpush.generateVAPIDKeys()),
  );
  return JSON.parse(raw) as VapidKeys;
}

/** A token of kind 'webpush', checked: the subscription, or undefined when it is not one. */
export function parseSubscription(token: string) {
  try {
    const parsed = v.safeParse(WebPushSubscriptionSchema, JSON.parse(token));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends one request and answers its status. Outside tests the connection goes only to
 * addresses `publicOnlyLookup` approved; the tests' stand-ins are local http servers.
 */
function post(
  endpoint: string,
  init: { method: string; headers: Record<string, string>; body: Buffer },
  timeoutMs: number,
  policy: EndpointPolicy,
): Promise<number> {
  const url = new URL(endpoint);
  const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: init.method,
        headers: init.headers,
        signal: AbortSignal.timeout(timeoutMs),
        ...(policy.insecure ? {} : { lookup: publicOnlyLookup }),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

export function createWebPushSender(
  keys: VapidKeys,
  subject: string,
  timeoutMs: number,
  policy: EndpointPolicy,
) {
  const vapidDetails = { subject, publicKey: keys.publicKey, privateKey: keys.privateKey };

  async function sendOne(token: string, payload: string) {
    const subscription = parseSubscription(token);
    // Stored before the endpoint rules (or under other ones): never sent to, and removed.
    if (!subscription || endpointProblem(subscription.endpoint, policy)) return 'gone';
    try {
      // web-push encrypts and signs; the request goes out through `post`.
      const request = webpush.generateRequestDetails(subscription, payload, {
        vapidDetails,
        TTL: 24 * 3600,
        urgency: 'high',
      });
      const status = await post(
        request.endpoint,
        {
          method: request.method,
          headers: request.headers as Record<string, string>,
          body: request.body,
        },
        timeoutMs,
        policy,
      );
      if (status >= 200 && status < 300) return 'sent';
      return status === 404 || status === 410 ? 'gone' : 'failed';
    } catch {
      return 'failed';
    }
  }

  return {
    async send(tokens: string[], alert: PushAlert): Promise<SendResult> {
      const result: SendResult = { sent: 0, gone: [], failed: 0 };
      const payload = JSON.stringify(alert);
      for (let at = 0; at < tokens.length; at += FCM_BATCH) {
        const batch = tokens.slice(at, at + FCM_BATCH);
        // Encrypting is synchronous work: a few at a time between turns of the event loop.
        const outcomes = await Promise.all(
          await startEach(batch, 10, (token) => sendOne(token, payload)),
        );
        outcomes.forEach((outcome, i) => {
          if (outcome === 'sent') result.sent++;
          else if (outcome === 'gone') result.gone.push(batch[i] ?? '');
          else result.failed++;
        });
      }
      return result;
    },
  };
}
