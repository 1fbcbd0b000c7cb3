/**
 * Event ids of the live stream of last locations: decimal numbers, unique and increasing,
 * longer than a JS number may hold, so they are compared as strings of digits.
 */

/** Whether event id `a` comes after `b` (a `b` that is no event id is before everything). */
export function isAfter(a: string, b: string | undefined): boolean {
  if (b === undefined || !/^\d+$/.test(b)) return true;
  return a.length !== b.length ? a.length > b.length : a > b;
}

/** The greatest event id among `items` and `since`: where the live stream resumes from. */
export function newestEvent(items: readonly { eventId: string }[], since?: string): string {
  let newest = since && /^\d+$/.test(since) ? since : '0';
  for (const { eventId } of items) if (isAfter(eventId, newest)) newest = eventId;
  return newest;
}
