/**
 * Refuels through the real API: km/L between full tanks with a partial refuel in between, cost
 * per km, the refuels flagged (over the tank, odometer backwards, consumption far from the
 * usual, no rise on the fuel sensor), the fuel card's file with a malformed line, pt-BR
 * validation, and another company that can neither read nor write them.
 */
import { describe, expect, it } from 'vitest';
import type {
  ConsumptionList,
  DashboardUpkeep,
  ErrorCode,
  Expense,
  ExpensePage,
  Refuel,
  RefuelImportResult,
  RefuelPage,
} from '../../src/contract';
import { as, backends, demoClients, type ErrorBody, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';

const DAY = 86_400_000;
const daysAgo = (n: number, hour = 12) =>
  new Date(Math.floor(Date.now() / DAY) * DAY - n * DAY + hour * 3600_000).toISOString();
const codes = (r: Refuel | undefined) => (r?.flags ?? []).map((f) => f.code).sort();

describe.each(await backends())('refuels on %s', (backend) => {
  const server = useServer(backend);

  async function setup(tank?: number) {
    const s = server();
    const { north, south } = await demoClients(s);
    const v = await vehicleWithTracker(s, north);
    if (tank) {
      const patched = await v.admin.call('PATCH', `/registros/vehicle/${v.vehicleId}`, {
        fuelTankLiters: tank,
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    }
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const add = async (body: Record<string, unknown>) => {
      const res = await manager.call<Refuel>('POST', '/registros/refuels', {
        clientId: north,
        vehicleId: v.vehicleId,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const list = async () =>
      (
        await manager.call<RefuelPage>(
          'GET',
          `/registros/refuels?clientId=${north}&vehicleId=${v.vehicleId}&limit=100&sort=at`,
        )
      ).body.refuels;
    return { s, north, south, v, manager, add, list };
  }

  it('counts km/L between full tanks with a partial in between, and the cost per km', async () => {
    const { north, v, manager, add } = await setup(100);
    // Before the first full tank: not in any interval.
    await add({
      at: daysAgo(10),
      liters: 40,
      pricePerLiter: 6,
      odometerKm: 10_000,
      fullTank: true,
    });
    const partial = await add({ at: daysAgo(8), liters: 20, pricePerLiter: 6, odometerKm: 10_300 });
    expect(partial.total).toBe(120);
    // Only the total: the price follows from it.
    const full = await add({
      at: daysAgo(6),
      liters: 30,
      total: 174,
      odometerKm: 10_600,
      fullTank: true,
    });
    expect(full.pricePerLiter).toBe(5.8);
    // Price and total both: litres × price, rounded to the centavo (45,3 × 5,899 = 267,2247).
    const both = await manager.call<ErrorBody>('POST', '/registros/refuels', {
      clientId: north,
      vehicleId: v.vehicleId,
      at: daysAgo(5),
      liters: 45.3,
      pricePerLiter: 5.899,
      total: 270,
      odometerKm: 10_700,
    });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain(
      'O total não confere com litros × preço por litro (R$ 267,22)',
    );

    const consumption = await manager.call<ConsumptionList>(
      'GET',
      `/registros/refuels-consumption?clientId=${north}&vehicleId=${v.vehicleId}`,
    );
    expect(consumption.status).toBe(200);
    const [vehicle] = consumption.body.vehicles;
    // 600 km on the 20 + 30 L put in after the first full tank: 12 km/L; R$ 294 / 600 km.
    expect(vehicle?.km).toBe(600);
    expect(vehicle?.kmPerLiter).toBe(12);
    expect(vehicle?.costPerKm).toBeCloseTo(0.49, 10);
    expect(vehicle?.intervals).toHaveLength(1);
    expect(vehicle?.spent).toBe(240 + 120 + 174);
  });

  it('flags a refuel over the tank, an odometer going back and a consumption far from usual', async () => {
    const { add, list } = await setup(100);
    // Four intervals of 600 km: 12, 12, 12 km/L, then 6 km/L (under 70 % of the median 12).
    let odometer = 10_000;
    await add({
      at: daysAgo(20),
      liters: 50,
      pricePerLiter: 6,
      odometerKm: odometer,
      fullTank: true,
    });
    for (const [i, liters] of [50, 50, 50].entries()) {
      odometer += 600;
      await add({
        at: daysAgo(18 - 2 * i),
        liters,
        pricePerLiter: 6,
        odometerKm: odometer,
        fullTank: true,
      });
    }
    const thirsty = await add({
      at: daysAgo(10),
      liters: 99,
      pricePerLiter: 6,
      odometerKm: odometer + 600,
      fullTank: true,
    });
    const big = await add({
      at: daysAgo(8),
      liters: 120,
      pricePerLiter: 6,
      odometerKm: odometer + 900,
    });
    const back = await add({
      at: daysAgo(6),
      liters: 20,
      pricePerLiter: 6,
      odometerKm: odometer + 100,
    });
    const refuels = await list();
    const byId = (id: string) => refuels.find((r) => r.id === id);
    expect(codes(byId(thirsty.id))).toEqual(['consumption']);
    expect(byId(thirsty.id)?.flags[0]?.message).toContain('6,06 km/L');
    expect(codes(byId(big.id))).toEqual(['over_tank']);
    expect(byId(big.id)?.flags[0]?.message).toBe('120 L é mais do que cabe no tanque (100 L)');
    expect(codes(byId(back.id))).toEqual(['odometer_back']);
    // The usual ones are clean.
    expect(refuels.filter((r) => r.flags.length === 0)).toHaveLength(4);
  });

  it('imports a fuel card file, refusing a malformed line by its number', async () => {
    const { north, v, manager, list } = await setup();
    const file = [
      'Data;Placa;Motorista;Litros;Preço;Hodômetro;Posto;Tanque cheio',
      `01/11/2026 07:30;${v.plate};;45,30;5,899;12.345;Posto Ipiranga BR-101;sim`,
      `02/11/2026 08:00;${v.plate};;abc;5,899;12.700;Posto Shell;não`,
      `03/11/2026 18:15;${v.plate.slice(0, 3)}-${v.plate.slice(3)};;"30,00";6,10;13.050;Posto Shell;SIM`,
      '04/11/2026 09:00;ZZZ9Z99;;10;6;13.100;Posto;não',
      `31/02/2026 09:00;${v.plate};;10;6;13.100;Posto;não`,
    ].join('\r\n');
    const res = await manager.call<RefuelImportResult>('POST', '/registros/refuels-import', {
      clientId: north,
      content: file,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.imported).toBe(2);
    expect(res.body.errors).toEqual([
      { line: 3, message: 'Litros inválidos "abc": informe um número maior que zero' },
      { line: 5, message: 'Veículo ZZZ9Z99 não encontrado neste cliente' },
      { line: 6, message: 'Data inválida "31/02/2026 09:00": use dd/mm/aaaa hh:mm' },
    ]);
    const refuels = await list();
    expect(refuels.map((r) => [r.at, r.liters, r.total, r.odometerKm, r.fullTank])).toEqual([
      // 07:30 in São Paulo is 10:30 UTC; 45,3 L × R$ 5,899 = R$ 267,2247.
      ['2026-11-01T10:30:00.000Z', 45.3, 267.22, 12_345, true],
      ['2026-11-03T21:15:00.000Z', 30, 183, 13_050, true],
    ]);

    // Commas between cells work too; a file of nothing but bad lines imports nothing.
    const commas = await manager.call<RefuelImportResult>('POST', '/registros/refuels-import', {
      clientId: north,
      content: `05/11/2026 10:00,${v.plate},,"12,5",6,13200,Posto,não\n06/11/2026 10:00,${v.plate},,12`,
    });
    expect(commas.body).toEqual({
      imported: 1,
      errors: [
        {
          line: 2,
          message:
            'Esperadas 8 colunas (data; placa; motorista; litros; preço; hodômetro; posto; tanque cheio), há 4',
        },
      ],
    });
    const tooMany = await manager.call<ErrorBody>('POST', '/registros/refuels-import', {
      clientId: north,
      content: `${'01/11/2026 07:30;X;;1;1;1;P;não\n'.repeat(5002)}`,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('até 5000');
  });

  it('says in pt-BR what is wrong and keeps nothing', async () => {
    const { north, south, v, manager, list } = await setup();
    const other = await vehicleWithTracker(server(), south);
    const bad = async (body: Record<string, unknown>, message: string) => {
      const res = await manager.call<ErrorBody>('POST', '/registros/refuels', {
        clientId: north,
        vehicleId: v.vehicleId,
        at: daysAgo(1),
        liters: 10,
        pricePerLiter: 6,
        odometerKm: 1000,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code satisfies ErrorCode).toBe('BAD_REQUEST');
      expect(res.body.message).toContain(message);
    };
    await bad({ liters: 0 }, 'Litros: deve ser maior que zero');
    await bad({ odometerKm: -1 }, 'Hodômetro: não pode ser negativo');
    await bad({ at: new Date(Date.now() + 3600_000).toISOString() }, 'não pode estar no futuro');
    await bad({ pricePerLiter: undefined }, 'Informe o preço por litro ou o total');
    await bad({ vehicleId: other.vehicleId }, 'Veículo não encontrado neste cliente');
    expect(await list()).toEqual([]);
  });

  it('flags a refuel the fuel sensor did not see, and not one it saw', async () => {
    const { s, add, list, v } = await setup(300);
    const now = Date.now();
    const start = now - 10 * 3600_000;
    // Parked with the engine off, a reading every 10 minutes: 100 L, then 160 L from 7 h ago.
    const fixes = Array.from({ length: 58 }, (_, i) => {
      const at = start + i * 600_000;
      return {
        fixTime: new Date(at),
        latitude: -8.05,
        longitude: -34.9,
        speed: 0,
        ignition: false,
        attributes: { fuelLiters: at >= now - 7 * 3600_000 ? 160 : 100 },
      };
    });
    await ingest(s.deps, v.identifier, fixes);
    const seen = await add({
      at: new Date(now - 7 * 3600_000 + 20 * 60_000).toISOString(),
      liters: 60,
      pricePerLiter: 6,
      odometerKm: 5000,
    });
    const unseen = await add({
      at: new Date(now - 3 * 3600_000).toISOString(),
      liters: 50,
      pricePerLiter: 6,
      odometerKm: 5100,
    });
    // Long before the sensor's readings: nothing to compare with, no flag.
    const before = await add({ at: daysAgo(20), liters: 50, pricePerLiter: 6, odometerKm: 4000 });
    const refuels = await list();
    const byId = (id: string) => refuels.find((r) => r.id === id);
    expect(codes(byId(seen.id))).toEqual([]);
    expect(codes(byId(unseen.id))).toEqual(['no_sensor_rise']);
    expect(codes(byId(before.id))).toEqual([]);
  });

  it('keeps another company out', async () => {
    const { north, v, add, s } = await setup();
    const refuel = await add({ at: daysAgo(2), liters: 30, pricePerLiter: 6, odometerKm: 100 });
    const intruder = await as(s, 'gestor.sul@rastro.demo');
    expect((await intruder.call('GET', `/registros/refuels/${refuel.id}`)).status).toBe(404);
    expect(
      (await intruder.call('PATCH', `/registros/refuels/${refuel.id}`, { liters: 1 })).status,
    ).toBe(404);
    expect((await intruder.call('DELETE', `/registros/refuels/${refuel.id}`)).status).toBe(404);
    const list = await intruder.call<RefuelPage>('GET', '/registros/refuels?limit=1000');
    expect(list.body.refuels.map((r) => r.id)).not.toContain(refuel.id);
    expect(
      (await intruder.call('GET', `/registros/refuels-consumption?clientId=${north}`)).status,
    ).toBe(404);
    const write = await intruder.call('POST', '/registros/refuels', {
      clientId: north,
      vehicleId: v.vehicleId,
      at: daysAgo(1),
      liters: 10,
      pricePerLiter: 6,
      odometerKm: 200,
    });
    expect([403, 404]).toContain(write.status);
    const imported = await intruder.call('POST', '/registros/refuels-import', {
      clientId: north,
      content: `01/11/2026 07:30;${v.plate};;10;6;1;P;não`,
    });
    expect([403, 404]).toContain(imported.status);
    const mine = await (await as(s, 'gestor.norte@rastro.demo')).call<Refuel>(
      'GET',
      `/registros/refuels/${refuel.id}`,
    );
    expect(mine.body.liters).toBe(30);
  });

  it('keeps a vehicle’s expenses, in pt-BR, and out of another company’s reach', async () => {
    const { s, north, v, manager } = await setup();
    const toll = await manager.call<Expense>('POST', '/registros/expenses', {
      clientId: north,
      vehicleId: v.vehicleId,
      date: '2026-11-10',
      category: 'toll',
      amount: 48.6,
      description: 'Pedágio BR-232',
    });
    expect(toll.status, JSON.stringify(toll.body)).toBe(201);
    expect(toll.body).toMatchObject({ amount: 48.6, plate: v.plate, category: 'toll' });
    const bad = await manager.call<ErrorBody>('POST', '/registros/expenses', {
      clientId: north,
      vehicleId: v.vehicleId,
      date: '2026-11-10',
      category: 'lanche',
      amount: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Categoria inválida|Valor: deve ser maior que zero/);
    const list = await manager.call<ExpensePage>(
      'GET',
      `/registros/expenses?clientId=${north}&vehicleId=${v.vehicleId}&from=2026-11-01&to=2026-11-30`,
    );
    expect(list.body.expenses.map((e) => e.id)).toEqual([toll.body.id]);
    const intruder = await as(s, 'gestor.sul@rastro.demo');
    expect((await intruder.call('GET', `/registros/expenses/${toll.body.id}`)).status).toBe(404);
    expect(
      (await intruder.call('PATCH', `/registros/expenses/${toll.body.id}`, { amount: 1 })).status,
    ).toBe(404);
  });

  it('counts the dashboard’s overdue maintenance, expiring documents and fuel by month', async () => {
    const { north, v, manager, add } = await setup();
    const upkeep = async () =>
      (await manager.call<DashboardUpkeep>('GET', `/registros/dashboard/upkeep?clientId=${north}`))
        .body;
    const before = await upkeep();
    const now = new Date();
    const sp = new Date(now.getTime() - 3 * 3600_000);
    // The first of this São Paulo month at 12:00, and a day before it (last month).
    const firstOfMonth = Date.UTC(sp.getUTCFullYear(), sp.getUTCMonth(), 1, 15);
    await add({
      at: new Date(Math.min(firstOfMonth, now.getTime() - 60_000)).toISOString(),
      liters: 10,
      pricePerLiter: 6,
      odometerKm: 100,
    });
    await add({
      at: new Date(firstOfMonth - 86_400_000).toISOString(),
      liters: 100,
      pricePerLiter: 6,
      odometerKm: 50,
    });
    const day = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString().slice(0, 10);
    for (const expiry of [day(10), day(-3)])
      expect(
        (
          await manager.call('POST', '/registros/documents', {
            clientId: north,
            vehicleId: v.vehicleId,
            kind: 'ipva',
            expiry,
          })
        ).status,
      ).toBe(201);
    const plan = await manager.call('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Troca de óleo',
      vehicleId: v.vehicleId,
      everyDays: 30,
      startDate: day(-60),
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const after = await upkeep();
    expect(after.maintenanceOverdue - before.maintenanceOverdue).toBe(1);
    expect(after.documentsExpiring - before.documentsExpiring).toBe(1);
    expect(after.documentsExpired - before.documentsExpired).toBe(1);
    expect(Math.round((after.fuelThisMonth - before.fuelThisMonth) * 100)).toBe(6000);
    expect(Math.round((after.fuelLastMonth - before.fuelLastMonth) * 100)).toBe(60_000);
  });
});
