/**
 * Checks the built PWA itself (built here into a temporary folder, as `npm run build` does):
 * the worker and the manifest exist where the spec puts them, the shell and every lazily
 * loaded chunk are precached, no API URL ever is, the JavaScript loaded before the sign-in
 * page stays within its budget, and text files have their precompressed copies.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const outDir = mkdtempSync(path.join(tmpdir(), 'rastro-build-'));
const file = (name: string) => path.join(outDir, name);
const html = () => readFileSync(file('index.html'), 'utf8');
/** JavaScript loaded before the sign-in page shows, gzip -9 (at most 170 KB: a phone on a weak link signs in within seconds). */
const SIGN_IN_BUDGET = 170 * 1024;
let chunks = new Map<string, Rollup.OutputChunk>();

/** The chunks these load with them (static imports, followed to the end). */
function withImports(start: Rollup.OutputChunk[]): Rollup.OutputChunk[] {
  const seen = new Map<string, Rollup.OutputChunk>();
  const stack = [...start];
  for (let chunk = stack.pop(); chunk; chunk = stack.pop()) {
    if (seen.has(chunk.fileName)) continue;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) {
      const next = chunks.get(name);
      if (next) stack.push(next);
    }
  }
  return [...seen.values()];
}
const chunkOf = (test: (id: string) => boolean) =>
  [...chunks.values()].filter((c) => c.facadeModuleId && test(c.facadeModuleId));

/**
 * What a visitor's browser loads before the sign-in page: the page's entry and its imports,
 * the sign-in page's own chunk (a lazy route) and the service worker's registration.
 */
function signInChunks() {
  const entry = [...chunks.values()].filter((c) => c.isEntry && c.fileName.startsWith('assets/'));
  return withImports([
    ...entry,
    ...chunkOf((id) => id.endsWith('/features/auth/pages.ts')),
    ...chunkOf((id) => id.includes('workbox-window')),
  ]);
}

function precacheUrls(): string[] {
  const worker = readFileSync(file('firebase-messaging-sw.js'), 'utf8');
  return [...worker.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1] ?? '');
}

function pngSize(name: string): [number, number] {
  const buf = readFileSync(file(name.replace(/^\//, '')));
  expect(buf.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

beforeAll(async () => {
  // Vitest runs with NODE_ENV=test, which would make this a development build (React's
  // development bundles and all): build as `npm run build` does.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const result = (await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'silent',
    mode: 'production',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  chunks = new Map(
    outputs.filter((o): o is Rollup.OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]),
  );
}, 120_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('build output', () => {
  it('has the worker at the spec path and the manifest linked from the page', () => {
    expect(existsSync(file('firebase-messaging-sw.js'))).toBe(true);
    expect(existsSync(file('manifest.webmanifest'))).toBe(true);
    const html = readFileSync(file('index.html'), 'utf8');
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain('href="/manifest.webmanifest"');
  });

  it('has an installable pt-BR manifest with 192, 512 and maskable icons', () => {
    const manifest = JSON.parse(readFileSync(file('manifest.webmanifest'), 'utf8'));
    expect(manifest).toMatchObject({
      lang: 'pt-BR',
      display: 'standalone',
      start_url: '/',
      short_name: 'Rastro',
    });
    const icons = manifest.icons as { src: string; sizes: string; purpose: string }[];
    const find = (sizes: string, purpose: string) =>
      icons.find((i) => i.sizes === sizes && i.purpose === purpose);
    for (const [sizes, purpose] of [
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['512x512', 'maskable'],
    ] as const) {
      const icon = find(sizes, purpose);
      expect(icon, `${sizes} ${purpose}`).toBeDefined();
      const [w, h] = pngSize(icon?.src ?? '');
      expect(`${w}x${h}`).toBe(sizes);
    }
  });

  it('precaches the shell: the page, its scripts and styles, the manifest and icons', () => {
    const urls = precacheUrls();
    expect(urls).toContain('index.html');
    expect(urls).toContain('manifest.webmanifest');
    const html = readFileSync(file('index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(urls).toContain(asset);
    expect(urls).toContain('icons/icon-192.png');
  });

  it('never precaches an API URL', () => {
    const urls = precacheUrls();
    expect(urls.length).toBeGreaterThan(3);
    for (const url of urls) {
      expect(url).not.toMatch(/^\/?(registros|tech-integracao|registro\/|health)/);
    }
    const worker = readFileSync(file('firebase-messaging-sw.js'), 'utf8');
    expect(worker).not.toContain('"url":"/registros');
  });

  it('bundles push in the worker (Firebase messaging, Web Push, clicks, offline acks), none of it in the page start', () => {
    const worker = readFileSync(file('firebase-messaging-sw.js'), 'utf8');
    // The server's push configuration first, then Firebase messaging's own code.
    expect(worker.indexOf('importScripts')).toBeLessThan(worker.indexOf('firebase'));
    expect(worker).toMatch(/importScripts\(["'`]\/push-config\.js["'`]\)/);
    expect(worker).toContain('firebase-messaging-database');
    for (const piece of ['"push"', '"notificationclick"', 'rastro-alert-acks', 'rastro-lookups:'])
      expect(worker.replaceAll('`', '"')).toContain(piece);
    // Still a classic script (importScripts works only there): nothing left to import.
    expect(worker).not.toMatch(/^\s*import[\s{*]/m);
    const modules = signInChunks().flatMap((c) => c.moduleIds);
    expect(modules.filter((id) => /\/node_modules\/(@firebase|firebase)\//.test(id))).toEqual([]);
  });

  it('precaches every lazily loaded chunk, so that any page opens offline', () => {
    const urls = precacheUrls();
    const lazyPages = chunkOf((id) => /\/(features|app)\/.*Page\.tsx$/.test(id));
    expect(lazyPages.length).toBeGreaterThan(10);
    for (const chunk of chunks.values())
      if (chunk.fileName.startsWith('assets/')) expect(urls).toContain(chunk.fileName);
  });

  it('precaches the locations worker: without signal the map reads the mirror through it', () => {
    expect(
      precacheUrls().filter((url) => /^assets\/locations\.worker-[\w-]+\.js$/.test(url)),
    ).toHaveLength(1);
  });

  it('precaches the built-in base worker: without signal or tiles the map still shows land', () => {
    expect(
      precacheUrls().filter((url) => /^assets\/builtin-base\.worker-[\w-]+\.js$/.test(url)),
    ).toHaveLength(1);
  });

  it('loads at most 170 KB of JavaScript (gzip) before the sign-in page, without map or mirror', () => {
    const loaded = signInChunks();
    expect(loaded.some((c) => c.moduleIds.some((id) => id.endsWith('LoginPage.tsx')))).toBe(true);
    const bytes = loaded.reduce((sum, c) => sum + gzipSync(c.code, { level: 9 }).length, 0);
    expect(bytes).toBeLessThanOrEqual(SIGN_IN_BUDGET);
    const modules = loaded.flatMap((c) => c.moduleIds);
    for (const heavy of ['/node_modules/ol/', '/node_modules/dexie/', '@tanstack/query-core'])
      expect(modules.filter((id) => id.includes(heavy))).toEqual([]);
    // Of the API contract, only what the session, the API client and the sign-in forms use:
    // the feature pages' contracts (inventory, reports, alerts…) come with their pages.
    const contract = modules.filter((id) => id.includes('/src/contract/'));
    expect(contract.map((id) => path.basename(id, '.ts')).sort()).toEqual([
      'auth',
      'common',
      'index',
      'messages',
      'objects',
      'permissions',
      'roles',
    ]);
    // The map and its library come with the map page.
    const map = withImports(chunkOf((id) => id.endsWith('/features/map/FleetMapPage.tsx')));
    expect(map.flatMap((c) => c.moduleIds).some((id) => id.includes('/node_modules/ol/'))).toBe(
      true,
    );
  });

  it('writes brotli and gzip copies of the hashed assets, decoding to the same bytes', () => {
    const entry = [...chunks.values()].find((c) => c.isEntry && c.fileName.startsWith('assets/'));
    const css = [...html().matchAll(/href="\/(assets\/[^"]+\.css)"/g)].map((m) => m[1] ?? '');
    expect(css.length).toBeGreaterThan(0);
    // Files under 1 KB are served as they are (vite.config.ts): compressing them gains nothing.
    // Styles live beside their components, so a page's first styles may come in small pieces.
    for (const name of [entry?.fileName ?? 'missing', ...css]) {
      const original = readFileSync(file(name));
      if (original.length < 1024 && name !== entry?.fileName) continue;
      expect(brotliDecompressSync(readFileSync(file(`${name}.br`)))).toEqual(original);
      expect(gunzipSync(readFileSync(file(`${name}.gz`)))).toEqual(original);
    }
    // Files revalidated on every load may be changed in place: the server compresses them.
    for (const name of ['index.html', 'firebase-messaging-sw.js', 'manifest.webmanifest'])
      expect(existsSync(file(`${name}.br`))).toBe(false);
    expect(precacheUrls().some((url) => /\.(br|gz)$/.test(url))).toBe(false);
  });
});
