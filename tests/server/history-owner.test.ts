/**
 * A vehicle's past stays with the company that owned it then. A vehicle of Logística Sul
 * drives and raises an alert, moves to Transportes Norte (tracker unlinked, vehicle moved,
 * tracker moved and linked again) and drives again: Norte's manager reads only what was
 * recorded while it was Norte's, in every history read and file, while the mother company,
 * which owned it all along through its branches, reads both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/start';
import {
  type Caller,
  customers,
  epoch,
  osmand,
  signIn,
  startReal,
  vehicleWithTracker,
} from './alert-fixtures';
import { backends, databaseFor } from './harness';
import { readXlsx } from './report-readers';

const MINUTE = 60_000;
const FIXES = 12;

interface Positions {
  positions: { fixTime: string; latitude: number }[];
}
interface History extends Positions {
  alerts: { type: string }[];
}
interface Daily {
  dailyResults: Record<string, { distance: number; fixes: number }>;
}

describe.each(await backends())('history after a vehicle moves on %s', (backend) => {
  let server: RunningServer;
  let drop: () => Promise<void>;
  let admin: Caller;
  let north: Caller;
  let vehicleId: string;
  let linkId: string;
  const start = new Date(Math.floor((Date.now() - 3 * 60 * MINUTE) / 1000) * 1000);
  // Whole seconds, as OsmAnd sends fix times.
  const moved = new Date(Math.floor((Date.now() - 90 * MINUTE) / 1000) * 1000);
  const period = () =>
    new URLSearchParams({
      beginAt: start.toISOString(),
      endAt: new Date(Date.now() + MINUTE).toISOString(),
    }).toString();

  /** A drive north along a street: one fix a minute, 36 km/h, ~600 m apart. */
  async function drive(identifier: string, from: Date, latitude: number, extra = {}) {
    const port = server.osmandPort ?? 0;
    for (let i = 0; i < FIXES; i += 1) {
      const status = await osmand(port, {
        id: identifier,
        lat: (latitude + i * 0.0054).toFixed(6),
        lon: '-46.633300',
        speed: 19.4,
        timestamp: epoch(new Date(from.getTime() + i * MINUTE)),
        ...(i === FIXES - 1 ? extra : {}),
      });
      expect(status).toBe(200);
    }
  }

  beforeAll(async () => {
    const database = await databaseFor(backend);
    drop = database.drop;
    server = await startReal(database.env);
    admin = await signIn(server.url, 'admin@rastro.demo');
    const ids = await customers(admin);
    const v = await vehicleWithTracker(admin, ids.south, 'HOW1A11', 'trk-history-owner');
    vehicleId = v.vehicleId;
    // Sul's drive ends with a panic button: an alert of Sul's.
    await drive('trk-history-owner', start, -23.6, { alarm: 'sos' });
    // A command of Sul's: recorded, then failed (no integration is configured here).
    const suspend = await admin.call(
      'PUT',
      `/registros/commands/flespi/suspend?vehicleId=${vehicleId}`,
    );
    expect(suspend.status).toBe(503);
    // And a temporary link of Sul's that shows it.
    const link = await admin.call<{ id: string }>(
      'POST',
      '/registros/temporaryUser/create_temporary_link',
      { name: 'Entrega Sul', vehicleIds: [vehicleId], expiresInHours: 2 },
    );
    expect(link.status).toBe(201);
    linkId = link.body.id;

    const steps: [string, string, Record<string, unknown>][] = [
      ['PATCH', `/registros/tracker/${v.trackerId}`, { vehicleId: null }],
      ['PATCH', `/registros/vehicle/${vehicleId}`, { clientId: ids.north }],
      ['PATCH', `/registros/tracker/${v.trackerId}`, { clientId: ids.north, vehicleId }],
    ];
    for (const [method, route, body] of steps) {
      const res = await admin.call(method, route, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await drive('trk-history-owner', moved, -23.5);
    north = await signIn(server.url, 'gestor.norte@rastro.demo');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  const norteFix = (p: { fixTime: string }) => new Date(p.fixTime) >= moved;

  it('keeps the positions and the history of the old owner from the new one', async () => {
    const all = await admin.call<Positions>(
      'GET',
      `/registros/reports/positions/${vehicleId}?${period()}`,
    );
    expect(all.status).toBe(200);
    expect(all.body.positions).toHaveLength(2 * FIXES);

    const positions = await north.call<Positions>(
      'GET',
      `/registros/reports/positions/${vehicleId}?${period()}`,
    );
    expect(positions.status).toBe(200);
    expect(positions.body.positions).toHaveLength(FIXES);
    expect(positions.body.positions.every(norteFix)).toBe(true);

    const history = await north.call<History>(
      'GET',
      `/registros/reports/history/${vehicleId}?${period()}`,
    );
    expect(history.status).toBe(200);
    expect(history.body.positions).toHaveLength(FIXES);
    expect(history.body.positions.every(norteFix)).toBe(true);
    expect(history.body.alerts).toEqual([]);

    const adminHistory = await admin.call<History>(
      'GET',
      `/registros/reports/history/${vehicleId}?${period()}`,
    );
    expect(adminHistory.body.alerts.map((a) => a.type)).toContain('PANIC');
  });

  it('keeps the old owner’s trips, distances, alerts, commands and links', async () => {
    const trips = await north.call<{ trips: { startTime: string }[] }>(
      'GET',
      `/registros/reports/trips/${vehicleId}?${period()}`,
    );
    expect(trips.status).toBe(200);
    expect(trips.body.trips.length).toBeGreaterThan(0);
    expect(trips.body.trips.every((t) => new Date(t.startTime) >= moved)).toBe(true);

    const sum = (d: Daily) =>
      Object.values(d.dailyResults).reduce(
        (acc, day) => ({ distance: acc.distance + day.distance, fixes: acc.fixes + day.fixes }),
        { distance: 0, fixes: 0 },
      );
    const ours = await north.call<Daily>(
      'GET',
      `/registros/reports/distance/${vehicleId}?${period()}`,
    );
    const everything = await admin.call<Daily>(
      'GET',
      `/registros/reports/distance/${vehicleId}?${period()}`,
    );
    expect(sum(ours.body).fixes).toBe(FIXES);
    expect(sum(everything.body).fixes).toBe(2 * FIXES);
    expect(sum(ours.body).distance).toBeLessThan(sum(everything.body).distance * 0.6);

    // Whole days come from the daily rollup, not from the positions.
    const day = new Date(Date.now() - 2 * 86_400_000);
    const wholeDays = new URLSearchParams({
      beginAt: new Date(
        Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 3),
      ).toISOString(),
      endAt: new Date(
        Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 3, 3),
      ).toISOString(),
    }).toString();
    const rolled = await north.call<{ vehicles: Daily[] }>(
      'GET',
      `/registros/reports/v2/distance?${wholeDays}&vehicleIds=${vehicleId}`,
    );
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    const rolledFixes = rolled.body.vehicles.map(sum).reduce((a, b) => a + b.fixes, 0);
    expect(rolledFixes).toBe(FIXES);

    const alerts = await north.call<{ items: unknown[] }>(
      'GET',
      `/registros/alerts?vehicleId=${vehicleId}`,
    );
    expect(alerts.body.items).toEqual([]);
    const commands = await north.call<{ commands: unknown[] }>(
      'GET',
      `/registros/commands?vehicleId=${vehicleId}`,
    );
    expect(commands.status).toBe(200);
    expect(commands.body.commands).toEqual([]);
    const adminCommands = await admin.call<{ commands: unknown[] }>(
      'GET',
      `/registros/commands?vehicleId=${vehicleId}`,
    );
    expect(adminCommands.body.commands).toHaveLength(1);

    // Sul's link no longer lists a vehicle that is Norte's now.
    const linked = await admin.call<unknown[]>(
      'GET',
      `/registros/temporaryUser/vehicles-by-temporary-user/${linkId}`,
    );
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual([]);
  });

  it('keeps the old owner’s fixes out of the report files', async () => {
    const res = await fetch(
      `${server.url}/registros/reports/download/positions/${vehicleId}?${period()}&format=excel`,
      { headers: { authorization: `Bearer ${north.token}` } },
    );
    expect(res.status).toBe(200);
    const sheet = (await readXlsx(await res.arrayBuffer())).worksheets[0];
    let rows = 0;
    sheet?.eachRow(() => {
      rows += 1;
    });
    const adminRes = await fetch(
      `${server.url}/registros/reports/download/positions/${vehicleId}?${period()}&format=excel`,
      { headers: { authorization: `Bearer ${admin.token}` } },
    );
    let adminRows = 0;
    (await readXlsx(await adminRes.arrayBuffer())).worksheets[0]?.eachRow(() => {
      adminRows += 1;
    });
    expect(adminRows - rows).toBe(FIXES);
  });
});
