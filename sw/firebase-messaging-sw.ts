/// <reference lib="webworker" />
/**
 * Rastro's one service worker, served at /firebase-messaging-sw.js (SPEC §9). It precaches
 * the built shell so that every route opens offline, and waits for the page's go-ahead
 * before a new version takes over (the update prompt). API calls are never cached here:
 * writes always go to the network, and offline reading is the Dexie mirror's job.
 */
import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

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

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

clientsClaim();
