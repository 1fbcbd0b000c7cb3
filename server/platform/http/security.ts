/**
 * Security headers on every answer — the PWA's HTML and assets, the API, uploaded images —
 * so that a response is never sniffed into another type, never framed, never leaks its
 * address to other sites, and runs only code from this origin.
 *
 * The Content-Security-Policy allows exactly what the app uses: its own origin, the outside
 * origins of the chosen base map (config.ts `mapSources`: the tile server of MAP_TILE_URL,
 * OpenStreetMap by default, or the host of MAP_STYLE; none for a PMTiles archive served here:
 * images, and fetches by the page and by the service worker that caches them), the Firebase
 * hosts when push is configured (FIREBASE_HOSTS), and `data:`/`blob:` images (vehicle photos
 * are shown from blobs fetched with the token; PMTiles raster tiles are drawn from blobs).
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

/**
 * The only inline styles the app needs: two constant <style> elements that
 * react-aria-components adds to the document (usePress: no double-tap delay on touch;
 * usePreventScroll: modals on iOS). Allowed by their hashes, nothing else inline. If a
 * library update changes them, the account journey (e2e) reports the CSP violation.
 */
const LIBRARY_STYLES = [
  '@layer {\n  [data-react-aria-pressable] {\n    touch-action: pan-x pan-y pinch-zoom;\n  }\n}',
  '@layer {\n  * {\n    overscroll-behavior: contain;\n  }\n}',
];
const styleHashes = LIBRARY_STYLES.map(
  (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`,
);

/** The CSP source of a tile URL template: its origin, a `{s}`-style first label as `*`. */
export function tileSource(template: string): string | undefined {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(template.trim());
  if (!match) return undefined;
  const [, scheme, host = ''] = match;
  const labels = host.split('.');
  if (labels.slice(1).some((label) => label.includes('{'))) return `${scheme}:`;
  if (labels[0]?.includes('{')) labels[0] = '*';
  return `${scheme}://${labels.join('.')}`;
}

export function contentSecurityPolicy(options: { mapSources: string[]; firebaseHosts: string[] }) {
  const extra = (list: (string | undefined)[]) => list.filter(Boolean).join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' ${styleHashes.join(' ')}`,
    `img-src 'self' data: blob: ${extra(options.mapSources)}`.trim(),
    `connect-src 'self' ${extra([...options.mapSources, ...options.firebaseHosts])}`.trim(),
    "font-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(options: {
  mapSources: string[];
  firebaseHosts: string[];
}): MiddlewareHandler {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    // Tile servers (OpenStreetMap's policy) want to know the site, never the page's path,
    // which may carry a shared link's token.
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy':
      'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
