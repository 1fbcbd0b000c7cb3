/**
 * Serves the built PWA from the same origin as the API. Hashed assets are immutable; the
 * HTML, the manifest and the service worker must be revalidated on every load so that a new
 * deployment is seen (and the update prompt offered) at once. Unknown paths get index.html,
 * the client-side router decides.
 *
 * Hashed assets are compressed once, at build (`.br` and `.gz` beside each, see
 * vite.config.ts): the copy the client accepts is sent with its Content-Encoding. The few
 * files outside assets/ are compressed as they are sent. Every text file says
 * `Vary: Accept-Encoding`, so that caches keep one copy per encoding.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compressAnswers } from './http/compress';

const REVALIDATE = /(^\/$|\.html$|\.webmanifest$|firebase-messaging-sw\.js$|registerSW\.js$)/;
/** Text files: sent compressed when the client accepts it. */
const TEXT_FILE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

export function staticRoutes(root: string) {
  const app = new Hono();
  const index = path.join(root, 'index.html');

  app.use('*', async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    if (REVALIDATE.test(c.req.path)) c.header('Cache-Control', 'no-cache');
    else if (c.req.path.startsWith('/assets/'))
      c.header('Cache-Control', 'public, max-age=31536000, immutable');
    if (c.req.path.endsWith('firebase-messaging-sw.js')) c.header('Service-Worker-Allowed', '/');
    if (
      (c.req.path === '/' || TEXT_FILE.test(c.req.path)) &&
      !c.res.headers.get('vary')?.includes('Accept-Encoding')
    )
      c.header('Vary', 'Accept-Encoding', { append: true });
  });
  const compress = compressAnswers();
  app.use('*', (c, next) => (c.req.path.startsWith('/assets/') ? next() : compress(c, next)));
  app.use(
    '*',
    serveStatic({ root: path.relative(process.cwd(), root) || '.', precompressed: true }),
  );
  app.get('*', async (c) => {
    if (path.extname(c.req.path) !== '' || !existsSync(index)) {
      return c.text('Não encontrado', 404);
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(await readFile(index, 'utf8'));
  });
  return app;
}
