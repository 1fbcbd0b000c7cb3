/**
 * What the app's IndexedDB mirror holds, read from the page (journeys and the browser bench):
 * a reload without signal shows only what was written there. The locations worker writes a
 * read once the page has shown it and is idle, so a step that cuts the network right after
 * the map appears waits for this first.
 */
import type { Page } from '@playwright/test';

/** Last locations stored in the mirror, every customer's. */
export function mirroredLocations(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('rastro');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('lastLocations')) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction('lastLocations').objectStore('lastLocations').count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error);
        };
      }),
  );
}
