/**
 * The driving score's weights per company: the known set of events scored with a company's
 * saved weights, another company still on the defaults, the report (JSON, files, automated)
 * made with the new weights at once although reports are cached, bad input refused in pt-BR,
 * a Terceiro and another company refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedAlerts } from '../../server/reports/alerts';
import { type DrivingEvent, drivingScore } from '../../server/reports/driving';
import { monthOf } from '../../server/reports/driving-report';
import { documentFor } from '../../server/reports/files/documents';
import { rowsOf } from '../../server/reports/files/model';
import type { RunningServer } from '../../server/start';
import {
  type AuditPage,
  DRIVING_WEIGHTS,
  type DrivingReport,
  type DrivingSettings,
  type DrivingWeights,
} from '../../src/contract';
import {
  type Caller,
  customers,
  driveThenBrake,
  signIn,
  startReal,
  vehicleWithTracker,
} from './alert-fixtures';
import { backends, databaseFor } from './harness';
import { reportText } from './report-readers';

const SETTINGS = '/registros/reports/v2/driving/settings';

/** The events that score exactly 83 on 150 km with the defaults (driving-score.test.ts). */
const KNOWN: DrivingEvent[] = (
  [
    ['speedingVerySerious', null],
    ['speedingSerious', null],
    ['speedingMedium', null],
    ['harshBraking', null],
    ['harshAcceleration', null],
    ['harshCornering', null],
    ['idling', 900],
  ] as const
).map(([kind, value]) => ({
  kind,
  at: 0,
  rfid: 'TAG1',
  value,
  limit: null,
  source: 'speed',
}));

/** 15 + 5 + 1 + 4 + 2 + 0 + 4.5 (15 min at 3 per 10 min) = 31.5 points on 150 km: 21 per 100. */
const OWN: DrivingWeights = {
  speedingVerySerious: 15,
  speedingSerious: 5,
  speedingMedium: 1,
  harshBraking: 4,
  harshAcceleration: 2,
  harshCornering: 0,
  idling: 3,
};

const ZERO: DrivingWeights = {
  speedingVerySerious: 0,
  speedingSerious: 0,
  speedingMedium: 0,
  harshBraking: 0,
  harshAcceleration: 0,
  harshCornering: 0,
  idling: 0,
};

describe.each(await backends())('the driving weights per company on %s', (backend) => {
  let server: RunningServer;
  let drop: () => Promise<void>;
  let admin: Caller;
  let northManager: Caller;
  let southManager: Caller;
  let north = '';
  let south = '';
  const month = monthOf(Date.now());
  const NORTH_DRIVER = 'Motorista dos Pesos do Norte';
  const SOUTH_DRIVER = 'Motorista dos Pesos do Sul';
  const TAG = '00FA11CE33';

  const report = async (caller: Caller, clientId?: string) => {
    const res = await caller.call<DrivingReport>(
      'GET',
      `/registros/reports/v2/driving?month=${month}${clientId ? `&clientId=${clientId}` : ''}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const scoreOf = (body: DrivingReport, name: string) =>
    body.drivers.find((d) => d.name === name)?.score;
  const save = (caller: Caller, clientId: string, weights: unknown, idleMinutes: unknown = 5) =>
    caller.call<DrivingSettings & { message?: string }>('PUT', SETTINGS, {
      clientId,
      weights,
      idleMinutes,
    });

  beforeAll(async () => {
    const database = await databaseFor(backend);
    drop = database.drop;
    server = await startReal(database.env);
    admin = await signIn(server.url, 'admin@rastro.demo');
    northManager = await signIn(server.url, 'gestor.norte@rastro.demo');
    southManager = await signIn(server.url, 'gestor.sul@rastro.demo');
    ({ north, south } = await customers(admin));
    for (const [clientId, name, cpf] of [
      [north, NORTH_DRIVER, '52998224725'],
      [south, SOUTH_DRIVER, '11144477735'],
    ] as const) {
      const res = await admin.call('POST', '/registros/driver', {
        clientId,
        completName: name,
        cpf,
        rfidCode: TAG,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await vehicleWithTracker(admin, north, 'PES1N11', 'trk-weights-north');
    await vehicleWithTracker(admin, south, 'PES2S22', 'trk-weights-south');
    const from = Date.now() - 50 * 60_000;
    await driveThenBrake(server.osmandPort ?? 0, 'trk-weights-north', TAG, from, 100);
    await driveThenBrake(server.osmandPort ?? 0, 'trk-weights-south', TAG, from, 100);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it('answers the defaults for a company that never changed them', async () => {
    const res = await northManager.call<DrivingSettings>('GET', `${SETTINGS}?clientId=${north}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      clientId: north,
      weights: DRIVING_WEIGHTS,
      idleMinutes: 5,
      custom: false,
    });
    expect(drivingScore(KNOWN, 150, res.body.weights)).toBe(83);
  });

  it('scores the known events with the company’s weights, another company with the defaults', async () => {
    const saved = await save(northManager, north, OWN, 7);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toEqual({ clientId: north, weights: OWN, idleMinutes: 7, custom: true });
    const northSettings = await northManager.call<DrivingSettings>(
      'GET',
      `${SETTINGS}?clientId=${north}`,
    );
    expect(drivingScore(KNOWN, 150, northSettings.body.weights)).toBe(79);
    const southSettings = await southManager.call<DrivingSettings>(
      'GET',
      `${SETTINGS}?clientId=${south}`,
    );
    expect(southSettings.body.custom).toBe(false);
    expect(drivingScore(KNOWN, 150, southSettings.body.weights)).toBe(83);
    // The report says which weights it used.
    const body = await report(northManager);
    expect(body.weights).toEqual(OWN);
    expect(body.idleMinutes).toBe(7);
    expect((await report(southManager)).weights).toEqual(DRIVING_WEIGHTS);

    const audit = await northManager.call<AuditPage>(
      'GET',
      `/registros/audit?entity=driving_settings&clientId=${north}`,
    );
    expect(audit.status).toBe(200);
    expect(audit.body.events.map((e) => e.entityId)).toContain(north);
  });

  it('makes the report with the saved weights at once, not the cached score', async () => {
    // Cached with the defaults first, for both companies.
    // The defaults restored are not the company's own any more.
    expect((await save(northManager, north, DRIVING_WEIGHTS, 5)).body.custom).toBe(false);
    const before = await report(northManager);
    const southBefore = scoreOf(await report(southManager), SOUTH_DRIVER);
    const first = scoreOf(before, NORTH_DRIVER) ?? 0;
    // 100 km/h on 80 ('grave', 5) and the hard stop (3) on about 25 km.
    expect(first).toBeGreaterThan(60);
    expect(first).toBeLessThan(75);
    expect(southBefore).toBe(first);

    expect((await save(northManager, north, ZERO)).status).toBe(200);
    const free = await report(northManager);
    expect(scoreOf(free, NORTH_DRIVER)).toBe(100);
    expect(free.weights).toEqual(ZERO);

    // 50 points for the one 'grave' on about 25 km: 200 per 100 km, so nothing is left.
    expect((await save(northManager, north, { ...ZERO, speedingSerious: 50 })).status).toBe(200);
    expect(scoreOf(await report(northManager), NORTH_DRIVER)).toBe(0);
    // Chosen by a manager above it, the report of Norte is made with Norte's weights too.
    expect(scoreOf(await report(admin, north), NORTH_DRIVER)).toBe(0);

    // The other company keeps its score and the defaults.
    const southAfter = await report(southManager);
    expect(scoreOf(southAfter, SOUTH_DRIVER)).toBe(southBefore);
    expect(southAfter.weights).toEqual(DRIVING_WEIGHTS);
  });

  it('writes the weights used in the XLSX, the PDF and the automated report', async () => {
    for (const format of ['excel', 'pdf'] as const) {
      const res = await fetch(
        `${server.url}/registros/reports/v2/download/driving?month=${month}&format=${format}`,
        { headers: { authorization: `Bearer ${northManager.token}` } },
      );
      expect(res.status).toBe(200);
      const text = await reportText(await res.arrayBuffer(), format);
      expect(text).toContain('Pontos: Grave');
      expect(text).toContain('50');
      expect(text).toContain('Marcha lenta acima de');
    }
    const doc = await documentFor(
      'DRIVING',
      {
        db: server.deps.database.db,
        alerts: storedAlerts,
        customer: 'Transportes Norte',
        beginAt: new Date(Date.now() - 7 * 86_400_000),
        endAt: new Date(),
        generatedAt: new Date(),
      },
      { vehicles: [], drivers: [], clientIds: [north] },
      'pdf',
    );
    expect(doc.summary).toContainEqual(['Pontos: Grave', '50', 'text']);
    const rows = [];
    for await (const row of rowsOf(doc.tables[0]?.rows ?? [])) rows.push(row);
    expect(rows.find((row) => row[1] === NORTH_DRIVER)?.[3]).toBe('0');
  });

  it('refuses bad weights in pt-BR and changes nothing', async () => {
    const before = await northManager.call<DrivingSettings>('GET', `${SETTINGS}?clientId=${north}`);
    const cases: [unknown, unknown, string][] = [
      [{ ...OWN, harshBraking: 51 }, 5, 'Cada peso vai de 0 a 50 pontos'],
      [{ ...OWN, idling: -1 }, 5, 'Cada peso vai de 0 a 50 pontos'],
      [{ ...OWN, harshBraking: '3' }, 5, 'Informe o peso em pontos'],
      [OWN, 0, 'Marcha lenta: de 1 a 60 minutos'],
      [OWN, 61, 'Marcha lenta: de 1 a 60 minutos'],
      [OWN, 2.5, 'Marcha lenta: minutos inteiros'],
    ];
    for (const [weights, idle, message] of cases) {
      const res = await save(northManager, north, weights, idle);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    }
    const { harshCornering: _, ...missing } = OWN;
    expect((await save(northManager, north, missing)).status).toBe(400);
    expect((await save(northManager, north, { ...OWN, extra: 1 })).status).toBe(400);
    const after = await northManager.call<DrivingSettings>('GET', `${SETTINGS}?clientId=${north}`);
    expect(after.body).toEqual(before.body);
  });

  it('refuses a Terceiro (403), an operator’s change (403) and another company (404)', async () => {
    const before = await northManager.call<DrivingSettings>('GET', `${SETTINGS}?clientId=${north}`);
    const visitor = await signIn(server.url, 'terceiro@rastro.demo');
    // The demo's Terceiro belongs to the top company.
    const { mother: visitorClient } = await customers(admin);
    expect((await visitor.call('GET', `${SETTINGS}?clientId=${visitorClient}`)).status).toBe(403);
    expect((await save(visitor, visitorClient, OWN)).status).toBe(403);

    const operator = await signIn(server.url, 'operador.sul@rastro.demo');
    expect((await operator.call('GET', `${SETTINGS}?clientId=${south}`)).status).toBe(200);
    expect((await save(operator, south, OWN)).status).toBe(403);

    expect((await southManager.call('GET', `${SETTINGS}?clientId=${north}`)).status).toBe(404);
    expect((await save(southManager, north, ZERO)).status).toBe(404);
    const after = await northManager.call<DrivingSettings>('GET', `${SETTINGS}?clientId=${north}`);
    expect(after.body).toEqual(before.body);
    const southNow = await southManager.call<DrivingSettings>(
      'GET',
      `${SETTINGS}?clientId=${south}`,
    );
    expect(southNow.body.custom).toBe(false);
  });
});
