/**
 * Compression of answers made or changed per request — API JSON, and the few static files
 * revalidated on every load (the page, the service worker, the manifest): text, with brotli or gzip as the client accepts
 * (`Accept-Encoding`, q-values honoured; brotli first), when larger than 1 KB. The work runs
 * on libuv's thread pool (zlib's asynchronous calls), not on the event loop. Brotli at
 * quality 4: most of its gain over gzip for a fraction of the time of its maximum, which
 * suits answers made per request (static files are compressed once, at build, at maximum).
 * Measured here against quality 5: the compact `lastLocation` of 10,000 vehicles (1.7 MB) in
 * 30 against 70 ms, 548 against 560 KB for the browser bench's fleet and 562 against 545 KiB
 * for the plain bench's (both under the 600 KB aimed at); its full form (4.4 MB) in 53 against
 * 97 ms at the same size; a list of 5,000 vehicles (1.8 MB) in 14 against 19 ms, 132 against
 * 134 KB. A few per cent of size either way, for half the time on the largest answers.
 *
 * Left alone: the live stream (text/event-stream: each event must leave at once, not wait
 * in a compressor), answers already encoded, binary files (images, PDF, xlsx are compressed
 * formats of their own), HEAD requests and answers without a body.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export const COMPRESS_THRESHOLD = 1024;
const COMPRESSIBLE =
  /^(application\/(json|problem\+json|xml|manifest\+json|javascript)|text\/(plain|csv|html|xml|javascript|css))\b/i;

export type Encoding = 'br' | 'gzip';

/** The best encoding the client accepts: brotli, then gzip; undefined for none. */
export function negotiate(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((name) => weight(name) > 0);
  best.sort((a, b) => weight(b) - weight(a));
  return best[0];
}

export function compressAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method === 'HEAD') return;
    // Caches must keep one copy per encoding of whatever could have been compressed.
    const type = c.res.headers.get('content-type') ?? '';
    if (!COMPRESSIBLE.test(type) || c.res.headers.has('content-encoding') || !c.res.body) return;
    c.res.headers.append('Vary', 'Accept-Encoding');
    const encoding = negotiate(c.req.header('accept-encoding'));
    if (!encoding) return;
    const body = Buffer.from(await c.res.arrayBuffer());
    const headers = new Headers(c.res.headers);
    const { status, statusText } = c.res;
    // Cleared first: Hono's setter would otherwise copy the old answer's headers over.
    c.res = undefined;
    if (body.length < COMPRESS_THRESHOLD) {
      c.res = new Response(body, { status, statusText, headers });
      return;
    }
    const packed =
      encoding === 'br'
        ? await brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 4,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          })
        : await gzipAsync(body, { level: 6 });
    headers.set('Content-Encoding', encoding);
    headers.delete('Content-Length');
    c.res = new Response(packed, { status, statusText, headers });
  };
}
