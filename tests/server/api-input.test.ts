/**
 * API input at the trust boundary: NUL bytes and impossible dates are pt-BR 400s from the
 * shared schemas, a JSON route refuses other content types (415) and arrays where it expects
 * an object, list-length messages count items, vehicle photos of 5 MB go through, every
 * answer carries the security headers, and logs never hold credentials but do hold the
 * database's cause of a failure.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../server/app';
import type { Deps } from '../../server/deps';
import { handleError } from '../../server/platform/http/errors';
import { createLogger } from '../../server/platform/log';
import { clients, users } from '../../server/schema';
import { prepare } from '../../server/start';
import type { SessionUser, Vehicle } from '../../src/contract';
import type { VehiclePage } from './api-types';
import {
  as,
  backends,
  demoClients,
  type ErrorBody,
  jsonOf,
  prepareTest,
  testConfig,
  useServer,
} from './harness';

/** JSON log lines written while `work` runs (stdout and stderr). */
async function logsOf(work: () => Promise<void>) {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await work();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.each(await backends())('API input on %s', (backend) => {
  const server = useServer(backend);

  it('answers NUL bytes anywhere in the input with a pt-BR 400 and stores nothing', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const vehicle = { clientId: north, name: 'Nulo\u0000', plate: 'NUL1A11', type: 'car' };
    const created = await admin.call('POST', '/registros/vehicle', vehicle);
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'Requisição inválida: name: Texto com caractere inválido (NUL)',
    });
    const nested = await admin.call('POST', '/registros/client', {
      personKind: 'juridical',
      name: 'Empresa',
      clientCNPJ: '45.997.418/0001-53',
      'chave\u0000': 1,
    });
    expect(nested.status).toBe(400);
    const query = await admin.call<ErrorBody>(
      'GET',
      `/registros/vehicle?clientId=${north}&vehicleQuery=a%00b`,
    );
    expect(query.status).toBe(400);
    expect(query.body.message).toBe(
      'Requisição inválida: vehicleQuery: Texto com caractere inválido (NUL)',
    );
    const users = await admin.call('GET', '/registros/user?search=%00');
    expect(users.status).toBe(400);
    const list = await admin.call<VehiclePage>(
      'GET',
      `/registros/vehicle?clientId=${north}&limit=1000`,
    );
    expect(list.body.vehicles.map((v) => v.plate)).not.toContain('NUL1A11');
  });

  it('answers impossible dates with a pt-BR 400', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    // The last, in year 9999 as written, is year 10000 in UTC: the database refused it (500).
    const dates = [
      '0000-01-01T00:00:00Z',
      '2024-02-30T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '9999-12-31T23:00:00-05:00',
    ];
    for (const date of dates) {
      const res = await admin.call<ErrorBody>(
        'GET',
        `/registros/vehicle?clientId=${north}&updatedSince=${encodeURIComponent(date)}`,
      );
      expect(res.status, date).toBe(400);
      expect(res.body.message).toMatch(/^Requisição inválida: updatedSince: Data inválida/);
    }
    const late = encodeURIComponent('9999-12-31T23:00:00-05:00');
    const alerts = await admin.call<ErrorBody>('GET', `/registros/alerts?beginAt=${late}`);
    expect(alerts.status).toBe(400);
    expect(alerts.body.message).toMatch(/beginAt: Data inválida/);
    expect(
      (
        await admin.call(
          'GET',
          `/registros/vehicle?clientId=${north}&updatedSince=${encodeURIComponent('9999-12-31T23:59:59.999Z')}`,
        )
      ).status,
    ).toBe(200);
    const driver = await admin.call<ErrorBody>('POST', '/registros/driver', {
      clientId: north,
      completName: 'Data Impossível',
      cpf: '529.982.247-25',
      licenseExpiry: '2024-02-30',
    });
    expect(driver.status).toBe(400);
    expect(driver.body.message).toBe(
      'Requisição inválida: licenseExpiry: Validade da CNH inválida: use AAAA-MM-DD',
    );
  });

  it('answers 415 to a JSON route given another content type, changing nothing', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Tipo certo',
      plate: 'TIP1A11',
      type: 'car',
    });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const res = await s.request(`/registros/vehicle/${vehicle.body.id}`, {
        method: 'PATCH',
        token: admin.accessToken,
        headers: type ? { 'content-type': type } : {},
        body: JSON.stringify({ name: 'Trocado' }),
      });
      expect(res.status, String(type)).toBe(415);
      expect(await jsonOf<ErrorBody>(res)).toEqual({
        statusCode: 415,
        code: 'BAD_REQUEST',
        message: 'Tipo de conteúdo não suportado: envie application/json',
      });
    }
    const after = await admin.call<Vehicle>('GET', `/registros/vehicle/${vehicle.body.id}`);
    expect(after.body.name).toBe('Tipo certo');
  });

  it('answers 400 to a JSON array where an object is expected', async () => {
    const s = server();
    const admin = await as(s, 'admin@rastro.demo');
    const me = await admin.call<SessionUser>('GET', '/registros/auth/validation');
    for (const body of [[], [{ name: 'Lista' }]]) {
      const res = await admin.call<ErrorBody>('PATCH', `/registros/user/${me.body.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Corpo inválido: envie um objeto JSON');
    }
  });

  it('speaks of items, not characters, when a list is too long', async () => {
    const s = server();
    const admin = await as(s, 'admin@rastro.demo');
    const ids = Array.from({ length: 501 }, () => crypto.randomUUID());
    const res = await admin.call<ErrorBody>(
      'POST',
      '/registros/temporaryUser/create_temporary_link',
      {
        name: 'Muitos',
        vehicleIds: ids,
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Requisição inválida: vehicleIds: Deve ter no máximo 500 itens');
  });

  it('takes a 5 MB vehicle photo and refuses a bigger upload in pt-BR', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const operator = await as(s, 'operador.norte@rastro.demo');
    const vehicle = await operator.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Foto grande',
      plate: 'BIG5M55',
      type: 'van',
    });
    const jpeg = (bytes: number) => {
      const data = new Uint8Array(bytes).fill(7);
      data.set([0xff, 0xd8, 0xff, 0xe0]);
      return data;
    };
    const upload = (files: Uint8Array<ArrayBuffer>[]) => {
      const form = new FormData();
      for (const [i, file] of files.entries())
        form.append('files', new File([file], `foto-${i}.jpg`));
      return s.request(`/registros/upload-images/vehicle/${vehicle.body.id}`, {
        method: 'POST',
        body: form,
        token: operator.accessToken,
      });
    };
    const photo = await upload([jpeg(5 * 1024 * 1024 - 1024)]);
    expect(photo.status).toBe(201);
    const over = await upload([jpeg(5 * 1024 * 1024 + 1024)]);
    expect(over.status).toBe(400);
    expect((await jsonOf<ErrorBody>(over)).message).toBe('foto-0.jpg: imagem maior que 5 MB');
    // Other routes keep the 1 MB limit.
    const big = await operator.call('POST', '/registros/vehicle', {
      clientId: north,
      name: 'x'.repeat(2 * 1024 * 1024),
      plate: 'BIG6M66',
      type: 'van',
    });
    expect(big.status).toBe(413);
  });

  it('puts the security headers on API answers and uploads', async () => {
    const s = server();
    const admin = await as(s, 'admin@rastro.demo');
    for (const res of [
      await s.request('/registros/auth/validation'),
      await s.request('/registros/auth/validation', { token: admin.accessToken }),
      await s.request('/registros/vehicle-images/00000000-0000-4000-8000-000000000000', {
        token: admin.accessToken,
      }),
    ]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('permissions-policy')).toContain('camera=()');
    }
  });
});

describe('security headers of the PWA', () => {
  let deps: Deps;
  const root = path.join(process.cwd(), '.tmp', 'csp-static');

  beforeAll(async () => {
    mkdirSync(path.join(root, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Rastro</title>');
    writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
    deps = await prepareTest({
      STATIC_DIR: root,
      MAP_TILE_URL: 'https://{s}.tiles.exemplo.com.br/{z}/{x}/{y}.png',
      FIREBASE_HOSTS: 'https://fcmregistrations.googleapis.com',
    });
  });
  afterAll(() => deps.database.close());

  it('allow only this origin, the tile server and the Firebase hosts configured', async () => {
    const app = createApp(deps);
    for (const at of ['/', '/temp-access/abc', '/assets/app.js']) {
      const res = await app.request(at);
      expect(res.status, at).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("img-src 'self' data: blob: https://*.tiles.exemplo.com.br");
      expect(csp).toContain(
        "connect-src 'self' https://*.tiles.exemplo.com.br https://fcmregistrations.googleapis.com",
      );
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('keep the OpenStreetMap tiles of the default build', async () => {
    const local = await prepareTest();
    const res = await createApp(local, { serveStatic: false }).request('/health');
    expect(res.headers.get('content-security-policy')).toContain(
      "img-src 'self' data: blob: https://tile.openstreetmap.org",
    );
    await local.database.close();
  });
});

describe('logs', () => {
  it('carry the database cause of a failure', async () => {
    const entries = await logsOf(async () => {
      const cause = Object.assign(new Error('value too long for type character varying(2)'), {
        code: '22001',
        detail: 'coluna estado',
      });
      const err = new Error('Failed query: update clients set state = $1', { cause });
      const { Hono } = await import('hono');
      const app = new Hono();
      app.onError(handleError(createLogger('error')));
      app.get('/x', () => {
        throw err;
      });
      const res = await app.request('/x');
      expect(res.status).toBe(500);
      expect(await jsonOf<ErrorBody>(res)).toEqual({
        statusCode: 500,
        code: 'SERVER_ERROR',
        message: 'Erro interno no servidor',
      });
    });
    const failure = entries.find((e) => e.msg === 'request failed');
    expect(failure?.err).toMatchObject({
      message: 'Failed query: update clients set state = $1',
      cause: { code: '22001', detail: 'coluna estado' },
    });
  });

  it('never carry a temporary link token nor, outside the demo, a set-password link', async () => {
    let deps: Deps | undefined;
    const entries = await logsOf(async () => {
      // The real start path of a production server: no demo, no SMTP, debug logs.
      deps = await prepare(testConfig({ SEED_DEMO: 'false' }), createLogger('debug'));
      const { db } = deps.database;
      const [client] = await db
        .insert(clients)
        .values({ kind: 'juridical', name: 'Produção', document: '45997418000153' })
        .returning();
      await db.insert(users).values({
        clientId: client?.id ?? '',
        email: 'gente@producao.com.br',
        name: 'Gente',
        role: 'MANAGER',
      });
      const app = createApp(deps, { serveStatic: false });
      const res = await app.request('/registros/auth/forgetPassword', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'gente@producao.com.br' }),
      });
      expect(res.status).toBe(200);
      await app.request('/registros/temp-access/segredo-do-link-123');
    });
    await deps?.database.close();
    const text = JSON.stringify(entries);
    expect(entries.some((e) => e.to === 'gente@producao.com.br')).toBe(true);
    expect(text).not.toContain('recover-password');
    expect(text).not.toContain('token=');
    expect(text).not.toContain('segredo-do-link');
    expect(entries.some((e) => e.path === '/registros/temp-access/…')).toBe(true);
  });
});
