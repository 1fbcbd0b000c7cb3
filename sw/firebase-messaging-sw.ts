/// <reference lib="webworker" />
/**
 * Rastro's one service worker, served at /firebase-messaging-sw.js (SPEC §9). It precaches
 * the built shell so that every route opens offline, and waits for the page's go-ahead
 * before a new version takes over (the update prompt). API calls are never cached here:
 * writes always go to the network, and offline reading is the Dexie mirror's job. Map tiles
 * (any `/{z}/{x}/{y}.png|jpg|webp|pbf|mvt`, whatever the tile server) are kept cache-first
 * in their own cache, bounded by count and age, and so are the parts of the PMTiles archive
 * Rastro serves (range requests), so a map seen once opens without a signal.
 *
 * Push (sw/push.ts: Firebase messaging or Web Push, notifications and their clicks) and the
 * data duties (sw/data.ts: lookups kept per user, acknowledgements queued offline) are its
 * other parts. The push configuration comes first, from the server (/push-config.js), so that
 * Firebase starts at the top level when the deployment has a Firebase project.
 */

import './push-config';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { CacheExpiration, ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import './data';
import './driver';
import { precacheInParallel } from './precache';
import './push';

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

const shell = precacheInParallel(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(shell.createHandlerBoundToURL('/index.html'), { denylist: API_PATHS }),
);

/** At most this many tiles (about 60 MB of 20 KB tiles), none older than 30 days. */
const TILE_CACHE = { name: 'rastro-map-tiles', maxEntries: 3000, maxAgeDays: 30 };
const TILE_PATH = /\/\d+\/\d+\/\d+(@2x)?\.(png|jpe?g|webp|pbf|mvt)$/;
registerRoute(
  ({ request, url }) =>
    (request.destination === 'image' || request.destination === '') &&
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

/**
 * The PMTiles archive is read in parts (HTTP range requests), which the Cache API cannot
 * keep as such: each part is kept under its own key (the versioned URL and the range) and
 * given back as the partial answer it was. At most this many parts (a directory or a tile
 * each), none older than 30 days; a new archive has a new URL, its old parts age out.
 */
const ARCHIVE_CACHE = { name: 'rastro-map-archive', maxEntries: 4000, maxAgeDays: 30 };
const archiveExpiration = new CacheExpiration(ARCHIVE_CACHE.name, {
  maxEntries: ARCHIVE_CACHE.maxEntries,
  maxAgeSeconds: ARCHIVE_CACHE.maxAgeDays * 24 * 3600,
});
registerRoute(
  ({ request, url }) =>
    url.origin === self.location.origin &&
    url.pathname === '/map/base.pmtiles' &&
    request.headers.has('range'),
  async ({ request }) => {
    const key = new URL(request.url);
    key.searchParams.set('range', request.headers.get('range') ?? '');
    const cache = await caches.open(ARCHIVE_CACHE.name);
    const kept = await cache.match(key.href);
    if (kept) {
      void archiveExpiration.updateTimestamp(key.href);
      return new Response(kept.body, { status: 206, headers: kept.headers });
    }
    const answer = await fetch(request);
    if (answer.status === 206) {
      const body = await answer.clone().arrayBuffer();
      await cache.put(key.href, new Response(body, { status: 200, headers: answer.headers }));
      void archiveExpiration
        .updateTimestamp(key.href)
        .then(() => archiveExpiration.expireEntries());
    }
    return answer;
  },
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

clientsClaim();
