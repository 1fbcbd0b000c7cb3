/**
 * The demo's rules fire within a minute of `npm start`: the first minute of the simulator
 * (its ticks 1 to 7, ten seconds apart) is sent through the real listeners of a server with
 * the demo seeded, and overspeed, ignition on and off, the depot's exit and the risk area's
 * entry are all raised; the silent Strada's LOCATION_TIMEOUT at the first periodic check.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPOT_PLATE, RISK_PLATE } from '../../server/demo/alerts';
import { demoDevices, osmandQuery, reportOf, wialonPacket } from '../../server/demo/simulator';
import type { RunningServer } from '../../server/start';
import type { AlertPage } from '../../src/contract';
import { type Caller, crcHex, signIn, startReal } from './alert-fixtures';

const INTERVAL = 10_000;

describe('the demo', () => {
  let server: RunningServer;
  let admin: Caller;
  beforeAll(async () => {
    server = await startReal({ SEED_DEMO_FLEET: 'true', SIMULATOR: 'off' });
    admin = await signIn(server.url, 'admin@rastro.demo');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('raises its alerts within the first minute of the simulator', async () => {
    const devices = demoDevices();
    const start = Math.floor(Date.now() / 1000) * 1000 - 70_000;
    const sockets = new Map<string, Socket>();
    for (const [i, device] of devices.entries()) {
      if (i % 2 === 0) continue;
      const socket = connect(server.wialonPort ?? 0, '127.0.0.1');
      // Each demo tracker with its own device password, as the simulator logs in.
      const login = `2.0;${device.identifier};${device.password};`;
      socket.write(`#L#${login}${crcHex(login)}\r\n`);
      sockets.set(device.identifier, socket);
    }
    for (let tick = 1; tick <= 7; tick += 1) {
      const now = start + (tick - 1) * INTERVAL;
      await Promise.all(
        devices.map(async (device, i) => {
          const report = reportOf(device, tick, now, INTERVAL);
          if (!report) return;
          const { step, at, battery } = report;
          if (i % 2 === 1) {
            const socket = sockets.get(device.identifier);
            const answered = new Promise<void>((resolve) => {
              const onData = (chunk: Buffer) => {
                if (!chunk.toString().includes('#AD#')) return;
                socket?.off('data', onData);
                resolve();
              };
              socket?.on('data', onData);
            });
            socket?.write(wialonPacket(step, at, battery, device.driverRfid));
            await answered;
            return;
          }
          const query = osmandQuery(
            device.identifier,
            step,
            at,
            battery,
            device.driverRfid,
            device.password,
          );
          const res = await fetch(`http://127.0.0.1:${server.osmandPort}/?${query}`);
          await res.text();
        }),
      );
    }
    for (const socket of sockets.values()) socket.destroy();
    await server.deps.alerts.engine.checkTimeouts(new Date());
    const res = await admin.call<AlertPage>('GET', '/registros/alerts?limit=1000');
    const alerts = res.body.items;
    const types = new Set(alerts.map((a) => a.type));
    for (const type of [
      'OVERSPEED',
      'IGNITION_ON',
      'IGNITION_OFF',
      'GEOFENCE_EXIT',
      'GEOFENCE_ENTER',
      'LOCATION_TIMEOUT',
    ])
      expect(types, type).toContain(type);
    expect(alerts.find((a) => a.type === 'GEOFENCE_EXIT')).toMatchObject({
      plate: DEPOT_PLATE,
      ruleName: 'Saída da garagem',
    });
    expect(alerts.find((a) => a.type === 'GEOFENCE_ENTER')).toMatchObject({
      plate: RISK_PLATE,
      ruleName: 'Entrada em área de risco',
    });
    expect(alerts.find((a) => a.type === 'LOCATION_TIMEOUT')?.plate).toBe('PDA0K11');
  }, 60_000);

  it('has fuel stolen from the truck with a fuel sensor, and raises it once', async () => {
    const device = demoDevices().find((d) => d.fuelTank);
    if (!device) throw new Error('the demo has no fuel sensor');
    const socket = connect(server.wialonPort ?? 0, '127.0.0.1');
    const lines: string[] = [];
    socket.on('data', (chunk) => lines.push(...chunk.toString().split('\r\n')));
    const login = `2.0;${device.identifier};${device.password};`;
    socket.write(`#L#${login}${crcHex(login)}\r\n`);
    // The first half hour of the simulator, where a parked truck reports every five minutes,
    // sent as one report a second after the first test's minute (a fix older than those already
    // evaluated would be a black box, evaluated apart).
    const start = Math.floor(Date.now() / 1000) * 1000 - 8000;
    let sent = 0;
    for (let tick = 1; tick <= 181; tick += 1) {
      const report = reportOf(device, tick, start + sent * 1000, INTERVAL);
      if (!report) continue;
      socket.write(
        wialonPacket(report.step, report.at, report.battery, device.driverRfid, report.fuel),
      );
      sent += 1;
      while (lines.filter((line) => line.startsWith('#AD#')).length < sent)
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(sent).toBe(7);
    socket.destroy();
    const res = await admin.call<AlertPage>('GET', '/registros/alerts?limit=1000');
    const fuel = res.body.items.filter((a) => a.type === 'FUEL_DROP');
    expect(fuel.map((a) => [a.type, a.ruleName])).toEqual([['FUEL_DROP', 'Furto de combustível']]);
  }, 60_000);
});
