/**
 * Firebase Cloud Messaging, HTTP v1 API, without the Admin SDK: an OAuth access token from a
 * service-account JWT (RS256, signed with node:crypto), kept until a minute before it expires,
 * then one `messages:send` per token. HTTP v1 has no multicast: like the Admin SDK's
 * sendEachForMulticast, tokens go out in batches of at most 500 requests in flight, the next
 * batch after the previous one answered. Tokens FCM no longer knows (UNREGISTERED, 404) are
 * reported back so that the caller removes them.
 *
 * Messages are data-only: the worker shows them itself (one notification per alert, tagged by
 * vehicle and type), and a visible page gets them as a toast instead of a system notification.
 */
import { createSign } from 'node:crypto';
import type { PushAlert } from '../../src/contract';
import type { PushConfig } from './config';

export const FCM_BATCH = 500;

export interface SendResult {
  sent: number;
  /** Tokens to forget: the push service says they are gone. */
  gone: string[];
  failed: number;
}

type Firebase = NonNullable<PushConfig['firebase']>;

/**
 * Starts `send` for every item (all of them in flight together), yielding to the event loop
 * every `every` items so that a batch of 500 never stops ingest and the API for long.
 */
export async function startEach<T, R>(
  items: T[],
  every: number,
  send: (item: T) => Promise<R>,
): Promise<Promise<R>[]> {
  const started: Promise<R>[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % every === 0) await new Promise((resolve) => setImmediate(resolve));
    started.push(send(items[i] as T));
  }
  return started;
}

const b64url = (input: string | Buffer) => Buffer.from(input).toString('base64url');

function assertion(firebase: Firebase, now: number): string {
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const iat = Math.floor(now / 1000);
  const claims = b64url(
    JSON.stringify({
      iss: firebase.serviceAccount.clientEmail,
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
      aud: firebase.tokenUrl,
      iat,
      exp: iat + 3600,
    }),
  );
  const signer = createSign('RSA-SHA256');
  signer.update(`${header}.${claims}`);
  return `${header}.${claims}.${signer.sign(firebase.serviceAccount.privateKey).toString('base64url')}`;
}

export function createFcmSender(firebase: Firebase, timeoutMs: number) {
  let cached: { token: string; until: number } | undefined;
  let pending: Promise<string> | undefined;

  async function accessToken(): Promise<string> {
    if (cached && cached.until > Date.now()) return cached.token;
    pending ??= (async () => {
      const answer = await fetch(firebase.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion: assertion(firebase, Date.now()),
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!answer.ok) throw new Error(`FCM: token answered ${answer.status}`);
      const body = (await answer.json()) as { access_token?: string; expires_in?: number };
      if (!body.access_token) throw new Error('FCM: token answer without access_token');
      cached = {
        token: body.access_token,
        until: Date.now() + Math.max(0, (body.expires_in ?? 3600) - 60) * 1000,
      };
      return body.access_token;
    })().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  const url = `${firebase.fcmUrl}/v1/projects/${encodeURIComponent(firebase.serviceAccount.projectId)}/messages:send`;

  /** 'sent', 'gone' (forget the token) or 'failed' (try again some other time). */
  async function sendOne(bearer: string, token: string, alert: PushAlert) {
    try {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          message: {
            token,
            data: alert,
            // No fcm_options.link: it must be an absolute https URL, and the worker opens the
            // alert itself (a data-only message).
            webpush: { headers: { Urgency: 'high', TTL: '86400' } },
          },
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (answer.ok) return 'sent';
      const body = (await answer.json().catch(() => ({}))) as {
        error?: { status?: string; details?: { errorCode?: string }[] };
      };
      const codes = [body.error?.status, ...(body.error?.details ?? []).map((d) => d.errorCode)];
      if (answer.status === 404 || codes.includes('UNREGISTERED')) return 'gone';
      if (answer.status === 401) cached = undefined;
      return 'failed';
    } catch {
      return 'failed';
    }
  }

  return {
    async send(tokens: string[], alert: PushAlert): Promise<SendResult> {
      const result: SendResult = { sent: 0, gone: [], failed: 0 };
      if (tokens.length === 0) return result;
      const bearer = await accessToken();
      for (let at = 0; at < tokens.length; at += FCM_BATCH) {
        const batch = tokens.slice(at, at + FCM_BATCH);
        const outcomes = await Promise.all(
          await startEach(batch, 25, (token) => sendOne(bearer, token, alert)),
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
