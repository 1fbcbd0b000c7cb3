import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API = ['/registros', '/tech-integracao', '/registro/', '/health', '/map/'];

/**
 * Text files the server sends compressed (server/platform/static.ts serves the copies made
 * here).
 */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

/**
 * Writes `.br` (brotli, maximum quality) and `.gz` (gzip -9) beside every text file under
 * assets/ larger than 1 KB, once, so that no request pays for compressing them. Only the
 * hashed assets: their content never changes under their name, so a copy can never be stale.
 * The few files revalidated on every load (the page, the worker, the manifest) are small and
 * compressed by the server as they are sent.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  async function* files(dir: string): AsyncGenerator<string> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* files(full);
      else if (COMPRESSIBLE.test(entry.name)) yield full;
    }
  }
  return {
    name: 'rastro:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      async handler() {
        const work: Promise<unknown>[] = [];
        for await (const file of files(path.join(outDir, 'assets'))) {
          if ((await stat(file)).size < 1024) continue;
          work.push(
            readFile(file).then((content) =>
              Promise.all([
                brotli(content, {
                  params: {
                    [constants.BROTLI_PARAM_QUALITY]: 11,
                    [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
                  },
                }).then((packed) => writeFile(`${file}.br`, packed)),
                gzipAsync(content, { level: 9 }).then((packed) => writeFile(`${file}.gz`, packed)),
              ]),
            ),
          );
        }
        await Promise.all(work);
      },
    },
  };
}

/**
 * Declares the API contract's modules (src/contract/*.ts) free of side effects, so that a
 * page carries only the ones it uses. Without it the bundler keeps every module that the
 * barrel (src/contract/index.ts) re-exports, wherever one name is imported from it: their
 * top-level schemas call the contract's own helpers (`queryInt(…)`, `idList(…)`, pipes with
 * checks), which it cannot prove pure. So the session, the API client and the sign-in form,
 * importing `AuthResponseSchema` and its like, brought the whole contract (inventory,
 * reports, alerts, geofences, customers…) onto the sign-in path. Those modules only declare
 * (constants, schemas, functions); the one exception stays out of the list: messages.ts sets
 * valibot's pt-BR messages as it loads, imported for that by the barrel (kept too).
 */
function pureContract(): Plugin {
  return {
    name: 'rastro:pure-contract',
    apply: 'build',
    transform: {
      filter: { id: /\/src\/contract\/(?!index\.ts$|messages\.ts$)[\w-]+\.ts$/ },
      handler: () => ({ moduleSideEffects: false }),
    },
  };
}

export default defineConfig({
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    rollupOptions: {
      onwarn(warning, warn) {
        // TanStack Query marks its modules "use client" for React Server Components; a
        // client-only bundle has nothing to preserve.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: Object.fromEntries(API.map((path) => [path, 'http://localhost:3000'])),
  },
  plugins: [
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'firebase-messaging-sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      includeManifestIcons: false,
      manifestFilename: 'manifest.webmanifest',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        globIgnores: ['**/*.map'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      manifest: {
        id: '/',
        name: 'Rastro — Rastreamento e Gestão de Frotas',
        short_name: 'Rastro',
        description:
          'Acompanhe veículos e ativos em tempo real, receba alertas e gere relatórios da sua frota.',
        lang: 'pt-BR',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#0b5cad',
        background_color: '#ffffff',
        categories: ['business', 'navigation', 'productivity'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      devOptions: { enabled: false },
    }),
    pureContract(),
    precompress(),
  ],
});
