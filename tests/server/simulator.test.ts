/** The demo's moving fleet: plausible steps, and positions arriving through the real listener. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { distanceKm } from '../../server/ingest/pipeline';
import { createLogger } from '../../server/log';
import { demoDevices, stepOf } from '../../server/simulator';
import { type RunningServer, startServer } from '../../server/start';

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

describe('demo with the simulator', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: 'memory://',
        OSMAND_PORT: '0',
        SIMULATOR_INTERVAL_MS: '200',
        LOG_LEVEL: 'silent',
      }),
      createLogger('silent'),
    );
  });
  afterAll(() => server.close());

  it('moves the twelve demo vehicles through the OsmAnd listener', async () => {
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
  });
});
