/**
 * Reading what the server says about last locations, apart from fetching it: the compact
 * full read (compact-locations.ts) and the live stream's server-sent events, parsed by
 * eventsource-parser as the SSE specification reads them. No HTTP client here, so the
 * locations worker parses with exactly the code the page would use.
 */
import { createParser } from 'eventsource-parser';
import * as v from 'valibot';
import { CompactLocationsSchema, expandLocations } from '../contract/compact-locations';
import { type LocationItem, LocationItemSchema } from '../contract/locations';

/** The items of a compact `lastLocation` answer (its JSON, parsed): throws when malformed. */
export function readCompactLocations(json: unknown): LocationItem[] {
  return expandLocations(v.parse(CompactLocationsSchema, json));
}

/**
 * Turns the bytes of the live stream, as they come, into location items and the 'ready'
 * event (the changes after Last-Event-ID are all sent). One parser per connection: a
 * connection's half-received event must not run into the next one's.
 */
export function createLocationStreamParser(handlers: {
  onItem(item: LocationItem): void;
  onReady(): void;
}): { feed(bytes: Uint8Array): void } {
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      if (event.event === 'ready') handlers.onReady();
      if (event.event !== 'location') return;
      try {
        const parsed = v.safeParse(LocationItemSchema, JSON.parse(event.data));
        if (parsed.success) handlers.onItem(parsed.output);
      } catch {
        // A malformed event is skipped; the next full read repairs the mirror.
      }
    },
  });
  return { feed: (bytes) => parser.feed(decoder.decode(bytes, { stream: true })) };
}
