/**
 * Getting a journey to where it starts: signed in (through the sign-in screen, as a person
 * does), the service worker in control, a session about to expire; and the data it brings of
 * its own: a fresh CNPJ and the administrator on the API for records made without the screens.
 */
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { sign } from 'hono/jwt';
import { E2E_SECRET, E2E_URL } from '../env';
import { ADMIN } from './demo';
import { LoginPage } from './login';
import { Shell } from './shell';

/**
 * Signs in as one of the demo users (all share the demo password), through the sign-in screen.
 * With `at` (a page's address), the person opens that page first, as from a bookmark or a link
 * someone sent: the app asks them to sign in and takes them back there. A journey that starts
 * on a page of its own starts that way: signing in at /login lands on the fleet map, which then
 * draws itself only to be left by a second load of the app (about 0.7 s of the renderer's CPU
 * per sign-in, measured over three sign-ins each way).
 */
export async function signInAs(page: Page, email: string, name: string, at?: string) {
  const login = new LoginPage(page);
  if (at === undefined) await login.open();
  else {
    await page.goto(at);
    await expect(page).toHaveURL(/\/login$/);
  }
  await login.signIn(email, ADMIN.password);
  await new Shell(page).expectSignedIn(name);
  if (at !== undefined) await expect(page).toHaveURL(new URL(at, page.url()).href);
}

/** Signs in as the demo's administrator; `at` as for `signInAs`. */
export async function signInAsAdmin(page: Page, at?: string) {
  await signInAs(page, ADMIN.email, ADMIN.name, at);
}

/**
 * Waits until the service worker controls the page (the shell is precached then). Journeys run
 * with the worker blocked unless their file or describe says `serviceWorkers: 'allow'`; blocked,
 * the worker's `ready` never comes, so that mistake fails here at once instead of at the
 * journey's time limit. Playwright blocks the worker by replacing `register` with its own
 * function, which is then no longer the browser's native one.
 */
export async function waitForServiceWorker(page: Page) {
  const blocked = await page.evaluate(
    () => !String(ServiceWorkerContainer.prototype.register).includes('[native code]'),
  );
  if (blocked) {
    throw new Error(
      "O service worker está bloqueado nesta jornada: declare test.use({ serviceWorkers: 'allow' }) no arquivo ou no describe.",
    );
  }
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), {
          once: true,
        }),
      );
    }
  });
}

/**
 * Replaces the stored access token by an expired one (signed with the e2e secret); with
 * `refreshToken`, that refresh token too, in the same step: a background call (the alerts
 * badge) that met the expired token between two steps would renew the session first.
 */
export async function expireAccessToken(page: Page, refreshToken?: string): Promise<string> {
  const user = await page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('authState') ?? '{}').user as {
        id: string;
        clientId: string;
        role: string;
      },
  );
  const past = Math.floor(Date.now() / 1000) - 120;
  const expired = await sign(
    {
      sub: user.id,
      cid: user.clientId,
      role: user.role,
      typ: 'access',
      iat: past - 900,
      exp: past,
    },
    E2E_SECRET,
    'HS256',
  );
  await page.evaluate(
    ([token, refresh]) => {
      localStorage.setItem('accessToken', token);
      if (refresh !== undefined) localStorage.setItem('refreshToken', refresh);
    },
    [expired, refreshToken] as const,
  );
  return expired;
}

/** A valid numeric CNPJ that no other run used. */
export function freshCnpj(): string {
  const base = `${String(Date.now()).slice(-8)}0001`;
  const digit = (b: string) => {
    let sum = 0;
    let weight = 2;
    for (let i = b.length - 1; i >= 0; i--) {
      sum += Number(b[i]) * weight;
      weight = weight === 9 ? 2 : weight + 1;
    }
    return sum % 11 < 2 ? 0 : 11 - (sum % 11);
  };
  const first = digit(base);
  return `${base}${first}${digit(base + first)}`;
}

/** The administrator signed in on the API, for a journey's own records: the header, the company. */
export async function adminApi(request: APIRequestContext) {
  const login = await request.post(`${E2E_URL}/registros/auth/login`, {
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  expect(login.status()).toBe(200);
  const { accessToken, user } = (await login.json()) as {
    accessToken: string;
    user: { clientId: string };
  };
  return { headers: { authorization: `Bearer ${accessToken}` }, clientId: user.clientId };
}
