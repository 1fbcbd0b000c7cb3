/**
 * The mirror of last locations, written from the page: a full read replaces a customer's
 * set and live changes are merged (location-writes.ts says how). The map itself reads and
 * writes through the locations worker (locations-client.ts), which does the same off the
 * page's thread; these are for everything else, and check first that the user is still
 * signed in.
 */
import { lastLocations } from '../api/locations';
import type { LocationItem } from '../contract';
import { db, type RastroDb, signedIn } from './database';
import { mergeLocations, replaceLocations } from './location-writes';

export { locationsKey } from './location-writes';

export async function syncLastLocations(scope: string, database: RastroDb = db): Promise<number> {
  const items = await lastLocations(scope);
  if (!signedIn()) return 0;
  await replaceLocations(database, scope, items);
  return items.length;
}

/** Merges live changes; keeps whichever fix is newer. */
export async function applyLocations(
  scope: string,
  items: LocationItem[],
  database: RastroDb = db,
): Promise<void> {
  if (!signedIn()) return;
  await mergeLocations(database, scope, items);
}
