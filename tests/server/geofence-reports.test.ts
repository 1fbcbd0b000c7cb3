/**
 * The geofence reports (`geofence/{vehicleId}`, `by-fence/{geofenceId}`) from a track that
 * crosses a circle twice and ends inside it: entries, exits and time inside as the alert
 * engine counts them (the same crossings as its GEOFENCE_ENTER alerts, which the history now
 * shows as markers), another geofence never visited, tenancy, and a Terceiro.
 */
import { describe, expect, it } from 'vitest';
import type { FenceReport, Geofence, GeofenceReport, HistoryReport } from '../../src/contract';
import { as, backends, type ErrorBody, present, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';
import { readXlsx } from './report-readers';
import { Track } from './tracks';

const START = new Date('2026-04-14T11:00:00Z');
const HOME: [number, number] = [-8.05, -34.9];
/** 1 km east of HOME. */
const CENTER: [number, number] = [
  HOME[1] + 1000 / (111_320 * Math.cos((HOME[0] * Math.PI) / 180)),
  HOME[0],
];

/**
 * Parked 10 min at HOME; 2 km east at 30 km/h (through the 200 m circle around CENTER, in at
 * ~800 m, out at ~1,200 m); parked 20 min; back west through it; parked 10 min; 1 km east into
 * the centre, parked there 30 min until the end.
 */
function crossings() {
  const track = new Track(START, HOME);
  track.park(600, { every: 30, ignition: false });
  track.drive(240, 30, 90, { every: 10, ignition: true });
  track.park(1200, { every: 30, ignition: false });
  track.drive(240, 30, 270, { every: 10, ignition: true });
  track.park(600, { every: 30, ignition: false });
  track.drive(120, 30, 90, { every: 10, ignition: true });
  track.park(1800, { every: 30, ignition: false });
  return track;
}

const iso = (d: Date) => encodeURIComponent(d.toISOString());
const PERIOD = `beginAt=${iso(START)}&endAt=${iso(new Date(START.getTime() + 3 * 3600_000))}`;
const at = (seconds: number) => new Date(START.getTime() + seconds * 1000).getTime();
const near = (value: string | null, seconds: number, slack = 20) =>
  value !== null && Math.abs(new Date(value).getTime() - at(seconds)) <= slack * 1000;

describe.each(await backends())('geofence reports on %s', (backend) => {
  const server = useServer(backend);

  it('counts entries, exits and time inside as the engine does, and shows its alerts', async () => {
    const v = await vehicleWithTracker(server());
    const { admin } = v;
    const clientId = admin.user.clientId;
    const fence = await admin.call<Geofence>('POST', '/registros/geofence', {
      clientId,
      name: 'Cliente Boa Viagem',
      geometry: { type: 'Circle', center: CENTER, radius: 200 },
    });
    expect(fence.status).toBe(201);
    const far = await admin.call<Geofence>('POST', '/registros/geofence', {
      clientId,
      name: 'Depósito Longe',
      geometry: { type: 'Circle', center: [-46.63, -23.55], radius: 500 },
    });
    expect(far.status).toBe(201);
    const rule = await admin.call('POST', '/registros/alert-rules', {
      clientId,
      name: 'Entrada no cliente',
      type: 'GEOFENCE_ENTER',
      vehicleIds: [v.vehicleId],
      params: { geofenceIds: [fence.body.id] },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    await ingest(server().deps, v.identifier, crossings().fixes);

    const res = await admin.call<GeofenceReport>(
      'GET',
      `/registros/reports/geofence/${v.vehicleId}?${PERIOD}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ vehicleId: v.vehicleId, plate: v.plate });
    const visits = res.body.visits;
    expect(visits.every((x) => x.geofenceId === fence.body.id)).toBe(true);
    expect(visits).toHaveLength(3);
    // Out: 600 s parked, then 800 m at 8.33 m/s ≈ 96 s; back: 600 + 240 + 1200 + 96 s; last:
    // 600 + 240 + 1200 + 240 + 600 + 96 s. Exits 48 s (400 m) after each entry.
    const [first, second, third] = visits;
    expect(near(first?.enteredAt ?? null, 696)).toBe(true);
    expect(near(first?.exitedAt ?? null, 744)).toBe(true);
    expect(near(second?.enteredAt ?? null, 2136)).toBe(true);
    expect(near(second?.exitedAt ?? null, 2184)).toBe(true);
    expect(near(third?.enteredAt ?? null, 2976)).toBe(true);
    expect(third?.exitedAt).toBeNull();
    expect(visits.map((x) => x.insideAtStart)).toEqual([false, false, false]);
    expect(res.body.totals).toEqual([
      expect.objectContaining({
        geofenceId: fence.body.id,
        geofenceName: 'Cliente Boa Viagem',
        entries: 3,
        exits: 2,
      }),
    ]);
    const inside = present(res.body.totals[0], 'total').insideSeconds;
    // Two crossings of ~48 s and the last stay from ~2,976 s to the last fix (4,800 s).
    expect(inside).toBeGreaterThan(48 * 2 + 1800 - 60);
    expect(inside).toBeLessThan(48 * 2 + 1824 + 60);
    expect(visits.reduce((sum, x) => sum + x.durationSeconds, 0)).toBe(inside);

    // The engine raised one GEOFENCE_ENTER per entry, at the same fixes; the history shows them.
    const history = await admin.call<HistoryReport>(
      'GET',
      `/registros/reports/history/${v.vehicleId}?${PERIOD}`,
    );
    expect(history.status).toBe(200);
    const entered = history.body.alerts.filter((a) => a.type === 'GEOFENCE_ENTER');
    expect(entered.map((a) => a.time)).toEqual(visits.map((x) => x.enteredAt));

    // A period that starts while inside: the stay is counted from the first fix, not as an entry.
    const from = new Date(at(3000));
    const late = await admin.call<GeofenceReport>(
      'GET',
      `/registros/reports/geofence/${v.vehicleId}?beginAt=${iso(from)}&endAt=${iso(new Date(at(3600)))}`,
    );
    expect(late.body.visits).toHaveLength(1);
    expect(late.body.visits[0]).toMatchObject({ insideAtStart: true, exitedAt: null });
    expect(late.body.totals[0]).toMatchObject({ entries: 0, exits: 0 });

    // by-fence: the same visits, from the geofence's side; the far one has none.
    const byFence = await admin.call<FenceReport>(
      'GET',
      `/registros/reports/by-fence/${fence.body.id}?${PERIOD}&vehicleIds=${v.vehicleId}`,
    );
    expect(byFence.status, JSON.stringify(byFence.body)).toBe(200);
    expect(byFence.body.geofenceName).toBe('Cliente Boa Viagem');
    expect(byFence.body.visits).toEqual(res.body.visits);
    expect(byFence.body.totals).toEqual(res.body.totals);
    const none = await admin.call<FenceReport>(
      'GET',
      `/registros/reports/by-fence/${far.body.id}?${PERIOD}`,
    );
    expect(none.status).toBe(200);
    expect(none.body.visits).toEqual([]);

    // Tenancy: another company's manager gets 404 for both; bad input is a pt-BR 400.
    const other = await as(server(), 'gestor.sul@rastro.demo');
    const a = await other.call('GET', `/registros/reports/geofence/${v.vehicleId}?${PERIOD}`);
    expect(a.status).toBe(404);
    const b = await other.call<ErrorBody>(
      'GET',
      `/registros/reports/by-fence/${fence.body.id}?${PERIOD}`,
    );
    expect(b.status).toBe(404);
    expect(b.body.message).toBe('Cerca não encontrada');
    const stranger = await admin.call<ErrorBody>(
      'GET',
      `/registros/reports/by-fence/${fence.body.id}?${PERIOD}&vehicleIds=${crypto.randomUUID()}`,
    );
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('Veículo não encontrado');
    const bad = await admin.call<ErrorBody>(
      'GET',
      `/registros/reports/by-fence/${fence.body.id}?beginAt=${iso(START)}&endAt=${iso(new Date(at(60 * 86400)))}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/744|31 dias/);
  });

  it('names no geofence to a Terceiro, in the report nor in its file', async () => {
    const v = await vehicleWithTracker(server());
    const { admin } = v;
    const fence = await admin.call<Geofence>('POST', '/registros/geofence', {
      clientId: admin.user.clientId,
      name: 'Depósito Reservado',
      geometry: { type: 'Circle', center: CENTER, radius: 200 },
    });
    expect(fence.status).toBe(201);
    await ingest(server().deps, v.identifier, crossings().fixes);
    const visitor = await as(server(), 'terceiro@rastro.demo');
    const linked = await admin.call(
      'POST',
      `/registros/visitor-role/add-vehicle/${visitor.user.id}`,
      {
        vehicle: v.vehicleId,
      },
    );
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);

    /** Every cell of the geofence file, as the caller downloads it. */
    const fileText = async (token: string) => {
      const res = await server().request(
        `/registros/reports/v2/geofence/download?format=excel&vehicleIds=${v.vehicleId}&${PERIOD}`,
        { token },
      );
      expect(res.status, await res.clone().text()).toBe(200);
      const book = await readXlsx(await res.arrayBuffer());
      const cells: string[] = [];
      for (const sheet of book.worksheets)
        sheet.eachRow((row) => {
          row.eachCell((cell) => {
            cells.push(String(cell.text));
          });
        });
      return cells.join(' | ');
    };
    // The company's own manager reads the visits to its fence by name…
    expect(await fileText(admin.accessToken)).toContain('Depósito Reservado');
    // …a Terceiro linked to the vehicle sees its trips, never the company's fences.
    expect(await fileText(visitor.accessToken)).not.toContain('Depósito Reservado');
    const json = await visitor.call<GeofenceReport>(
      'GET',
      `/registros/reports/geofence/${v.vehicleId}?${PERIOD}`,
    );
    expect(json.status).toBe(200);
    expect(json.body.visits).toEqual([]);
  });
});
