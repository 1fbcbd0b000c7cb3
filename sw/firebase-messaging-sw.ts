/// <reference lib="webworker" />
/**
 * Rastro's one service worker, served at /firebase-messaging-sw.js (SPEC §9). It precaches
 * the built shell so that every route opens offline, and waits for the page's go-ahead
 * before a new version takes over (the update prompt). API calls are never cached here:
 * writes always go to the network, and offline reading is the Dexie mirror's job. Map tiles
 * (any `/{z}/{x}/{y}.png|jpg|webp` image, whatever the tile server) are kept cache-first in
 * their own cache, bounded by count and age, so a map seen once opens without a signal.
 */

import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

/** Paths that belong to the server, never to the shell. */
const API_PATHS = [
  /^\/registros(\/|$)/,
  /^\/tech-integracao(\/|$)/,
  /^\/registro(\/|$)/,
  /^\/health$/,
];

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: API_PATHS }));

/** At most this many tiles (about 60 MB of 20 KB tiles), none older than 30 days. */
const TILE_CACHE = { name: 'rastro-map-tiles', maxEntries: 3000, maxAgeDays: 30 };
const TILE_PATH = /\/\d+\/\d+\/\d+(@2x)?\.(png|jpe?g|webp)$/;
registerRoute(
  ({ request, url }) =>
    request.destination === 'image' &&
    TILE_PATH.test(url.pathname) &&
    !API_PATHS.some((path) => path.test(url.pathname)),
  new CacheFirst({
    cacheName: TILE_CACHE.name,
    plugins: [
      // Opaque answers (tile servers without CORS) are cached too: status 0.
      new CacheableResponsePlugin({ statuses: [0, 200] }),
      new ExpirationPlugin({
        maxEntries: TILE_CACHE.maxEntries,
        maxAgeSeconds: TILE_CACHE.maxAgeDays * 24 * 3600,
        purgeOnQuotaError: true,
      }),
    ],
  }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

clientsClaim();
