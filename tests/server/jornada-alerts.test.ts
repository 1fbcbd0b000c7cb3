/**
 * The working-day alerts through a real server: JORNADA_DRIVING_LIMIT at 5 h of continuous
 * driving by the driver's tag (not at 4 h 59), once per stretch; JORNADA_REST_SHORT when a
 * journey begins after 9 h of rest, once.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { StoredAlert } from '../../server/alerts/notifier';
import type { Fix } from '../../server/ingest/queries/positions';
import { pushMessage } from '../../server/push/message';
import { alerts as alertRows } from '../../server/schema';
import type { AlertPage, AlertRule, Driver } from '../../src/contract';
import { as, backends, demoClients, type TestServer, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';

const MIN = 60_000;

/** Where the last fix was: each segment goes on from there. */
let lon = -46.6;
/** Fixes each `step` minutes over [from, to): standing with the ignition off, or at 60 km/h. */
function fixes(from: number, to: number, moving: boolean, tag: string, step = 1): Fix[] {
  const out: Fix[] = [];
  for (let t = from; t < to; t += step * MIN) {
    if (moving) lon += 0.01;
    out.push({
      fixTime: new Date(t),
      latitude: -23.5,
      longitude: lon,
      speed: moving ? 60 : 0,
      ignition: moving,
      driverRfid: moving ? tag : undefined,
      attributes: {},
    });
  }
  return out;
}

async function setup(s: TestServer, type: string, cpf: string, tag: string) {
  const { north } = await demoClients(s);
  const manager = await as(s, 'gestor.norte@rastro.demo');
  const driver = await manager.call<Driver>('POST', '/registros/driver', {
    clientId: north,
    completName: `Motorista ${tag}`,
    cpf,
    rfidCode: tag,
  });
  expect(driver.status, JSON.stringify(driver.body)).toBe(201);
  const v = await vehicleWithTracker(s, north);
  const rule = await manager.call<AlertRule>('POST', '/registros/alert-rules', {
    clientId: north,
    name: 'Jornada',
    type,
    vehicleIds: [v.vehicleId],
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);
  const alerts = async () =>
    (
      await manager.call<AlertPage>(
        'GET',
        `/registros/alerts?vehicleId=${v.vehicleId}&type=${type}`,
      )
    ).body.items;
  return { v, alerts };
}

describe.each(await backends())('jornada alerts on %s', (backend) => {
  const server = useServer(backend);

  it('warns at 5 h of continuous driving, not before, once per stretch', async () => {
    const s = server();
    const { v, alerts } = await setup(s, 'JORNADA_DRIVING_LIMIT', '111.444.777-35', 'B0B0D001');
    const t0 = Math.floor(Date.now() / MIN) * MIN - 6 * 3600_000;
    await ingest(s.deps, v.identifier, [
      ...fixes(t0 - 30 * MIN, t0 + MIN, false, 'B0B0D001'),
      ...fixes(t0 + MIN, t0 + 5 * 3600_000 + 10 * MIN, true, 'B0B0D001'),
    ]);
    const engine = s.deps.alerts.engine;
    expect(await engine.checkJornada(new Date(t0 + 299 * MIN))).toBe(0);
    expect(await engine.checkJornada(new Date(t0 + 300 * MIN))).toBe(1);
    expect(await engine.checkJornada(new Date(t0 + 305 * MIN))).toBe(0);
    const list = await alerts();
    expect(list).toHaveLength(1);
    expect(list[0]?.plate).toBe(v.plate);
  });

  it('warns when a journey begins after less than 11 h of rest, once', async () => {
    const s = server();
    const { v, alerts } = await setup(s, 'JORNADA_REST_SHORT', '390.533.447-05', 'B0B0D002');
    const now = Math.floor(Date.now() / MIN) * MIN;
    const h = 3600_000;
    await ingest(s.deps, v.identifier, [
      ...fixes(now - 17 * h, now - 16 * h + MIN, false, 'B0B0D002'),
      ...fixes(now - 16 * h + MIN, now - 14 * h, true, 'B0B0D002'),
      ...fixes(now - 14 * h, now - 5 * h + MIN, false, 'B0B0D002', 10),
      ...fixes(now - 5 * h + MIN, now - 4 * h, true, 'B0B0D002'),
      ...fixes(now - 4 * h, now - 3 * h, false, 'B0B0D002', 10),
    ]);
    const engine = s.deps.alerts.engine;
    expect(await engine.checkJornada(new Date(now))).toBe(1);
    expect(await engine.checkJornada(new Date(now + MIN))).toBe(0);
    expect(await alerts()).toHaveLength(1);
    const stored = await s.deps.database.db
      .select()
      .from(alertRows)
      .where(eq(alertRows.vehicleId, v.vehicleId));
    expect(stored.map((a) => a.details)).toEqual([
      expect.objectContaining({ restMinutes: 540, driverName: 'Motorista B0B0D002' }),
    ]);
    // What the push and the e-mail say.
    const row = stored[0];
    const pushed = pushMessage({
      ...row,
      plate: v.plate,
      createdAt: new Date().toISOString(),
      fixTime: null,
    } as unknown as StoredAlert);
    expect(pushed.body).toContain('com descanso insuficiente (9 h 00 de 11 h)');
  });
});
