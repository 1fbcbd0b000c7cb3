/** The demo's moving fleet: plausible steps, and positions arriving through the real listener. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/client';
import { distanceKm } from '../../server/ingest/pipeline';
import { parseFix } from '../../server/ingest/wialon';
import { demoDevices, stepOf, wialonPacket } from '../../server/simulator';
import type { RunningServer } from '../../server/start';
import { startTestServer } from './harness';

describe('simulated steps', () => {
  it('drive plausible loops with stops, ignition off and speeding', () => {
    const [device] = demoDevices(12);
    if (!device) throw new Error('no device');
    const steps = Array.from({ length: 80 }, (_, n) => stepOf(device, n));
    expect(steps.some((s) => s.speed === 0)).toBe(true);
    expect(steps.some((s) => !s.ignition)).toBe(true);
    expect(steps.some((s) => s.speed > 100)).toBe(true);
    for (let i = 1; i < steps.length; i++) {
      const a = steps[i - 1];
      const b = steps[i];
      if (a && b) expect(distanceKm(a, b)).toBeLessThan(1);
    }
    expect(
      steps.every((s) => Math.abs(s.latitude + 8.05) < 0.1 && Math.abs(s.longitude + 34.88) < 0.1),
    ).toBe(true);
  });
});

describe('Wialon IPS packets of the simulator', () => {
  it('parse back to the step they were made from', () => {
    const [, device] = demoDevices(12);
    if (!device) throw new Error('no device');
    const step = stepOf(device, 21);
    const at = new Date('2026-11-22T10:20:30Z');
    const packet = wialonPacket(step, at, 91);
    const body = packet.slice('#D#'.length, packet.lastIndexOf(';'));
    const fix = parseFix(body.split(';'), true, { now: at, maxFutureSeconds: 300 });
    expect(fix.fixTime.toISOString()).toBe(at.toISOString());
    expect(fix.latitude).toBeCloseTo(step.latitude, 5);
    expect(fix.longitude).toBeCloseTo(step.longitude, 5);
    expect(fix).toMatchObject({ ignition: step.ignition, battery: 91 });
  });
});

describe('demo with the simulator', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({
      SEED_DEMO_FLEET: 'true',
      OSMAND_PORT: '0',
      WIALON_IPS_PORT: '0',
      SIMULATOR_INTERVAL_MS: '200',
    });
  });
  afterAll(() => server.close());

  it('moves the twelve demo vehicles through the OsmAnd and Wialon IPS listeners', async () => {
    const login = await fetch(`${server.url}/registros/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@rastro.demo', password: 'rastro-demo' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const read = async () =>
      (await (
        await fetch(`${server.url}/registros/real-time/lastLocation`, {
          headers: { authorization: `Bearer ${accessToken}` },
        })
      ).json()) as { name: string; latitude: number; fixTime: string }[];
    await expect.poll(async () => (await read()).length, { timeout: 10_000 }).toBe(12);
    const first = await read();
    await expect
      .poll(async () => (await read()).some((item, i) => item.fixTime !== first[i]?.fixTime), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(first.every((item) => item.name.startsWith('Demo '))).toBe(true);
    // Half of them speak Wialon IPS: their fixes carry the satellites and HDOP it sends.
    await expect
      .poll(
        async () =>
          rowsOf<{ n: number }>(
            await server.deps.database.db.execute(
              sql`select count(distinct tracker_id)::int as n from positions where attributes ? 'hdop'`,
            ),
          )[0]?.n,
        { timeout: 10_000 },
      )
      .toBe(6);
  });
});
