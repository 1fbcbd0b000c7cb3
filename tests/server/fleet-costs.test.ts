/**
 * Custos da frota through the real API: fuel, maintenance and other expenses of a vehicle per
 * São Paulo month (a refuel at 23:30 of the 31st counts in its own month), the km of the daily
 * rollup and the cost per km; the PDF and XLSX files; another company kept out.
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { documentFor } from '../../server/reports/files/documents';
import { rowsOf } from '../../server/reports/files/model';
import { vehicleDays } from '../../server/schema';
import type { FleetCostList } from '../../src/contract';
import { as, backends, demoClients, type ErrorBody, useServer } from './harness';
import { vehicleWithTracker } from './report-fixtures';

describe.each(await backends())('fleet costs on %s', (backend) => {
  const server = useServer(backend);

  it('adds up a vehicle’s month and divides by its km', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const v = await vehicleWithTracker(s, north);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await manager.call('POST', path, {
        clientId: north,
        vehicleId: v.vehicleId,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    await post('/registros/refuels', {
      at: '2026-10-15T15:00:00.000Z',
      liters: 100,
      pricePerLiter: 6,
      odometerKm: 1000,
    });
    // 23:30 of 31 October in São Paulo is already 1 November in UTC: October's.
    await post('/registros/refuels', {
      at: '2026-11-01T02:30:00.000Z',
      liters: 50,
      pricePerLiter: 6,
      odometerKm: 1200,
    });
    await post('/registros/service-records', { date: '2026-10-20', cost: 250, odometerKm: 1100 });
    await post('/registros/expenses', { date: '2026-10-05', category: 'toll', amount: 48.6 });
    await post('/registros/expenses', { date: '2026-11-03', category: 'washing', amount: 10 });
    // 150 km and 50 km driven on two days of October (the daily rollup, in metres).
    await s.deps.database.db.insert(vehicleDays).values(
      [
        ['2026-10-10', 150_000],
        ['2026-10-11', 50_000],
      ].map(([day, distance]) => ({
        vehicleId: v.vehicleId,
        clientId: north,
        day: String(day),
        distance: Number(distance),
        fixes: 100,
        firstFix: new Date(`${day}T11:00:00Z`),
        lastFix: new Date(`${day}T20:00:00Z`),
      })),
    );
    const res = await manager.call<FleetCostList>(
      'GET',
      `/registros/fleet-costs?clientId=${north}&vehicleId=${v.vehicleId}&from=2026-10&to=2026-11`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rows.map(({ vehicleId: _id, name: _name, ...r }) => r)).toEqual([
      {
        plate: v.plate,
        month: '2026-10',
        fuel: 900,
        maintenance: 250,
        other: 48.6,
        total: 1198.6,
        km: 200,
        costPerKm: 5.99,
      },
      {
        plate: v.plate,
        month: '2026-11',
        fuel: 0,
        maintenance: 0,
        other: 10,
        total: 10,
        km: 0,
        costPerKm: null,
      },
    ]);
    expect(res.body.totals).toEqual({
      fuel: 900,
      maintenance: 250,
      other: 58.6,
      total: 1208.6,
      km: 200,
      costPerKm: 6.04,
    });

    for (const format of ['pdf', 'excel'] as const) {
      const file = await s.request(
        `/registros/fleet-costs/file?clientId=${north}&vehicleId=${v.vehicleId}&from=2026-10&to=2026-11&format=${format}`,
        { token: manager.accessToken },
      );
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toContain(format === 'pdf' ? 'pdf' : 'sheet');
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.length).toBeGreaterThan(1000);
      if (format === 'pdf' && backend === 'pglite')
        await writeFile('.tmp/custos-frota.pdf', bytes).catch(() => undefined);
    }

    // The same figures as an automated report (and a request from the reports list).
    const rule = await manager.call('POST', '/registros/crud-reports-processor', {
      clientId: north,
      name: 'Custos mensais',
      reportType: 'FLEET_COSTS',
      periodicity: 'MONTHLY',
      vehicleIds: [v.vehicleId],
      emailDelivery: 'gestor@rastro.demo',
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const doc = await documentFor(
      'FLEET_COSTS',
      {
        db: s.deps.database.db,
        alerts: { byVehicle: async () => new Map() } as never,
        customer: 'Transportes Norte',
        beginAt: new Date('2026-10-01T03:00:00Z'),
        endAt: new Date('2026-11-01T03:00:00Z'),
        generatedAt: new Date(),
      },
      { vehicles: [{ id: v.vehicleId } as never], drivers: [], clientIds: [north] },
      'pdf',
    );
    const rows = [];
    for await (const row of rowsOf(doc.tables[0]?.rows ?? [])) rows.push(row);
    expect(rows).toEqual([
      ['10/2026', `${v.plate} — Relatório ${v.plate}`, 900, 250, 48.6, 1198.6, 200_000, 5.99],
    ]);

    const long = await manager.call<ErrorBody>(
      'GET',
      `/registros/fleet-costs?clientId=${north}&from=2024-01&to=2026-11`,
    );
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('Período longo demais: até 24 meses');
    const intruder = await as(s, 'gestor.sul@rastro.demo');
    expect(
      (
        await intruder.call(
          'GET',
          `/registros/fleet-costs?clientId=${north}&from=2026-10&to=2026-11`,
        )
      ).status,
    ).toBe(404);
  });
});
