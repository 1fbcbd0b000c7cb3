/**
 * Custos da frota: per vehicle and São Paulo month, fuel (refuels), maintenance (service
 * records' cost), other expenses, total, km driven (the daily rollup) and cost per km; and the
 * report document of them, for a download or an automated report.
 */
import type { FleetCostList } from '../../src/contract';
import { dayStart } from '../../src/lib/report-period';
import type { Db } from '../platform/db/client';
import { costsOf } from '../upkeep/queries/costs';
import { vehiclesOf } from '../upkeep/queries/refuels';
import type { ReportDocument } from './files/model';

const nextMonth = (m: string) => {
  const y = Number(m.slice(0, 4));
  const mo = Number(m.slice(5, 7));
  return mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
};
const round2 = (x: number) => Math.round(x * 100) / 100;

/** The costs of a customer's vehicles (and of the companies below it the caller sees). */
export async function fleetCosts(
  db: Db,
  clientIds: string[],
  q: { vehicleId?: string | undefined; vehicleIds?: string[]; from: string; to: string },
): Promise<FleetCostList> {
  const only = q.vehicleId ? [q.vehicleId] : q.vehicleIds;
  const vehicles = await vehiclesOf(db, clientIds, only);
  const byId = new Map(vehicles.map((v) => [v.id, v]));
  const costs = await costsOf(
    db,
    clientIds,
    vehicles.map((v) => v.id),
    q.from,
    q.to,
  );
  const rows = costs
    .flatMap((c) => {
      const v = byId.get(c.vehicleId);
      if (!v) return [];
      const totalCents = c.fuelCents + c.maintenanceCents + c.otherCents;
      const km = Math.round(c.meters / 100) / 10;
      return [
        {
          vehicleId: v.id,
          plate: v.plate,
          name: v.name,
          month: c.month,
          fuel: c.fuelCents / 100,
          maintenance: c.maintenanceCents / 100,
          other: c.otherCents / 100,
          total: totalCents / 100,
          km,
          costPerKm: km > 0 ? round2(totalCents / 100 / km) : null,
        },
      ];
    })
    .sort((a, b) => a.month.localeCompare(b.month) || a.plate.localeCompare(b.plate));
  const sum = (key: 'fuel' | 'maintenance' | 'other' | 'total' | 'km') =>
    round2(rows.reduce((s, r) => s + r[key], 0));
  const km = sum('km');
  return {
    rows,
    totals: {
      fuel: sum('fuel'),
      maintenance: sum('maintenance'),
      other: sum('other'),
      total: sum('total'),
      km,
      costPerKm: km > 0 ? round2(sum('total') / km) : null,
    },
  };
}

/** The report file of fleet costs: one table, a row per vehicle and month, with its totals. */
export function fleetCostDocument(
  costs: FleetCostList,
  customer: string,
  from: string,
  to: string,
  generatedAt: Date,
): ReportDocument {
  return {
    title: 'Custos da frota',
    fileBase: 'custos_frota_relatorio',
    customer,
    subjects: [...new Set(costs.rows.map((r) => r.plate))],
    subjectLabel: 'Veículos',
    beginAt: dayStart(`${from}-01`),
    endAt: dayStart(`${nextMonth(to)}-01`),
    generatedAt,
    summary: [
      ['Total', costs.totals.total, 'money'],
      ['Km rodados', costs.totals.km * 1000, 'km'],
    ],
    tables: [
      {
        title: 'Custos por veículo e mês',
        columns: [
          { header: 'Mês', kind: 'text', width: 9 },
          { header: 'Veículo', kind: 'text', width: 24 },
          { header: 'Combustível', kind: 'money', width: 14 },
          { header: 'Manutenção', kind: 'money', width: 14 },
          { header: 'Outras despesas', kind: 'money', width: 14 },
          { header: 'Total', kind: 'money', width: 14 },
          { header: 'Km rodados', kind: 'km', width: 12 },
          { header: 'R$/km', kind: 'money', width: 10 },
        ],
        rows: costs.rows.map((r) => [
          `${r.month.slice(5, 7)}/${r.month.slice(0, 4)}`,
          `${r.plate} — ${r.name}`,
          r.fuel,
          r.maintenance,
          r.other,
          r.total,
          r.km * 1000,
          r.costPerKm,
        ]),
        totals: [
          'Total',
          '',
          costs.totals.fuel,
          costs.totals.maintenance,
          costs.totals.other,
          costs.totals.total,
          costs.totals.km * 1000,
          costs.totals.costPerKm,
        ],
        empty: 'Nenhum custo neste período.',
      },
    ],
    routes: [],
  };
}
