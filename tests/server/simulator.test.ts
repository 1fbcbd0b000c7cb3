/** The demo's moving fleet: plausible, varied steps, and positions through the real listeners. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FLEET } from '../../server/demo/fleet';
import {
  demoDevices,
  reportOf,
  type SimulatedDevice,
  stepOf,
  wialonPacket,
} from '../../server/demo/simulator';
import { distanceKm } from '../../server/ingest/screen';
import { parseFix } from '../../server/ingest/wialon/parse';
import { rowsOf } from '../../server/platform/db/client';
import type { RunningServer } from '../../server/start';
import { type AuthResponse, type LocationItem, VEHICLE_TYPE_IDS } from '../../src/contract';
import { isValidPlate } from '../../src/lib/documents';
import { jsonOf, startTestServer } from './harness';

const devices = demoDevices();
const byPlate = (plate: string): SimulatedDevice => {
  const i = DEMO_FLEET.findIndex((v) => v.plate === plate);
  const device = devices[i];
  if (!device) throw new Error(`no device for ${plate}`);
  return device;
};
/** One simulated hour, a step every 10 s. */
const hour = (device: SimulatedDevice) =>
  Array.from({ length: 360 }, (_, n) => stepOf(device, n * 10));

describe('the demo fleet', () => {
  it('is about forty valid vehicles of many types in the three companies', () => {
    expect(DEMO_FLEET.length).toBeGreaterThanOrEqual(36);
    expect(new Set(DEMO_FLEET.map((v) => v.plate)).size).toBe(DEMO_FLEET.length);
    expect(DEMO_FLEET.every((v) => isValidPlate(v.plate))).toBe(true);
    expect(DEMO_FLEET.every((v) => (VEHICLE_TYPE_IDS as string[]).includes(v.type))).toBe(true);
    expect(new Set(DEMO_FLEET.map((v) => v.type)).size).toBeGreaterThanOrEqual(20);
    for (const company of ['mother', 'north', 'south'])
      expect(DEMO_FLEET.filter((v) => v.company === company).length).toBeGreaterThanOrEqual(8);
    expect(DEMO_FLEET.filter((v) => v.driver).length).toBeGreaterThanOrEqual(3);
  });

  it('moves each vehicle its own way, never in lockstep', () => {
    const moving = devices.filter((d) => d.plan.kind === 'drive');
    const at = (n: number) => moving.map((d) => stepOf(d, n));
    const speeds = new Set(at(600).map((s) => s.speed));
    expect(speeds.size).toBeGreaterThan(moving.length / 3);
    const batteries = new Set(devices.map((d) => d.battery));
    expect(batteries.size).toBeGreaterThan(devices.length / 2);
  });

  it('drives plausible routes around Recife, with stops and the engine turned off', () => {
    for (const device of devices.filter((d) => d.plan.kind === 'drive')) {
      const steps = hour(device);
      for (let i = 1; i < steps.length; i++) {
        const a = steps[i - 1];
        const b = steps[i];
        // Ten seconds at up to 130 km/h, or a loop closing back on itself.
        if (a && b) expect(distanceKm(a, b), device.identifier).toBeLessThan(0.4);
      }
      expect(
        steps.every(
          (s) => Math.abs(s.latitude + 8.06) < 0.2 && Math.abs(s.longitude + 34.93) < 0.2,
        ),
      ).toBe(true);
    }
    const van = hour(byPlate('PEB7C89'));
    expect(van.some((s) => s.speed === 0 && !s.ignition)).toBe(true);
    expect(van.some((s) => s.speed > 20)).toBe(true);
  });

  it('has speeding, idling, parked and silent vehicles', () => {
    expect(hour(byPlate('PFC8F90')).some((s) => s.speed > 100)).toBe(true);
    expect(hour(byPlate('KGI7N89')).some((s) => s.speed > 90)).toBe(true);
    const idle = stepOf(byPlate('KGK3S12'), 500);
    expect(idle).toMatchObject({ speed: 0, ignition: true });
    const parked = byPlate('PCX9J78');
    expect(stepOf(parked, 500)).toMatchObject({ speed: 0, ignition: false });
    // Parked with the engine off, a tracker reports rarely; moving, every tick.
    const reports = (d: SimulatedDevice) =>
      Array.from({ length: 60 }, (_, i) => reportOf(d, i + 1, 0, 10_000)).filter(Boolean).length;
    expect(reports(parked)).toBe(2);
    expect(reports(byPlate('PCX1A23'))).toBe(60);
    const silent = byPlate('PDA0K11');
    const first = reportOf(silent, 1, Date.parse('2026-11-22T12:00:00Z'), 10_000);
    expect(first?.at.toISOString()).toBe('2026-11-22T10:58:00.000Z');
    expect(reportOf(silent, 2, 0, 10_000)).toBeUndefined();
  });
});

describe('Wialon IPS packets of the simulator', () => {
  it('parse back to the step they were made from, with the driver tag', () => {
    const device = byPlate('KGH4M56');
    const step = stepOf(device, 1234);
    const at = new Date('2026-11-22T10:20:30Z');
    const packet = wialonPacket(step, at, 91, device.driverRfid);
    const body = packet.slice('#D#'.length, packet.lastIndexOf(';'));
    const fix = parseFix(body.split(';'), true, { now: at, maxFutureSeconds: 300 });
    expect(fix.fixTime.toISOString()).toBe(at.toISOString());
    expect(fix.latitude).toBeCloseTo(step.latitude, 5);
    expect(fix.longitude).toBeCloseTo(step.longitude, 5);
    expect(fix).toMatchObject({ ignition: step.ignition, battery: 91, driverRfid: '02B7D9A4C6' });
  });
});

describe('demo with the simulator', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({
      SEED_DEMO_FLEET: 'true',
      OSMAND_PORT: '0',
      WIALON_IPS_PORT: '0',
      GT06_PORT: '0',
      SUNTECH_PORT: '0',
      TELTONIKA_PORT: '0',
      QUECLINK_PORT: '0',
      SIMULATOR_INTERVAL_MS: '200',
    });
  });
  afterAll(() => server.close());

  it("moves the demo fleet through every listener, one device of each makers' family", async () => {
    const login = await fetch(`${server.url}/registros/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@rastro.demo', password: 'rastro-demo' }),
    });
    const { accessToken } = await jsonOf<AuthResponse>(login);
    const read = async () =>
      jsonOf<LocationItem[]>(
        await fetch(`${server.url}/registros/real-time/lastLocation`, {
          headers: { authorization: `Bearer ${accessToken}` },
        }),
      );
    await expect
      .poll(async () => (await read()).length, { timeout: 10_000 })
      .toBe(DEMO_FLEET.length);
    const first = await read();
    await expect
      .poll(
        async () =>
          (await read()).some(
            (item) => item.fixTime !== first.find((x) => x.id === item.id)?.fixTime,
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(first.map((item) => item.name)).toContain('Frigorífico 01');
    // RFID tags read by the trackers name their drivers.
    expect(first.find((item) => item.name === 'Caminhão Baú 02')?.driver).toBe(
      'José Roberto Silva',
    );
    // The Wialon IPS and Queclink devices' fixes carry the satellites and HDOP they send.
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
      .toBe(
        DEMO_FLEET.filter((v) => v.protocol === 'wialon_ips' || v.protocol === 'queclink').length,
      );
    // Each listener heard its own: the last location records the protocol it came by.
    await expect
      .poll(
        async () =>
          rowsOf<{ protocol: string; n: number }>(
            await server.deps.database.db.execute(
              sql`select protocol, count(*)::int as n from last_locations group by protocol order by protocol`,
            ),
          ),
        { timeout: 10_000 },
      )
      .toEqual([
        { protocol: 'gt06', n: 1 },
        { protocol: 'osmand', n: DEMO_FLEET.filter((v) => v.protocol === 'osmand').length },
        { protocol: 'queclink', n: 1 },
        { protocol: 'suntech', n: 1 },
        { protocol: 'teltonika', n: 1 },
        { protocol: 'wialon_ips', n: DEMO_FLEET.filter((v) => v.protocol === 'wialon_ips').length },
      ]);
  });
});
