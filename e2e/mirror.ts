/**
 * What the app's IndexedDB mirror holds, read from the page (journeys and the browser bench).
 * A reload without signal shows only what was written there, and the locations worker writes
 * a read once the page has shown it and is idle: a step that cuts the network right after the
 * map appears waits for this first. After a sign-out, nothing is left in any store.
 */
import type { Page } from '@playwright/test';

/** Rows in one object store of the mirror (`store`), or in all of them. */
export function mirrorRows(page: Page, store?: string): Promise<number> {
  return page.evaluate(
    (only) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('rastro');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const names = [...db.objectStoreNames].filter((name) => !only || name === only);
          if (names.length === 0) {
            db.close();
            resolve(0);
            return;
          }
          const tx = db.transaction(names, 'readonly');
          let total = 0;
          for (const name of names) {
            const count = tx.objectStore(name).count();
            count.onsuccess = () => {
              total += count.result;
            };
          }
          tx.oncomplete = () => {
            db.close();
            resolve(total);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    store,
  );
}

/** Last locations stored in the mirror, every customer's. */
export const mirroredLocations = (page: Page) => mirrorRows(page, 'lastLocations');

/**
 * Whether the service worker keeps an answer of this path (any query) in the user's cache of
 * lookups and kept reads (sw/data.ts): what a reload without signal can be answered with.
 */
export function keptByWorker(page: Page, pathname: string): Promise<boolean> {
  return page.evaluate(async (path) => {
    for (const name of await caches.keys()) {
      if (!name.startsWith('rastro-lookups:')) continue;
      const kept = await (await caches.open(name)).keys();
      if (kept.some((request) => new URL(request.url).pathname === path)) return true;
    }
    return false;
  }, pathname);
}
