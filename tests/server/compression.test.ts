/**
 * Smaller answers: API JSON compressed with brotli or gzip as the client accepts (the live
 * stream never, so no event waits in a compressor), the compact `lastLocation` that expands
 * to exactly the default answer, and static files: the build's compressed copies of assets
 * served with the right Content-Encoding and Vary, the others compressed as they are sent.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { negotiate } from '../../server/platform/http/compress';
import { staticRoutes } from '../../server/platform/static';
import {
  type CompactLocations,
  expandLocations,
  type LocationItem,
  type Vehicle,
} from '../../src/contract';
import { as, backends, demoClients, type TestServer, useServer } from './harness';

async function body(res: Response): Promise<string> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const encoding = res.headers.get('content-encoding');
  if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

/** Forty vehicles with trackers and a fix each, some named as the default, one tracker alone. */
async function fleet(s: TestServer) {
  const { north, south } = await demoClients(s);
  const admin = await as(s, 'admin@rastro.demo');
  for (let i = 0; i < 40; i += 1) {
    const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: i % 2 ? north : south,
      name: i % 5 === 0 ? 'Veículo' : `Caminhão ${i}`,
      plate: `CMP${i % 10}A${String(i).padStart(2, '0')}`,
      type: ['truck', 'car', 'van'][i % 3],
    });
    expect(vehicle.status).toBe(201);
    await admin.call('POST', '/registros/tracker', {
      clientId: i % 2 ? north : south,
      identifier: `zip-${i}`,
      provider: 'rastro',
      vehicleId: vehicle.body.id,
    });
  }
  await admin.call('POST', '/registros/tracker', {
    clientId: north,
    identifier: 'zip-alone',
    provider: 'rastro',
  });
  const at = Date.now() - 60_000;
  await Promise.all(
    [...Array.from({ length: 40 }, (_, i) => `zip-${i}`), 'zip-alone'].map((id, i) =>
      s.deps.pipeline.accept(id, [
        {
          fixTime: new Date(at + i * 1000),
          latitude: -8.05 - i / 1000,
          longitude: -34.9 + i / 1000,
          speed: i % 3 ? 42.5 : undefined,
          course: i * 9,
          ignition: i % 4 ? true : undefined,
          attributes: {},
        },
      ]),
    ),
  );
  return admin;
}

describe('choosing an encoding', () => {
  it('prefers brotli, honours q-values and refuses what the client refuses', () => {
    expect(negotiate('gzip, deflate, br')).toBe('br');
    expect(negotiate('gzip')).toBe('gzip');
    expect(negotiate('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(negotiate('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(negotiate('*')).toBe('br');
    expect(negotiate('identity')).toBeUndefined();
    expect(negotiate('br;q=0, gzip;q=0')).toBeUndefined();
    expect(negotiate(undefined)).toBeUndefined();
  });
});

describe.each(await backends())('compressed API answers on %s', (backend) => {
  const server = useServer(backend);

  it('sends lastLocation with brotli or gzip, the same JSON once decoded', async () => {
    const s = server();
    const admin = await fleet(s);
    const token = admin.accessToken;
    const plain = await s.request('/registros/real-time/lastLocation', {
      token,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');
    const expected = await plain.text();
    expect(expected.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip']) {
      const res = await s.request('/registros/real-time/lastLocation', {
        token,
        headers: { 'accept-encoding': encoding },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await body(res)).toBe(expected);
    }
  });

  it('leaves small answers and the live stream uncompressed', async () => {
    const s = server();
    const admin = await as(s, 'admin@rastro.demo');
    const small = await s.request('/registros/auth/validation', {
      token: admin.accessToken,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
    const stream = await s.request('/registros/real-time/stream', {
      token: admin.accessToken,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('content-encoding')).toBeNull();
    await stream.body?.cancel();
  });

  it('gives the compact lastLocation, which expands to exactly the default answer', async () => {
    const s = server();
    const admin = await as(s, 'admin@rastro.demo');
    const items = (await admin.call<LocationItem[]>('GET', '/registros/real-time/lastLocation'))
      .body;
    expect(items.length).toBeGreaterThanOrEqual(41);
    expect(items.some((item) => item.type === 'tracker')).toBe(true);
    expect(items.some((item) => item.name === 'Veículo')).toBe(true);
    const compact = await admin.call<CompactLocations>(
      'GET',
      '/registros/real-time/lastLocation?format=compact',
    );
    expect(compact.status).toBe(200);
    const parsed = compact.body;
    expect(parsed.format).toBe('compact');
    expect(expandLocations(parsed)).toEqual(items);
    expect(JSON.stringify(parsed).length).toBeLessThan(JSON.stringify(items).length / 2);

    // The same filters apply to both forms.
    const { north } = await demoClients(s);
    const northOnly = (
      await admin.call<LocationItem[]>('GET', `/registros/real-time/lastLocation?clientId=${north}`)
    ).body;
    const northCompact = await admin.call<CompactLocations>(
      'GET',
      `/registros/real-time/lastLocation?clientId=${north}&format=compact`,
    );
    expect(expandLocations(northCompact.body)).toEqual(northOnly);

    const wrong = await admin.call('GET', '/registros/real-time/lastLocation?format=tiny');
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('Formato inválido');
  });
});

describe('static files', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'rastro-static-'));
  const script = `console.log(${JSON.stringify('Rastro '.repeat(400))});\n`;
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Rastro</title>');
  writeFileSync(path.join(root, 'assets/app-1a2b3c.js'), script);
  writeFileSync(path.join(root, 'assets/app-1a2b3c.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(root, 'assets/app-1a2b3c.js.gz'), gzipSync(script));
  writeFileSync(path.join(root, 'firebase-messaging-sw.js'), script);
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const app = staticRoutes(root);

  it("sends the build's compressed copy of an asset the client accepts, with Vary", async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await app.request('/assets/app-1a2b3c.js', {
        headers: { 'accept-encoding': accept },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(await body(res)).toBe(script);
    }
    const plain = await app.request('/assets/app-1a2b3c.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');
    expect(await plain.text()).toBe(script);
  });

  it('compresses the files outside assets/ as it sends them (they change in place)', async () => {
    writeFileSync(path.join(root, 'firebase-messaging-sw.js'), `${script}// nova versão\n`);
    const res = await app.request('/firebase-messaging-sw.js', {
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('service-worker-allowed')).toBe('/');
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
    expect(await body(res)).toBe(`${script}// nova versão\n`);
  });
});
