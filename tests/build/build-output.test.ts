/**
 * Checks the built PWA itself (built here into a temporary folder, as `npm run build` does):
 * the worker and the manifest exist where the spec puts them, the shell is precached, and
 * no API URL ever is.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const outDir = mkdtempSync(path.join(tmpdir(), 'rastro-build-'));
const file = (name: string) => path.join(outDir, name);

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
  await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
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
});
