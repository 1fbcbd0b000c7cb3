/** Shared secrets sent as `Authorization: Bearer …` (the flespi stream, /metrics). */
import { timingSafeEqual } from 'node:crypto';

/** Whether the header carries exactly this secret, compared in constant time. */
export function bearerMatches(header: string | undefined, secret: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
