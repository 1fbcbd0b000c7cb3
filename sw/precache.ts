/// <reference lib="webworker" />
/**
 * The shell's files kept for offline use, fetched a few at a time when the worker installs.
 *
 * Workbox's own install fetches its list one file after another (it once fetched them all at
 * once, and Chrome refused some with ERR_INSUFFICIENT_RESOURCES). Rastro's list is some 320
 * files, so the app could work offline only after 320 round trips: 40 s through a link with a
 * 150 ms round trip, time in which a supervisor who opened the app on a weak signal may well
 * have closed it again (13 s four at a time). Here a few are in flight at once; the cache, its
 * keys and the answers to the page are Workbox's, unchanged.
 */
import { PrecacheController, type PrecacheEntry, PrecacheRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { inParallel } from '../src/lib/in-parallel';

declare const self: ServiceWorkerGlobalScope;

/**
 * Files in flight at once while installing. Chromium opens at most six connections to a host
 * over HTTP/1.1: four leave two for the page, which is loading its own files meanwhile.
 */
const PRECACHE_IN_FLIGHT = 4;

/**
 * Keeps `entries` for offline use and answers the page from them, as Workbox's
 * `precacheAndRoute` does (same cache, same keys, same route), but installs in parallel.
 * Returns the controller, whose `createHandlerBoundToURL` serves the shell's navigations.
 */
export function precacheInParallel(entries: (string | PrecacheEntry)[]): PrecacheController {
  const controller = new PrecacheController();
  controller.addToCacheList(entries);
  // Workbox fetches a file with a revision of its own past the browser's HTTP cache (its name
  // does not change when its content does); a file with a hash in its name may come from it.
  const reload = new Set(
    entries.flatMap((entry) =>
      typeof entry !== 'string' && entry.revision
        ? [new URL(entry.url, self.location.href).href]
        : [],
    ),
  );
  self.addEventListener('install', (event) => {
    const files = [...controller.getURLsToCacheKeys()];
    event.waitUntil(
      inParallel(files, PRECACHE_IN_FLIGHT, async ([url, cacheKey]) => {
        const request = new Request(url, {
          integrity: controller.getIntegrityForCacheKey(cacheKey),
          cache: reload.has(url) ? 'reload' : 'default',
          credentials: 'same-origin',
        });
        // The strategy skips a file already kept under its key, and refuses an answer that is
        // not a success (the install fails then, and the browser tries again later).
        await Promise.all(controller.strategy.handleAll({ params: { cacheKey }, request, event }));
      }),
    );
  });
  // Removes what an earlier version kept and this one no longer lists.
  self.addEventListener('activate', (event) => {
    void controller.activate(event);
  });
  registerRoute(new PrecacheRoute(controller));
  return controller;
}
