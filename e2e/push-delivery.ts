/**
 * Pushes delivered to the page's service worker through the DevTools protocol
 * (`ServiceWorker.deliverPushMessage`): headless Chromium has no push service.
 */
import type { CDPSession, Page } from '@playwright/test';
import { E2E_URL } from './env';

export const HISTORY = '/fleet-management/alerts/alerts-history';

/** The worker's registration id, for ServiceWorker.deliverPushMessage. */
export async function workerRegistration(
  page: Page,
  origin = E2E_URL,
): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  const found = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  return { cdp, id: await found };
}

/** Our alert payload number `n` (1–9), of type `type`, about one test vehicle (RST1D01). */
export const pushAlert = (n: number, type: string, title: string) => ({
  rastro: 'alert',
  alertId: `00000000-0000-4000-8000-00000000000${n}`,
  type,
  vehicleId: '11111111-1111-4111-8111-111111111111',
  title,
  body: `RST1D01 saiu da cerca Garagem às 02:1${n}`,
  tag: `11111111-1111-4111-8111-111111111111:${type}`,
  url: `${HISTORY}?alert=00000000-0000-4000-8000-00000000000${n}`,
});

export async function deliver(cdp: CDPSession, id: string, data: unknown, origin = E2E_URL) {
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId: id,
    data: JSON.stringify(data),
  });
}
