/**
 * The configurable base map: what `registros/map/config` answers for each option, the
 * PMTiles archive served with range requests (read back with the real `pmtiles` reader), and
 * a Content-Security-Policy that allows what the chosen option needs and nothing more.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { afterAll, describe, expect, it } from 'vitest';
import { solidArchive, solidPng } from '../../e2e/pmtiles-writer';
import { createApp } from '../../server/app';
import { parsePmtilesHeader } from '../../server/map/pmtiles';
import type { MapConfig } from '../../src/contract';
import { jsonOf, prepareTest } from './harness';

const dir = mkdtempSync(path.join(tmpdir(), 'rastro-map-'));
const archiveFile = path.join(dir, 'base.pmtiles');
const MAGENTA: [number, number, number] = [200, 60, 140];
writeFileSync(archiveFile, solidArchive(MAGENTA, 2));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type PmtilesConfig = Extract<MapConfig, { kind: 'pmtiles' }>;

async function appWith(env: Record<string, string>) {
  const deps = await prepareTest(env);
  return { app: createApp(deps, { serveStatic: false }), close: () => deps.database.close() };
}

/** The `pmtiles` reader's byte source, over the app's own range answers. */
function appSource(app: Awaited<ReturnType<typeof appWith>>['app'], url: string): Source {
  return {
    getKey: () => url,
    async getBytes(offset, length): Promise<RangeResponse> {
      const res = await app.request(url, {
        headers: { range: `bytes=${offset}-${offset + length - 1}` },
      });
      expect(res.status).toBe(206);
      return { data: await res.arrayBuffer() };
    },
  };
}

describe('a PMTiles archive served by Rastro', () => {
  it('is announced with its kind, zooms and versioned URL, and read back by range', async () => {
    const { app, close } = await appWith({ MAP_PMTILES_FILE: archiveFile });
    try {
      const config = await jsonOf<PmtilesConfig>(await app.request('/registros/map/config'));
      expect(config).toMatchObject({
        kind: 'pmtiles',
        tiles: 'raster',
        minZoom: 0,
        maxZoom: 2,
        style: null,
      });
      expect(config.url).toMatch(/^\/map\/base\.pmtiles\?v=[\w-]+$/);

      const head = await app.request(config.url, { headers: { range: 'bytes=0-126' } });
      expect(head.status).toBe(206);
      expect(head.headers.get('content-range')).toMatch(/^bytes 0-126\/\d+$/);
      expect(head.headers.get('accept-ranges')).toBe('bytes');
      expect(head.headers.get('content-encoding')).toBeNull();
      expect(head.headers.get('cache-control')).toContain('immutable');
      const header = parsePmtilesHeader(Buffer.from(await head.arrayBuffer()));
      expect(header).toMatchObject({ tiles: 'raster', format: 'png', maxZoom: 2 });

      const archive = new PMTiles(appSource(app, config.url));
      const tile = await archive.getZxy(2, 1, 3);
      expect(Buffer.from(tile?.data ?? new ArrayBuffer(0))).toEqual(solidPng(MAGENTA));
      expect(await archive.getZxy(3, 0, 0)).toBeUndefined();

      const csp = (await app.request('/registros/map/config')).headers.get(
        'content-security-policy',
      );
      expect(csp).not.toContain('openstreetmap');
      expect(csp).toMatch(/img-src 'self' data: blob:;/);
      expect(csp).toMatch(/connect-src 'self';/);
    } finally {
      await close();
    }
  });

  it('falls back to no tiles (the built-in base) when the archive cannot be read', async () => {
    const broken = path.join(dir, 'broken.pmtiles');
    writeFileSync(broken, 'não é um PMTiles');
    const { app, close } = await appWith({ MAP_PMTILES_FILE: broken });
    try {
      expect(await jsonOf<MapConfig>(await app.request('/registros/map/config'))).toEqual({
        kind: 'none',
      });
    } finally {
      await close();
    }
  });
});

describe('the other base maps', () => {
  it('announces raster tiles from OpenStreetMap by default, and allows only their host', async () => {
    const { app, close } = await appWith({});
    try {
      const res = await app.request('/registros/map/config');
      expect(await jsonOf<MapConfig>(res)).toMatchObject({
        kind: 'xyz',
        url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org;");
      expect(await (await app.request('/map/base.pmtiles')).text()).toBe('Não encontrado');
    } finally {
      await close();
    }
  });

  it('announces a vector style from another host, and allows that host only', async () => {
    const { app, close } = await appWith({ MAP_STYLE: 'https://mapas.exemplo.com.br/estilo.json' });
    try {
      const res = await app.request('/registros/map/config');
      expect(await jsonOf<MapConfig>(res)).toMatchObject({
        kind: 'style',
        url: 'https://mapas.exemplo.com.br/estilo.json',
      });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("connect-src 'self' https://mapas.exemplo.com.br;");
      expect(csp).not.toContain('openstreetmap');
    } finally {
      await close();
    }
  });

  it('serves a style kept in a file', async () => {
    const style = path.join(dir, 'estilo.json');
    writeFileSync(style, JSON.stringify({ version: 8, sources: {}, layers: [] }));
    const { app, close } = await appWith({ MAP_STYLE: style });
    try {
      expect(await jsonOf<MapConfig>(await app.request('/registros/map/config'))).toMatchObject({
        kind: 'style',
        url: '/map/style.json',
      });
      const served = await app.request('/map/style.json');
      expect(served.status).toBe(200);
      expect(await jsonOf(served)).toEqual({ version: 8, sources: {}, layers: [] });
    } finally {
      await close();
    }
  });

  it('announces no tiles with MAP_TILE_URL=off, and allows no outside host', async () => {
    const { app, close } = await appWith({ MAP_TILE_URL: 'off' });
    try {
      const res = await app.request('/registros/map/config');
      expect(await jsonOf<MapConfig>(res)).toEqual({ kind: 'none' });
      expect(res.headers.get('content-security-policy')).toMatch(/connect-src 'self';/);
    } finally {
      await close();
    }
  });
});
