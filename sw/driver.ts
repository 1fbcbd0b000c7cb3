/**
 * The driver's page offline: a mark or a problem report the page cannot send (no connection)
 * is queued here (Workbox background sync) and answered 202 `{ queued: true }`; the browser
 * wakes the worker to send it when the connection returns, even with the page closed. The
 * page keeps its own copy too and tries again while open; each item carries the id the phone
 * made, so the server stores it once whichever copy arrives first. A session the server no
 * longer takes (401: link revoked or expired) drops what was queued with it.
 */
import { Queue } from 'workbox-background-sync';
import { registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope;

async function tellPages(message: object) {
  for (const window of await self.clients.matchAll({ type: 'window', includeUncontrolled: true }))
    window.postMessage(message);
}

async function replay(queue: Queue) {
  let sent = 0;
  for (let entry = await queue.shiftRequest(); entry; entry = await queue.shiftRequest()) {
    let answer: Response;
    try {
      answer = await fetch(entry.request.clone());
    } catch (err) {
      await queue.unshiftRequest(entry);
      throw err;
    }
    if (answer.status >= 500) {
      await queue.unshiftRequest(entry);
      break;
    }
    // Stored, or refused for good (the page shows its own copy's refusal).
    sent++;
  }
  if (sent) await tellPages({ type: 'RASTRO_DRIVER_SENT' });
}

const driverQueue = new Queue('rastro-driver-outbox', {
  // Minutes: a mark older than a week is refused by the server anyway.
  maxRetentionTime: 7 * 24 * 60,
  onSync: ({ queue }) => replay(queue),
});

registerRoute(
  ({ request, url }) =>
    url.origin === self.location.origin &&
    request.method === 'POST' &&
    /^\/registros\/driver-page\/me\/(marks|problems)$/.test(url.pathname),
  async ({ request }) => {
    const kept = request.clone();
    try {
      return await fetch(request);
    } catch {
      // The page tries again while it is open: one queued copy per item is enough.
      const body = (await kept
        .clone()
        .json()
        .catch(() => null)) as { id?: unknown } | null;
      const id = typeof body?.id === 'string' ? body.id : '';
      const queued = await driverQueue.getAll();
      if (
        !id ||
        !queued.some((entry) => (entry.metadata as { id?: string } | undefined)?.id === id)
      )
        await driverQueue.pushRequest({ request: kept, metadata: { id } });
      return Response.json({ queued: true }, { status: 202 });
    }
  },
  'POST',
);
