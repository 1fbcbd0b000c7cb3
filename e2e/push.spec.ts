/**
 * Push and the worker's data duties in Chromium. Headless Chromium has no push
 * service: pushes reach the worker through the DevTools protocol
 * (`ServiceWorker.deliverPushMessage`), and the page's PushManager is replaced by a stand-in
 * that makes real P-256 subscriptions to a local endpoint (the browser's push service is the
 * outside part; our code runs as it is).
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { type BrowserContext, expect, test } from '@playwright/test';
import { E2E_DEVICE_PASSWORD, E2E_OSMAND_URL, E2E_PORT, E2E_URL } from './env';
import { startExtraServer } from './extra-server';
import {
  AccountPage,
  ADMIN,
  AlertHistoryPage,
  AlertRuleFormPage,
  DashboardPage,
  FleetMapPage,
  LoginPage,
  REGISTERS,
  ResourceFormPage,
  Shell,
  selectButton,
  signInAsAdmin,
  waitForServiceWorker,
} from './pages';
import { deliver, HISTORY, pushAlert, workerRegistration } from './push-delivery';

// Pushes reach the page through the service worker, which keeps the lookups for offline forms.
test.use({ serviceWorkers: 'allow' });

const deviceId = (token: string) => createHash('sha256').update(token).digest('base64url');

/** What these journeys use of the worker's global scope (evaluated inside the worker). */
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<unknown[]>;
  };
  dispatchEvent(event: Event): boolean;
}
declare const NotificationEvent: new (type: string, init: { notification: Notification }) => Event;

/** A subscription of our own: real P-256 keys, a local endpoint, renewed on unsubscribe. */
const PUSH_MANAGER_STAND_IN = () => {
  let current: PushSubscription | null = null;
  let made = 0;
  const b64 = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  PushManager.prototype.subscribe = async () => {
    made++;
    const keys = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
      'deriveBits',
    ]);
    const raw = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey));
    const json = {
      endpoint: `http://127.0.0.1:9/push/${Date.now()}-${made}`,
      expirationTime: null,
      keys: { p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16))) },
    };
    current = {
      endpoint: json.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: null },
      toJSON: () => json,
      getKey: () => null,
      unsubscribe: async () => {
        current = null;
        return true;
      },
    } as unknown as PushSubscription;
    return current;
  };
  PushManager.prototype.getSubscription = async () => current;
};

function worker(context: BrowserContext, origin = E2E_URL) {
  const [sw] = context.serviceWorkers().filter((w) => w.url().startsWith(origin));
  if (!sw) throw new Error('no service worker');
  return sw;
}

/**
 * Waits until the worker sees no window of ours: a page that navigated away is still listed
 * for a moment, and a push in that moment goes to it instead of a notification.
 */
async function noWindowOfOurs(context: BrowserContext, origin = E2E_URL) {
  await expect
    .poll(() =>
      worker(context, origin).evaluate(
        async () =>
          (
            await (self as unknown as WorkerScope).clients.matchAll({
              type: 'window',
              includeUncontrolled: true,
            })
          ).length,
      ),
    )
    .toBe(0);
}

const notifications = (context: BrowserContext, origin = E2E_URL) =>
  worker(context, origin).evaluate(async () =>
    (await (self as unknown as WorkerScope).registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
    })),
  );

test('a push reaches the worker as one notification per alert; a tap opens the alert history', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications'], { origin: E2E_URL });
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  const { cdp, id } = await workerRegistration(page);
  // No window of ours on screen: the worker shows system notifications.
  await page.goto('about:blank');
  await noWindowOfOurs(context);

  // Web Push: our payload as the body.
  const exit = pushAlert(1, 'GEOFENCE_EXIT', 'Saída de cerca — RST1D01');
  await deliver(cdp, id, exit);
  await expect
    .poll(() => notifications(context))
    .toEqual([{ title: exit.title, body: exit.body, tag: exit.tag }]);
  // FCM-shaped (data-only): shown by us, once; a burst of one vehicle and type replaces.
  const ignition = pushAlert(2, 'IGNITION_ON', 'Ignição ligada — RST1D01');
  const fcm = (alert: object, n: number) => ({
    data: alert,
    from: '1234567890',
    fcmMessageId: `fcm-${n}`,
    priority: 'high',
  });
  await deliver(cdp, id, fcm(ignition, 1));
  await deliver(cdp, id, fcm({ ...ignition, alertId: pushAlert(3, 'IGNITION_ON', '').alertId }, 2));
  await expect
    .poll(async () => (await notifications(context)).map((n) => n.title).sort())
    .toEqual([ignition.title, exit.title].sort());

  // A tap with a window open takes it to the alert history.
  await new FleetMapPage(page).open();
  await new Shell(page).expectSignedIn();
  await worker(context).evaluate(async (tag) => {
    const scope = self as unknown as WorkerScope;
    const [shown] = await scope.registration.getNotifications({ tag });
    if (!shown) throw new Error('no notification');
    scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: shown }));
  }, exit.tag);
  await expect(page).toHaveURL(new RegExp(`${HISTORY}\\?alert=${exit.alertId}$`));
  await expect(new Shell(page).heading('Histórico de alertas')).toBeVisible();
  await expect.poll(async () => (await notifications(context)).length).toBe(1);
});

// One journey for the pushes that arrive with the page in front (two journeys spent a sign-in
// and the worker's install twice, about 8 s).
test('a burst of alerts with the page in front shows the newest three, says how many wait, and keeps off the form buttons; one push shows a toast, not a notification', async ({
  page,
  context,
}) => {
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  const { cdp, id } = await workerRegistration(page);
  const shell = new Shell(page);
  await new AlertRuleFormPage(page).openNew();
  // The shell (and its push listener) is up once the form shows.
  await expect(shell.heading('Nova regra de alerta')).toBeVisible();
  await shell.dismissToasts();
  const alerts = [5, 6, 7, 8, 9].map((n) =>
    pushAlert(n, 'GEOFENCE_EXIT', `Saída de cerca — RST1D0${n}`),
  );
  for (const alert of alerts) {
    await deliver(cdp, id, alert);
    await expect(shell.alertToast(alert.title)).toHaveCount(1);
  }
  const region = shell.toasts();
  const [first, second] = alerts.map((alert) => shell.alertToast(alert.title));
  // The newest three show (an alert of the demo's simulator may be among them); the two
  // oldest pushed wait, counted on the topmost shown.
  await expect(region.locator('.toast:visible')).toHaveCount(3);
  await expect(first ?? region).toBeHidden();
  await expect(second ?? region).toBeHidden();
  // Of the two lines (a phone's on the second, a wider screen's on the third) one shows: the
  // wider screen's, on the topmost shown.
  const more = region.locator('.toast-more:visible');
  await expect(more).toHaveCount(1);
  await expect(more).toHaveText(/^Mais \d+ notificaçõesFechar todas$/);
  await expect(region.locator('.toast:visible').nth(2).locator('.toast-more:visible')).toHaveCount(
    1,
  );
  // Above the form's buttons, not over them.
  const save = await page.getByRole('button', { name: 'Salvar' }).boundingBox();
  const lowest = await region.locator('.toast:visible').first().boundingBox();
  if (!save || !lowest) throw new Error('not laid out');
  expect(lowest.y + lowest.height).toBeLessThanOrEqual(save.y);
  await more.getByRole('button', { name: 'Fechar todas' }).click();
  for (const alert of alerts) await expect(shell.toast(alert.title)).toHaveCount(0);

  // One push: its toast, with its text; the same alert again (the live stream, or a repeat):
  // still one toast, whose button opens the alert history.
  const alert = pushAlert(4, 'GEOFENCE_EXIT', 'Saída de cerca — RST1D04');
  await deliver(cdp, id, alert);
  await expect(shell.toast(alert.title)).toBeVisible();
  await expect(shell.toast(alert.body)).toBeVisible();
  expect((await notifications(context)).filter((n) => n.title === alert.title)).toEqual([]);
  await deliver(cdp, id, alert);
  await page.waitForTimeout(300);
  await expect(shell.toast(alert.title)).toHaveCount(1);
  await shell.toasts().getByRole('button', { name: 'Ver alertas' }).first().click();
  await expect(page).toHaveURL(new RegExp(`${HISTORY}\\?alert=`));
});

test('Ativar notificações stores fcmToken, renews it after 7 days, and sign-out removes it', async ({
  page,
  context,
}) => {
  const start = new Date('2026-11-20T12:00:00-03:00');
  await page.clock.install({ time: start });
  await context.grantPermissions(['notifications'], { origin: E2E_URL });
  await page.addInitScript(PUSH_MANAGER_STAND_IN);
  const devices = async () =>
    page.evaluate(async () => {
      const answer = await fetch('/registros/push/devices', {
        headers: { authorization: `Bearer ${localStorage.getItem('accessToken')}` },
      });
      return (await answer.json()) as { id: string; kind: string }[];
    });
  const stored = () => page.evaluate(() => localStorage.getItem('fcmToken'));

  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  // Permission was granted earlier: the listener registers this browser on its own.
  await expect.poll(stored).not.toBeNull();
  const first = (await stored()) ?? '';
  expect(JSON.parse(first).endpoint).toMatch(/^http:\/\/127\.0\.0\.1:9\/push\//);
  expect((await devices()).map((d) => d.id)).toContain(deviceId(first));

  // Minha conta: active, with the alert types of this device.
  const account = new AccountPage(page);
  await account.open();
  await expect(
    account.notifications().getByText('Notificações ativadas neste dispositivo.'),
  ).toBeVisible();
  const ignition = account.alertType('Ignição ligada');
  await expect(ignition).toBeChecked();
  await ignition.click({ force: true });
  await expect(new Shell(page).toast('Escolha de alertas salva.')).toBeVisible();
  await expect(ignition).not.toBeChecked();

  // Six days later nothing changes; eight days later the token is renewed.
  await page.clock.setSystemTime(new Date(start.getTime() + 6 * 24 * 3600_000));
  await page.reload();
  await new Shell(page).expectSignedIn();
  await page.waitForTimeout(500);
  expect(await stored()).toBe(first);
  await page.clock.setSystemTime(new Date(start.getTime() + 8 * 24 * 3600_000));
  await page.reload();
  await expect.poll(stored).not.toBe(first);
  const last = (await stored()) ?? '';
  await expect.poll(async () => (await devices()).map((d) => d.id)).toContain(deviceId(last));
  expect((await devices()).map((d) => d.id)).not.toContain(deviceId(first));

  // Sign-out unregisters and removes it.
  const shell = new Shell(page);
  await shell.signOut();
  await expect(page).toHaveURL(/\/login$/);
  expect(await stored()).toBeNull();
  const check = await page.request.post(`${E2E_URL}/registros/auth/login`, {
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  const { accessToken } = (await check.json()) as { accessToken: string };
  const left = await page.request.get(`${E2E_URL}/registros/push/devices`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  // This browser's device is gone (the id is the SHA-256 of the token).
  const ids = ((await left.json()) as { id: string }[]).map((d) => d.id);
  expect(ids).not.toContain(deviceId(last));
});

// One journey: a person who said 'Agora não' to the invitation still turns notifications on from
// the account page (two journeys spent a sign-in and the worker's install twice, about 7 s).
test("the invitation stays away once the person says 'Agora não', and Ativar notificações asks for permission from the button", async ({
  page,
  context,
}) => {
  await page.addInitScript(PUSH_MANAGER_STAND_IN);
  await signInAsAdmin(page);
  const shell = new Shell(page);
  const invitation = shell.notificationsInvitation();
  await invitation.getByRole('button', { name: 'Agora não' }).click();
  await expect(invitation).toBeHidden();
  await page.reload();
  await shell.expectSignedIn();
  await new DashboardPage(page).open();
  await expect(shell.heading('Dashboard')).toBeVisible();
  await expect(invitation).toBeHidden();

  await waitForServiceWorker(page);
  const account = new AccountPage(page);
  await account.open();
  await context.grantPermissions(['notifications'], { origin: E2E_URL });
  await account.enableNotifications();
  await expect(
    account.notifications().getByText('Notificações ativadas neste dispositivo.'),
  ).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('fcmToken'))).toContain('"endpoint"');
});

test('after sign-in an invitation asks for notifications: its button opens the prompt', async ({
  page,
  context,
}) => {
  await page.addInitScript(PUSH_MANAGER_STAND_IN);
  await signInAsAdmin(page);
  const invitation = new Shell(page).notificationsInvitation();
  await expect(invitation).toBeVisible();
  await waitForServiceWorker(page);
  // The person says yes in the browser's prompt.
  await context.grantPermissions(['notifications'], { origin: E2E_URL });
  await invitation.getByRole('button', { name: 'Ativar notificações' }).click();
  await expect(invitation).toBeHidden();
  await expect(new Shell(page).toast('Notificações ativadas neste dispositivo.')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('fcmToken'))).toContain('"endpoint"');
});

test('offline, a form opens with its lookups from the worker, and an acknowledgement waits for the connection', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page);
  await waitForServiceWorker(page);

  // Lookups: the tracker form's customers and tracker types, seen once online.
  await new ResourceFormPage(page, REGISTERS.trackers.path).openNew();
  const shell = new Shell(page);
  await expect(shell.heading('Novo rastreador')).toBeVisible();
  const types = selectButton(page, /Tipo de rastreador/);
  // The picker is enabled at once, with only 'Nenhum' until the types come: seen listed, they
  // have come through the worker, which kept them before handing them over.
  await types.click();
  await expect(page.getByRole('option').nth(1)).toBeVisible();
  await page.keyboard.press('Escape');
  await context.setOffline(true);
  await page.reload();
  await expect(shell.heading('Novo rastreador')).toBeVisible();
  await expect(types).toBeEnabled();
  await types.click();
  await expect(page.getByRole('option').nth(1)).toBeVisible();
  await page.keyboard.press('Escape');
  // Really offline for the worker too: a lookup never read before does not come.
  const unseen = await page.evaluate(async () => {
    try {
      const answer = await fetch('/registros/tracker-types?limit=7', {
        headers: { authorization: `Bearer ${localStorage.getItem('accessToken')}` },
      });
      return answer.status;
    } catch {
      return 'failed';
    }
  });
  expect(unseen).toBe('failed');
  await context.setOffline(false);

  // An alert of our own: ignition turned on.
  const login = await page.request.post(`${E2E_URL}/registros/auth/login`, {
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  const { accessToken, user } = (await login.json()) as {
    accessToken: string;
    user: { clientId: string };
  };
  const headers = { authorization: `Bearer ${accessToken}` };
  const plate = `PSH${Date.now().toString().slice(-1)}A${Date.now().toString().slice(-3, -1)}`;
  const vehicle = await page.request.post(`${E2E_URL}/registros/vehicle`, {
    headers,
    data: { clientId: user.clientId, name: `Furgão ${plate}`, plate, type: 'van' },
  });
  const { id: vehicleId } = (await vehicle.json()) as { id: string };
  await page.request.post(`${E2E_URL}/registros/tracker`, {
    headers,
    data: {
      clientId: user.clientId,
      identifier: `psh-${plate}`,
      provider: 'rastro',
      protocol: 'osmand',
      devicePassword: E2E_DEVICE_PASSWORD,
      vehicleId,
    },
  });
  await page.request.post(`${E2E_URL}/registros/alert-rules`, {
    headers,
    data: {
      clientId: user.clientId,
      name: 'Ignição',
      type: 'IGNITION_ON',
      vehicleIds: [vehicleId],
    },
  });
  const t = Math.floor(Date.now() / 1000) - 60;
  for (const [dt, ignition] of [
    [0, false],
    [10, true],
  ] as const)
    await page.request.get(
      `${E2E_OSMAND_URL}/?id=psh-${plate}&password=${E2E_DEVICE_PASSWORD}&lat=-8.05&lon=-34.88&timestamp=${t + dt}&ignition=${ignition}`,
    );

  const history = new AlertHistoryPage(page);
  await history.open();
  const row = history.row(plate);
  await expect(row).toContainText('Ignição ligada');
  await context.setOffline(true);
  await history.select(plate);
  await history.acknowledgeSelected();
  await expect(
    shell.toast('Sem conexão: o reconhecimento será enviado quando a conexão voltar.'),
  ).toBeVisible();
  await expect(row).toContainText('Reconhecimento pendente');
  const ackedOnServer = async () => {
    const answer = await page.request.get(
      `${E2E_URL}/registros/alerts?vehicleId=${vehicleId}&limit=10`,
      { headers },
    );
    const body = (await answer.json()) as { items: { acknowledgedAt: string | null }[] };
    return body.items[0]?.acknowledgedAt ?? null;
  };
  expect(await ackedOnServer()).toBeNull();

  await context.setOffline(false);
  await expect.poll(ackedOnServer, { timeout: 30_000 }).not.toBeNull();
  await expect(row).toContainText(`Reconhecido por ${ADMIN.name}`, { timeout: 10_000 });
});

test('with a Firebase project, Firebase starts in the worker and each message is shown once, by us, a notice that wakes a stopped worker too', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const server = await startExtraServer(E2E_PORT - 3, {
    FIREBASE_SERVICE_ACCOUNT: JSON.stringify({
      project_id: 'rastro-e2e',
      client_email: 'push@rastro-e2e.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    }),
    FIREBASE_WEB_CONFIG: JSON.stringify({
      apiKey: 'chave-e2e',
      projectId: 'rastro-e2e',
      messagingSenderId: '1234567890',
      appId: '1:1234567890:web:e2e',
    }),
    FIREBASE_VAPID_KEY: 'BElaChaveVapidPublicaDoProjetoFirebaseDoE2E',
  });
  try {
    const origin = server.url;
    await context.grantPermissions(['notifications'], { origin });
    await page.goto(`${origin}/login`);
    await new LoginPage(page).signIn(ADMIN.email, ADMIN.password);
    await new Shell(page).expectSignedIn();
    await waitForServiceWorker(page);
    expect(
      await worker(context, origin).evaluate(
        () => (self as unknown as { RASTRO_PUSH?: { provider: string } }).RASTRO_PUSH?.provider,
      ),
    ).toBe('fcm');
    const { cdp, id } = await workerRegistration(page, origin);
    await page.goto('about:blank');
    await noWindowOfOurs(context, origin);

    const exit = pushAlert(5, 'GEOFENCE_EXIT', 'Saída de cerca — RST1D05');
    await deliver(cdp, id, { data: exit, from: '1234567890', fcmMessageId: 'fcm-e2e-1' }, origin);
    await expect
      .poll(() => notifications(context, origin), { timeout: 15_000 })
      .toEqual([{ title: exit.title, body: exit.body, tag: exit.tag }]);

    // A notification message that wakes a stopped worker, as on a phone after a while: shown
    // once, by us, with our icon.
    const stopped = new Promise<void>((resolve) =>
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        if (versions.some((version) => version.runningStatus === 'stopped')) resolve();
      }),
    );
    await cdp.send('ServiceWorker.stopAllWorkers');
    await stopped;
    await deliver(
      cdp,
      id,
      {
        notification: { title: 'Aviso do Firebase', body: 'Mensagem de notificação' },
        data: { origem: 'console' },
        from: '1234567890',
        fcmMessageId: 'fcm-e2e-2',
      },
      origin,
    );
    await expect
      .poll(async () => (await notifications(context, origin)).map((n) => n.title).sort(), {
        timeout: 15_000,
      })
      .toEqual(['Aviso do Firebase', exit.title].sort());
    const shown = (title: string) =>
      worker(context, origin).evaluate(async (wanted) => {
        const all = await (self as unknown as WorkerScope).registration.getNotifications();
        const found = all.find((n) => n.title === wanted);
        return found && { body: found.body, icon: found.icon, url: found.data?.url };
      }, title);
    expect(await shown('Aviso do Firebase')).toEqual({
      body: 'Mensagem de notificação',
      icon: `${origin}/icons/icon-192.png`,
      url: '/',
    });

    // A notice sent without a title is still shown (as Rastro), and its link to another site
    // ('//' after our origin is one) does not go with it: a tap opens Rastro.
    await deliver(
      cdp,
      id,
      {
        notification: { body: 'Manutenção programada às 23h' },
        fcmOptions: { link: `${origin}//outro.exemplo/` },
        from: '1234567890',
        fcmMessageId: 'fcm-e2e-3',
      },
      origin,
    );
    await expect
      .poll(() => shown('Rastro'))
      .toEqual({
        body: 'Manutenção programada às 23h',
        icon: `${origin}/icons/icon-192.png`,
        url: '/',
      });
  } finally {
    await server.stop();
  }
});
