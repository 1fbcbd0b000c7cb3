/**
 * A Terceiro walks every report, report-file and automated-report route the server has. He is
 * linked to one vehicle of his company; another vehicle, a driver and a geofence of the same
 * company are not his to see. Each route either answers for his vehicle without naming any of
 * them, or refuses (403/404) — never data he cannot see elsewhere. A report route added to the
 * server without a line here fails the last test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import type { RunningServer } from '../../server/start';
import { DRIVING_WEIGHTS } from '../../src/contract';
import {
  type Caller,
  customers,
  epoch,
  osmand,
  signIn,
  startReal,
  vehicleWithTracker,
} from './alert-fixtures';
import { backends, databaseFor, parseBody } from './harness';
import { pdfPages, readXlsx } from './report-readers';

const MINUTE = 60_000;
const SECRET_FENCE = 'Cerca Sigilosa do Pátio';
const SECRET_DRIVER = 'Motorista Reservado da Silva';
const HIDDEN_PLATE = 'VSH2B22';
const LINKED_PLATE = 'VSL1A11';
/** What the Terceiro may not read anywhere: the words of what is not his. */
const SECRETS = [SECRET_FENCE, SECRET_DRIVER, HIDDEN_PLATE];

const REPORT_ROUTES = /^\/registros\/(reports|report-files|crud-reports-processor)(\/|$)/;

interface Ids {
  linked: string;
  hidden: string;
  driver: string;
  fence: string;
  company: string;
  request: string;
  autoRule: string;
}
/**
 * `own`: answers for his own vehicle (then the same call on the hidden vehicle must be
 * refused, when `other` is given). `refused`: never answers him. `list`: answers a list that
 * must not name anything of the others.
 */
type Walk =
  | { own: (ids: Ids) => string; other?: (ids: Ids) => string; method?: string; body?: unknown }
  | { refused: (ids: Ids) => { path: string; body?: unknown }; method?: string }
  | { list: (ids: Ids) => string }
  | { exempt: string };

describe.each(await backends())('report routes as a Terceiro on %s', (backend) => {
  let server: RunningServer;
  let drop: () => Promise<void>;
  let visitor: Caller;
  const ids = {} as Ids;
  const start = new Date(Math.floor((Date.now() - 2 * 60 * MINUTE) / 1000) * 1000);
  const period = () =>
    `beginAt=${start.toISOString()}&endAt=${new Date(Date.now() + MINUTE).toISOString()}`;

  /** Through the fence and out, with the driver's tag read. */
  async function drive(identifier: string, from: Date) {
    const port = server.osmandPort ?? 0;
    for (let i = 0; i < 10; i += 1) {
      const status = await osmand(port, {
        id: identifier,
        lat: (-23.56 + i * 0.002).toFixed(6),
        lon: '-46.640000',
        speed: 10,
        driverUniqueId: '00A1B2C3D4',
        timestamp: epoch(new Date(from.getTime() + i * MINUTE)),
      });
      expect(status).toBe(200);
    }
  }

  beforeAll(async () => {
    const database = await databaseFor(backend);
    drop = database.drop;
    server = await startReal(database.env);
    const admin = await signIn(server.url, 'admin@rastro.demo');
    const { mother } = await customers(admin);
    ids.company = mother;
    const linked = await vehicleWithTracker(admin, mother, LINKED_PLATE, 'trk-visitor-linked');
    const hidden = await vehicleWithTracker(admin, mother, HIDDEN_PLATE, 'trk-visitor-hidden');
    ids.linked = linked.vehicleId;
    ids.hidden = hidden.vehicleId;
    const driver = await admin.call<{ id: string }>('POST', '/registros/driver', {
      clientId: mother,
      completName: SECRET_DRIVER,
      cpf: '98765432100',
      rfidCode: '00A1B2C3D4',
    });
    expect(driver.status, JSON.stringify(driver.body)).toBe(201);
    ids.driver = driver.body.id;
    const fence = await admin.call<{ id: string }>('POST', '/registros/geofence', {
      clientId: mother,
      name: SECRET_FENCE,
      geometry: { type: 'Circle', center: [-46.64, -23.55], radius: 300 },
    });
    expect(fence.status).toBe(201);
    ids.fence = fence.body.id;
    await drive('trk-visitor-linked', start);
    await drive('trk-visitor-hidden', start);
    const request = await admin.call<{ id: string }>('POST', '/registros/reports', {
      reportType: 'TRIPS',
      vehicleIds: [ids.hidden],
      beginAt: start.toISOString(),
      endAt: new Date().toISOString(),
    });
    expect(request.status, JSON.stringify(request.body)).toBeLessThan(300);
    ids.request = request.body.id;
    const rule = await admin.call<{ id: string }>('POST', '/registros/crud-reports-processor', {
      name: `Diário ${HIDDEN_PLATE}`,
      reportType: 'TRIPS',
      periodicity: 'DAILY',
      vehicleIds: [ids.hidden],
      emailDelivery: 'gestor@rastro.demo',
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    ids.autoRule = rule.body.id;

    visitor = await signIn(server.url, 'terceiro@rastro.demo');
    const link = await admin.call('POST', `/registros/visitor-role/add-vehicle/${visitor.userId}`, {
      vehicle: ids.linked,
    });
    expect(link.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  const base = '/registros/reports';
  const auto = '/registros/crud-reports-processor';
  const single = (path: string, format = ''): Walk => ({
    own: (i) => `${base}/${path}/${i.linked}?${period()}${format}`,
    other: (i) => `${base}/${path}/${i.hidden}?${period()}${format}`,
  });
  const many = (path: string, format = ''): Walk => ({
    own: (i) => `${base}/${path}?vehicleIds=${i.linked}&${period()}${format}`,
    other: (i) => `${base}/${path}?vehicleIds=${i.linked},${i.hidden}&${period()}${format}`,
  });
  const excel = '&format=excel';
  const WALK: Record<string, Walk> = {
    [`GET ${base}/history/:vehicleId`]: single('history'),
    [`GET ${base}/positions/:vehicleId`]: single('positions'),
    [`GET ${base}/trips/:vehicleId`]: single('trips'),
    [`GET ${base}/distance/:vehicleId`]: single('distance'),
    [`GET ${base}/light_final_report/:vehicleId`]: single('light_final_report'),
    [`GET ${base}/geofence/:vehicleId`]: single('geofence'),
    [`GET ${base}/by-fence/:geofenceId`]: {
      refused: (i) => ({ path: `${base}/by-fence/${i.fence}?${period()}` }),
    },
    [`GET ${base}/v2/trips`]: many('v2/trips'),
    [`GET ${base}/v2/distance`]: many('v2/distance'),
    [`GET ${base}/v2/light_final_report`]: many('v2/light_final_report'),
    [`GET ${base}/v2/drivers`]: {
      refused: (i) => ({ path: `${base}/v2/drivers?driverIds=${i.driver}&${period()}` }),
    },
    [`GET ${base}/v2/drivers/:id`]: {
      refused: (i) => ({ path: `${base}/v2/drivers/${i.driver}?${period()}` }),
    },
    [`GET ${base}/trip-settings/:clientId`]: {
      exempt: 'as regras de viagem da empresa (distâncias e tempos), sem registro de ninguém',
    },
    [`PUT ${base}/trip-settings/:clientId`]: {
      method: 'PUT',
      refused: (i) => ({ path: `${base}/trip-settings/${i.company}`, body: { minDistance: 300 } }),
    },
    [`GET ${base}`]: { list: () => `${base}?limit=100` },
    [`POST ${base}`]: {
      method: 'POST',
      refused: (i) => ({
        path: base,
        body: {
          reportType: 'TRIPS',
          vehicleIds: [i.hidden],
          beginAt: start.toISOString(),
          endAt: new Date().toISOString(),
        },
      }),
    },
    [`GET ${base}/:id`]: { refused: (i) => ({ path: `${base}/${i.request}` }) },
    [`DELETE ${base}/:id`]: {
      method: 'DELETE',
      refused: (i) => ({ path: `${base}/${i.request}` }),
    },
    [`GET ${base}/download/positions/:vehicleId`]: single('download/positions', excel),
    [`GET ${base}/download/trips/:vehicleId`]: single('download/trips', excel),
    [`GET ${base}/download/history/:vehicleId`]: single('download/history', '&format=pdf'),
    [`GET ${base}/download/distance/:vehicleId`]: single('download/distance', excel),
    [`GET ${base}/v2/download/distance`]: many('v2/download/distance', excel),
    [`GET ${base}/v2/download/trips`]: many('v2/download/trips', excel),
    [`GET ${base}/v2/download/positions`]: many('v2/download/positions', excel),
    [`GET ${base}/v2/download/history`]: many('v2/download/history', '&format=pdf'),
    [`GET ${base}/v2/download/light_final_report`]: many('v2/download/light_final_report', excel),
    [`GET ${base}/v2/download/drivers`]: {
      refused: (i) => ({
        path: `${base}/v2/download/drivers?driverIds=${i.driver}&${period()}${excel}`,
      }),
    },
    [`GET ${base}/v2/driving`]: {
      refused: () => ({ path: `${base}/v2/driving?month=${new Date().toISOString().slice(0, 7)}` }),
    },
    [`GET ${base}/v2/driving/settings`]: {
      refused: (i) => ({ path: `${base}/v2/driving/settings?clientId=${i.company}` }),
    },
    [`PUT ${base}/v2/driving/settings`]: {
      method: 'PUT',
      refused: (i) => ({
        path: `${base}/v2/driving/settings`,
        body: { clientId: i.company, weights: DRIVING_WEIGHTS, idleMinutes: 5 },
      }),
    },
    [`GET ${base}/v2/download/driving`]: {
      refused: () => ({
        path: `${base}/v2/download/driving?month=${new Date().toISOString().slice(0, 7)}${excel}`,
      }),
    },
    [`GET ${base}/v2/geofence/download`]: many('v2/geofence/download', excel),
    'GET /registros/report-files/:token': {
      exempt: 'público: o token aleatório do link enviado por e-mail é a credencial',
    },
    [`GET ${auto}`]: { list: () => `${auto}?limit=100` },
    [`POST ${auto}`]: {
      method: 'POST',
      refused: (i) => ({
        path: auto,
        body: {
          name: 'Do Terceiro',
          reportType: 'TRIPS',
          periodicity: 'DAILY',
          vehicleIds: [i.linked],
          emailDelivery: 'terceiro@rastro.demo',
        },
      }),
    },
    [`GET ${auto}/:id`]: { refused: (i) => ({ path: `${auto}/${i.autoRule}` }) },
    [`PUT ${auto}/:id`]: {
      method: 'PUT',
      refused: (i) => ({ path: `${auto}/${i.autoRule}`, body: { active: false } }),
    },
    [`DELETE ${auto}/:id`]: {
      method: 'DELETE',
      refused: (i) => ({ path: `${auto}/${i.autoRule}` }),
    },
    [`POST ${auto}/:id/send`]: {
      method: 'POST',
      refused: (i) => ({ path: `${auto}/${i.autoRule}/send` }),
    },
  };

  /** A response's words, whatever it is: JSON, a spreadsheet or a PDF. */
  async function textOf(res: Response): Promise<string> {
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('spreadsheetml')) {
      const book = await readXlsx(await res.arrayBuffer());
      const words: string[] = [];
      for (const sheet of book.worksheets)
        sheet.eachRow((row) => {
          words.push(JSON.stringify(row.values));
        });
      return words.join('\n');
    }
    if (type.includes('pdf')) return (await pdfPages(await res.arrayBuffer())).join('\n');
    return JSON.stringify(await parseBody(res));
  }

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${visitor.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('answers him only about his own vehicle, never naming what is not his', async () => {
    let walked = 0;
    for (const [key, walk] of Object.entries(WALK)) {
      if ('exempt' in walk) continue;
      walked += 1;
      if ('refused' in walk) {
        const { path, body } = walk.refused(ids);
        const res = await call(walk.method ?? 'GET', path, body);
        expect([403, 404], `${key}: ${res.status} ${await res.text()}`).toContain(res.status);
        continue;
      }
      if ('list' in walk) {
        const res = await call('GET', walk.list(ids));
        const text = await textOf(res);
        expect(res.status, `${key}: ${text}`).toBe(200);
        for (const secret of [...SECRETS, ids.request, ids.autoRule])
          expect(text, `${key} names ${secret}`).not.toContain(secret);
        continue;
      }
      const res = await call(walk.method ?? 'GET', walk.own(ids), walk.body);
      const text = await textOf(res);
      expect(res.status, `${key}: ${text.slice(0, 300)}`).toBe(200);
      for (const secret of SECRETS) expect(text, `${key} names ${secret}`).not.toContain(secret);
      if (walk.other) {
        const other = await call(walk.method ?? 'GET', walk.other(ids), walk.body);
        expect([403, 404], `${key} on the hidden vehicle: ${other.status}`).toContain(other.status);
      }
    }
    expect(walked).toBeGreaterThan(30);
  }, 120_000);

  it('names no driver on his map either', async () => {
    const res = await call('GET', '/registros/real-time/lastLocation');
    const text = await textOf(res);
    expect(res.status).toBe(200);
    expect(text).toContain(LINKED_PLATE);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it('walks every report route the server has', () => {
    const app = createApp(server.deps, { serveStatic: false });
    const routes = [
      ...new Set(
        app.routes
          .filter((r) => r.method !== 'ALL' && REPORT_ROUTES.test(r.path))
          .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`),
      ),
    ].sort();
    expect(routes).toEqual(Object.keys(WALK).sort());
  });
});
