/**
 * What each vehicle of a customer cost per São Paulo month: fuel (refuels), maintenance
 * (service records' cost), other expenses, and the km it drove (the daily rollup's distance).
 */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../platform/db/client';

export interface CostRow {
  vehicleId: string;
  month: string;
  fuelCents: number;
  maintenanceCents: number;
  otherCents: number;
  meters: number;
}

const ids = (list: string[]) => `{${list.join(',')}}`;

/** Months 'AAAA-MM' from `from` to `to` inclusive, of these vehicles owned by `clientIds`. */
export async function costsOf(
  db: Db,
  clientIds: string[],
  vehicleIds: string[],
  from: string,
  to: string,
): Promise<CostRow[]> {
  if (clientIds.length === 0 || vehicleIds.length === 0) return [];
  const rows = rowsOf<{
    vehicle_id: string;
    month: string;
    kind: string;
    amount: number | string;
  }>(
    await db.execute(sql`
      select vehicle_id, to_char(at at time zone 'America/Sao_Paulo', 'YYYY-MM') as month,
             'fuel' as kind, sum(total_cents) as amount
        from refuels
       where canceled_at is null and client_id = any(${ids(clientIds)}::uuid[])
         and vehicle_id = any(${ids(vehicleIds)}::uuid[])
         and to_char(at at time zone 'America/Sao_Paulo', 'YYYY-MM') between ${from} and ${to}
       group by 1, 2
      union all
      select vehicle_id, substr(date, 1, 7), 'maintenance', sum(coalesce(cost_cents, 0))
        from service_records
       where canceled_at is null and client_id = any(${ids(clientIds)}::uuid[])
         and vehicle_id = any(${ids(vehicleIds)}::uuid[])
         and substr(date, 1, 7) between ${from} and ${to}
       group by 1, 2
      union all
      select vehicle_id, substr(date, 1, 7), 'other', sum(amount_cents)
        from vehicle_expenses
       where canceled_at is null and client_id = any(${ids(clientIds)}::uuid[])
         and vehicle_id = any(${ids(vehicleIds)}::uuid[])
         and substr(date, 1, 7) between ${from} and ${to}
       group by 1, 2
      union all
      select vehicle_id, substr(day, 1, 7), 'meters', sum(distance)
        from vehicle_days
       where client_id = any(${ids(clientIds)}::uuid[])
         and vehicle_id = any(${ids(vehicleIds)}::uuid[])
         and substr(day, 1, 7) between ${from} and ${to}
       group by 1, 2`),
  );
  const out = new Map<string, CostRow>();
  for (const r of rows) {
    const key = `${r.vehicle_id}|${r.month}`;
    const row = out.get(key) ?? {
      vehicleId: r.vehicle_id,
      month: r.month,
      fuelCents: 0,
      maintenanceCents: 0,
      otherCents: 0,
      meters: 0,
    };
    const amount = Number(r.amount);
    if (r.kind === 'fuel') row.fuelCents += amount;
    else if (r.kind === 'maintenance') row.maintenanceCents += amount;
    else if (r.kind === 'other') row.otherCents += amount;
    else row.meters += amount;
    out.set(key, row);
  }
  return [...out.values()];
}
