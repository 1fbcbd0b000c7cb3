/**
 * The base map (src/contract/map.ts): `GET registros/map/config` says what the PWA draws
 * under the vehicles; `/map/base.pmtiles` serves the configured PMTiles archive with HTTP
 * range requests (the PWA reads only the directory and the tiles it shows), and
 * `/map/style.json` a style kept in a file. Public, like the tiles of any tile server: they
 * hold no customer data, and the shared-link page shows the map without signing in.
 *
 * The archive's URL carries its version (modification time and size), so a replaced file is
 * a new URL: browsers and the service worker may keep what they read of one version forever.
 */
import { stat } from 'node:fs/promises';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import { type MapConfig, MapConfigSchema } from '../../src/contract';
import type { Deps } from '../deps';
import { type PmtilesHeader, readPmtilesHeader } from './pmtiles';

export const PMTILES_PATH = '/map/base.pmtiles';
export const STYLE_PATH = '/map/style.json';

const OSM =
  '© <a href="https://www.openstreetmap.org/copyright">colaboradores do OpenStreetMap</a>';
const PROTOMAPS = `${OSM}, <a href="https://protomaps.com">Protomaps</a>`;

/** The archive's header, read again only when the file changes. */
function archiveReader(file: string) {
  let cached: { version: string; header: PmtilesHeader } | undefined;
  return async () => {
    const info = await stat(file);
    const version = `${Math.round(info.mtimeMs).toString(36)}-${info.size.toString(36)}`;
    if (cached?.version !== version) cached = { version, header: await readPmtilesHeader(file) };
    return cached;
  };
}

export function mapConfigRoutes(deps: Deps) {
  const { map } = deps.config;
  const archive = map.pmtilesFile ? archiveReader(map.pmtilesFile) : undefined;
  const styleUrl = map.style && ('url' in map.style ? map.style.url : STYLE_PATH);

  async function config(): Promise<MapConfig> {
    if (archive) {
      const { version, header } = await archive();
      return {
        kind: 'pmtiles',
        url: `${PMTILES_PATH}?v=${version}`,
        tiles: header.tiles,
        minZoom: header.minZoom,
        maxZoom: header.maxZoom,
        style: header.tiles === 'vector' ? (styleUrl ?? null) : null,
        attribution: map.attribution ?? (header.tiles === 'vector' ? PROTOMAPS : OSM),
      };
    }
    if (styleUrl) return { kind: 'style', url: styleUrl, attribution: map.attribution ?? OSM };
    if (map.tileUrl) return { kind: 'xyz', url: map.tileUrl, attribution: map.attribution ?? OSM };
    return { kind: 'none' };
  }

  const app = new Hono();
  app.get(
    '/config',
    describeRoute({
      tags: ['Mapa'],
      summary: 'O mapa base configurado: tiles XYZ, arquivo PMTiles deste servidor ou estilo',
      responses: {
        200: {
          description: 'Mapa base',
          content: { 'application/json': { schema: resolver(MapConfigSchema) } },
        },
      },
    }),
    async (c) => {
      try {
        return c.json(await config());
      } catch (err) {
        // A missing or broken archive must not take the map away: the built-in base stays.
        deps.log.error('map: PMTiles archive unreadable', { file: map.pmtilesFile, err });
        return c.json({ kind: 'none' } satisfies MapConfig);
      }
    },
  );
  return app;
}

/** `/map/*`: the archive and the style file, when configured. */
export function mapFileRoutes(deps: Deps) {
  const { map } = deps.config;
  const app = new Hono();
  if (map.pmtilesFile) {
    app.get('/base.pmtiles', async (c, next) => {
      await next();
      if (c.res.status !== 200 && c.res.status !== 206) return;
      c.header('Accept-Ranges', 'bytes');
      c.header('Content-Type', 'application/vnd.pmtiles');
      // Versioned by its URL (see above): a copy of a version never goes stale.
      c.header(
        'Cache-Control',
        c.req.query('v') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    });
    app.get('/base.pmtiles', serveStatic({ path: map.pmtilesFile }));
  }
  if (map.style && 'file' in map.style) {
    app.get('/style.json', async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-cache');
    });
    app.get('/style.json', serveStatic({ path: map.style.file }));
  }
  app.all('*', (c) => c.text('Não encontrado', 404));
  return app;
}
