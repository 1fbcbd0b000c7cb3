/**
 * What may be written to logs of a request path: a temporary link's token is its whole
 * credential (read-only access to vehicles, no sign-in), so it never reaches a log line.
 */
const SECRET_SEGMENTS = /\/(temp-access)\/[^/?#]+/g;

export function loggablePath(path: string): string {
  return path.replace(SECRET_SEGMENTS, '/$1/…');
}
