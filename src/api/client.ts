/**
 * The one HTTP client of the PWA. Every call carries the bearer access token. When a call
 * answers 401 because the access token expired, one refresh runs (parallel 401s wait for
 * the same one), the new tokens are stored and the failed calls are sent again, so the page
 * keeps its state. If the refresh fails, the user is told and signed out.
 */
import ky, { type KyInstance, type KyResponse } from 'ky';
import * as v from 'valibot';
import { AuthResponseSchema } from '../contract';
import { t } from '../i18n/pt-BR';
import { toast } from '../ui/feedback/toasts';
import { forgetUser, isTokenExpired, STORAGE_KEYS, session } from './session';

export { HTTPError, TimeoutError } from 'ky';

const NO_REFRESH =
  /\/registros\/auth\/(login|refresh|logout|activeEmail|confirmEmail|forgetPassword|2fa\/verify)$/;

let apiBase = typeof location === 'undefined' ? 'http://localhost:3000' : location.origin;
let refreshing: Promise<string> | null = null;
let signingOut = false;

/** Tests and embedders point the client at another server. */
export function setApiBase(url: string) {
  apiBase = url;
  api = createClient();
}

function bare() {
  return ky.create({ prefixUrl: apiBase, retry: 0, timeout: 30_000 });
}

/** Runs the refresh once for everyone waiting on it; resolves with the new access token. */
function refreshSession(): Promise<string> {
  refreshing ??= (async () => {
    toast.blank(t.session.tokenExpired);
    const refreshToken = session.refreshToken();
    if (!refreshToken) throw new Error('no refresh token');
    const body = await bare().post('registros/auth/refresh', { json: { refreshToken } }).json();
    const auth = v.parse(AuthResponseSchema, body);
    session.set(auth);
    toast.success(t.session.renewed);
    return auth.accessToken;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function reasonOf(response: KyResponse): Promise<string | undefined> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return typeof body === 'object' && body !== null && 'reason' in body
    ? String(body.reason)
    : undefined;
}

function withToken(request: Request, token: string): Request {
  const headers = new Headers(request.headers);
  headers.set('Authorization', `Bearer ${token}`);
  return new Request(request, { headers });
}

async function handleUnauthorized(request: Request, response: KyResponse, retryCount: number) {
  if (signingOut || retryCount > 0 || NO_REFRESH.test(new URL(request.url).pathname)) return;
  const sent = request.headers.get('Authorization')?.replace(/^Bearer\s+/i, '') ?? null;
  const current = session.accessToken();
  // Another call already refreshed while this one was in flight: just send it again.
  if (sent && current && sent !== current && !isTokenExpired(current)) {
    return ky.retry({ request: withToken(request, current), delay: 0 });
  }
  const expired = (await reasonOf(response)) === 'TOKEN_EXPIRED' || isTokenExpired(sent);
  if (!expired || !session.refreshToken()) {
    failSession();
    return;
  }
  try {
    const token = await refreshSession();
    return ky.retry({ request: withToken(request, token), delay: 0 });
  } catch {
    failSession();
    return;
  }
}

function failSession() {
  if (signingOut) return;
  toast.error(t.session.authFailed);
  void signOut();
}

function createClient(): KyInstance {
  return ky.create({
    prefixUrl: apiBase,
    timeout: 30_000,
    retry: { limit: 2, methods: ['get'], statusCodes: [408, 502, 503, 504] },
    hooks: {
      beforeRequest: [
        (request) => {
          const token = session.accessToken();
          if (token && !request.headers.has('Authorization')) {
            request.headers.set('Authorization', `Bearer ${token}`);
          }
        },
      ],
      afterResponse: [
        (request, _options, response, state) =>
          response.status === 401
            ? handleUnauthorized(request, response, state.retryCount)
            : undefined,
      ],
    },
  });
}

export let api: KyInstance = createClient();

/**
 * SPEC §4: clears the three session keys, unregisters this browser's push token and reloads
 * after 500 ms. Push errors are only logged. Before that, the server ends the session (its
 * refresh-token family: a copied token is worthless afterwards), and everything kept of the
 * user on this device — the IndexedDB mirror, the chosen customer, cached API data — is
 * forgotten (the cleaners registered with `onSignOut`).
 */
export async function signOut(options: { reload?: boolean } = {}) {
  if (signingOut) return;
  signingOut = true;
  const pushToken =
    typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEYS.fcmToken);
  let accessToken = session.accessToken();
  let renewed = false;
  // An expired access token would leave the push token registered (pushes reaching a device
  // nobody is signed in on): renewed first, just for that.
  if (pushToken && isTokenExpired(accessToken) && session.refreshToken()) {
    accessToken = await bare()
      .post('registros/auth/refresh', {
        json: { refreshToken: session.refreshToken() },
        timeout: 3000,
      })
      .json()
      .then((body) => {
        const auth = v.parse(AuthResponseSchema, body);
        session.set(auth);
        renewed = true;
        return auth.accessToken;
      })
      .catch(() => null);
  }
  if (pushToken && accessToken && (renewed || !isTokenExpired(accessToken))) {
    await bare()
      .put('registros/push/unsubscribe-token', {
        json: { token: pushToken },
        headers: { Authorization: `Bearer ${accessToken}` },
        timeout: 3000,
      })
      .catch((error: unknown) => console.warn('push: unsubscribe failed', error));
  }
  if (pushToken) localStorage.removeItem(STORAGE_KEYS.fcmToken);
  // After the push token: ending the session ends its access token too.
  const refreshToken = session.refreshToken();
  if (refreshToken) {
    await bare()
      .post('registros/auth/logout', { json: { refreshToken }, timeout: 3000 })
      .catch((error: unknown) => console.warn('logout: the server was not told', error));
  }
  session.clear();
  await forgetUser();
  if (options.reload !== false && typeof location !== 'undefined') {
    setTimeout(() => location.reload(), 500);
  }
  signingOut = false;
}
