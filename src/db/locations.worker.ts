/**
 * The locations worker: parses last locations and writes their mirror off the page's thread
 * (locations-engine.ts does the work; locations-client.ts talks to it).
 */
import {
  createLocationsEngine,
  type LocationsEvent,
  type LocationsRequest,
} from './locations-engine';
import { RastroDb } from './schema';

/** The part of a dedicated worker's global scope used here (the project's types are DOM's). */
const worker = self as unknown as {
  postMessage(event: LocationsEvent): void;
  onmessage: ((event: MessageEvent<LocationsRequest>) => void) | null;
};

const database = new RastroDb();
// Opened at once: the page's first question is its rows.
void database.open();
const engine = createLocationsEngine(database, (event) => worker.postMessage(event));
worker.onmessage = (event) => void engine.handle(event.data);
