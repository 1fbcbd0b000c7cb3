/**
 * Refuels (customer-owned, on ownedRoutes) with what looks wrong about each, their import
 * from a fuel card's file, the consumption of a customer's vehicles, and vehicles' expenses.
 */
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import type * as v from 'valibot';
import {
  ConsumptionListSchema,
  ConsumptionQuerySchema,
  EXPENSE_CATEGORY_LABELS,
  type ExpenseCategory,
  ExpenseCreateSchema,
  ExpensePageSchema,
  ExpenseQuerySchema,
  ExpenseUpdateSchema,
  REFUEL_FUTURE_MESSAGE,
  REFUEL_TOTAL_MESSAGE,
  RefuelCreateSchema,
  type RefuelFlag,
  RefuelImportResultSchema,
  RefuelImportSchema,
  RefuelPageSchema,
  RefuelQuerySchema,
  RefuelUpdateSchema,
  type VehicleConsumption,
} from '../../../src/contract';
import {
  analyseRefuels,
  consumptionTotals,
  detectRefuels,
  NO_SENSOR_RISE_MESSAGE,
  priceMilliOf,
  SENSOR_MATCH_MS,
  totalCentsOf,
} from '../../../src/lib/fuel';
import { CSV_MAX_LINES, parseFuelCsv } from '../../../src/lib/fuel-csv';
import { unmaskDocument } from '../../../src/lib/unmask';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import { actorOf, recordAudit } from '../../audit/record';
import type { Deps } from '../../deps';
import { vehiclesOfClient } from '../../inventory/queries/inventory';
import { type Ctx, owned, ownedRoutes, present } from '../../owned/mold';
import { getOwned } from '../../owned/queries';
import { badRequest, notFound } from '../../platform/http/errors';
import { invalid, validate } from '../../platform/http/validate';
import { drivers, refuels } from '../../schema';
import { canSeeClient, visibleClient, visibleClientIds } from '../../tenancy/scope';
import {
  driverNames,
  driversOfClient,
  expenseQueries,
  fuelReadings,
  refuelHistory,
  refuelQueries,
  vehicleFacts,
  vehiclesOf,
} from '../queries/refuels';

type RefuelPatch = v.InferOutput<typeof RefuelUpdateSchema>;
type ExpensePatch = v.InferOutput<typeof ExpenseUpdateSchema>;
type RefuelRow = typeof refuels.$inferSelect;

/** A clock skew a phone may have: a refuel a few minutes "ahead" is still now. */
const FUTURE_SLACK_MS = 5 * 60_000;
/** Sensor checks per answer: each reads a few hours of one vehicle's positions. */
const SENSOR_CHECKS = 200;

async function ownVehicle(deps: Deps, clientId: string, id: string, field: string) {
  const found = await vehiclesOfClient(deps.database.db, clientId, [id]);
  if (found.length === 0) throw invalid(field, 'Veículo não encontrado neste cliente');
}

/** Whether the vehicle's fuel sensor saw a refuel within ±2 h; undefined: no readings then. */
async function sensorSawIt(deps: Deps, row: RefuelRow): Promise<boolean | undefined> {
  const at = row.at.getTime();
  // From an hour before the window, so the level the rise starts from is read too.
  const readings = await fuelReadings(
    deps.database.db,
    row.vehicleId,
    new Date(at - SENSOR_MATCH_MS - 3600_000),
    new Date(at + SENSOR_MATCH_MS),
  );
  if (readings.length === 0) return undefined;
  return detectRefuels(readings).some((d) => Math.abs(d.at - at) <= SENSOR_MATCH_MS);
}

/** The refuels as the API shows them, each with its flags. */
async function refuelsOut(deps: Deps, rows: RefuelRow[]) {
  const { db } = deps.database;
  const vehicleIds = rows.map((r) => r.vehicleId);
  const [facts, names, history] = await Promise.all([
    vehicleFacts(db, vehicleIds),
    driverNames(
      db,
      rows.flatMap((r) => (r.driverId ? [r.driverId] : [])),
    ),
    refuelHistory(db, vehicleIds),
  ]);
  const flags = new Map<string, RefuelFlag[]>();
  for (const [vehicleId, list] of history) {
    const analysis = analyseRefuels(list, facts.get(vehicleId)?.fuelTankLiters ?? null);
    for (const [id, f] of analysis.flags) flags.set(id, f);
  }
  const sensor = await Promise.all(
    rows.map((row, i) =>
      i < SENSOR_CHECKS && !row.canceledAt ? sensorSawIt(deps, row) : undefined,
    ),
  );
  return rows.map((row, i) => ({
    ...owned(row),
    vehicleId: row.vehicleId,
    plate: facts.get(row.vehicleId)?.plate ?? null,
    driverId: row.driverId,
    driverName: row.driverId ? (names.get(row.driverId) ?? null) : null,
    at: row.at.toISOString(),
    liters: row.liters,
    pricePerLiter: row.priceMilli / 1000,
    total: row.totalCents / 100,
    odometerKm: row.odometerKm,
    station: row.station,
    fullTank: row.fullTank,
    notes: row.notes,
    flags: [
      ...(flags.get(row.id) ?? []),
      ...(sensor[i] === false
        ? [{ code: 'no_sensor_rise' as const, message: NO_SENSOR_RISE_MESSAGE }]
        : []),
    ],
  }));
}

/** Price and total as they will be stored, consistent: total = litres × price, to the centavo. */
function money(r: RefuelPatch, existing?: RefuelRow): Record<string, number> {
  const liters = r.liters ?? existing?.liters;
  if (liters === undefined) return {};
  const price = r.pricePerLiter === undefined ? undefined : Math.round(r.pricePerLiter * 1000);
  const total = r.total === undefined ? undefined : Math.round(r.total * 100);
  if (price !== undefined && total !== undefined) {
    const expected = totalCentsOf(liters, price);
    // A centavo either way: the pump rounds the same product its own way.
    if (Math.abs(expected - total) > 1)
      throw invalid(
        'total',
        `${REFUEL_TOTAL_MESSAGE} (R$ ${(expected / 100).toFixed(2).replace('.', ',')})`,
      );
    return { priceMilli: price, totalCents: expected };
  }
  if (price !== undefined) return { priceMilli: price, totalCents: totalCentsOf(liters, price) };
  if (total !== undefined) return { priceMilli: priceMilliOf(liters, total), totalCents: total };
  if (existing && r.liters !== undefined)
    return {
      priceMilli: existing.priceMilli,
      totalCents: totalCentsOf(liters, existing.priceMilli),
    };
  return {};
}

export function refuelRoutes(deps: Deps) {
  const { db } = deps.database;
  return ownedRoutes(deps, {
    tag: 'Abastecimentos',
    audit: {
      entity: 'refuel',
      label: (row) => `${row.liters.toLocaleString('pt-BR')} L em ${row.at.toISOString()}`,
    },
    listKey: 'refuels',
    notFound: 'Abastecimento não encontrado',
    duplicate: 'Já existe um abastecimento igual',
    schemas: {
      create: RefuelCreateSchema,
      update: RefuelUpdateSchema,
      query: RefuelQuerySchema,
      output: RefuelPageSchema,
    },
    ...refuelQueries,
    async checkRefs(c: Ctx, input, clientId, existing) {
      const r = input as RefuelPatch;
      if (r.at && Date.parse(r.at) > Date.now() + FUTURE_SLACK_MS)
        throw invalid('at', REFUEL_FUTURE_MESSAGE);
      const vehicleId = r.vehicleId ?? existing?.vehicleId;
      if (!vehicleId) throw invalid('vehicleId', 'Campo obrigatório');
      if (r.vehicleId || (existing && clientId !== existing.clientId))
        await ownVehicle(deps, clientId, vehicleId, 'vehicleId');
      const driverId = r.driverId === undefined ? existing?.driverId : r.driverId;
      if (driverId && (r.driverId || (existing && clientId !== existing.clientId))) {
        const driver = await getOwned(db, drivers, driverId, await visibleClientIds(c, deps));
        if (!driver || driver.clientId !== clientId)
          throw invalid('driverId', 'Motorista não encontrado neste cliente');
      }
    },
    toValues(input, existing) {
      const r = input as RefuelPatch;
      const values = present(r, [
        'clientId',
        'vehicleId',
        'driverId',
        'liters',
        'odometerKm',
        'station',
        'fullTank',
        'notes',
        'active',
      ]);
      if (r.at) values.at = new Date(r.at);
      return { ...values, ...money(r, existing) };
    },
    toOutput: (d, rows) => refuelsOut(d, rows),
  });
}

/** POST /: a fuel card's file; the lines that parse are imported together, the rest said. */
export function refuelImportRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));
  app.post(
    '/',
    describeRoute({
      tags: ['Abastecimentos'],
      summary: 'Importar o arquivo (CSV) de um cartão combustível',
      responses: {
        200: {
          description: 'Quantos entraram e as linhas recusadas',
          content: { 'application/json': { schema: resolver(RefuelImportResultSchema) } },
        },
      },
    }),
    requirePermission('create_resources'),
    validate('json', RefuelImportSchema),
    async (c) => {
      const { clientId, content } = c.req.valid('json');
      await visibleClient(c, deps, clientId);
      const parsed = parseFuelCsv(content, new Date());
      if (parsed.tooLong)
        throw badRequest(`Arquivo com linhas demais: até ${CSV_MAX_LINES} por arquivo`);
      const errors = [...parsed.errors];
      const byPlate = new Map((await vehiclesOf(db, [clientId])).map((v) => [v.plate, v]));
      const people = await driversOfClient(db, clientId);
      const byCpf = new Map(people.map((p) => [unmaskDocument(p.cpf), p.id]));
      const byName = new Map(people.map((p) => [p.name.trim().toLowerCase(), p.id]));
      const values: Record<string, unknown>[] = [];
      for (const row of parsed.rows) {
        const vehicle = byPlate.get(row.plate);
        if (!vehicle) {
          errors.push({
            line: row.line,
            message: `Veículo ${row.plate} não encontrado neste cliente`,
          });
          continue;
        }
        let driverId: string | null = null;
        if (row.driver) {
          const digits = unmaskDocument(row.driver);
          driverId =
            (/^\d{11}$/.test(digits) ? byCpf.get(digits) : byName.get(row.driver.toLowerCase())) ??
            null;
          if (!driverId) {
            errors.push({ line: row.line, message: `Motorista "${row.driver}" não encontrado` });
            continue;
          }
        }
        values.push({
          clientId,
          vehicleId: vehicle.id,
          driverId,
          at: row.at,
          liters: row.liters,
          priceMilli: row.priceMilli,
          totalCents: totalCentsOf(row.liters, row.priceMilli),
          odometerKm: row.odometerKm,
          station: row.station || null,
          fullTank: row.fullTank,
          notes: null,
        });
      }
      if (values.length > 0)
        await db.transaction(async (tx) => {
          const created = await tx
            .insert(refuels)
            .values(values as never)
            .returning();
          for (const row of created)
            await recordAudit(tx, {
              ...actorOf(c, deps),
              clientId: row.clientId,
              kind: 'create',
              entity: 'refuel',
              entityId: row.id,
              summary: `Importado: ${row.liters.toLocaleString('pt-BR')} L em ${row.at.toISOString()}`,
              changes: null,
            });
        });
      errors.sort((a, b) => a.line - b.line);
      return c.json({ imported: values.length, errors });
    },
  );
  return app;
}

/** GET /: km/L and cost per km of a customer's vehicles between full tanks, in a period. */
export function consumptionRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));
  app.get(
    '/',
    describeRoute({
      tags: ['Abastecimentos'],
      summary: 'Consumo (km/L) e custo por km entre tanques cheios, por veículo',
      responses: {
        200: {
          description: 'Por veículo',
          content: { 'application/json': { schema: resolver(ConsumptionListSchema) } },
        },
      },
    }),
    validate('query', ConsumptionQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      if (!(await canSeeClient(c, deps, q.clientId))) throw notFound('Cliente não encontrado');
      if (c.var.user.role === 'VISITOR') return c.json({ vehicles: [] });
      const list = await vehiclesOf(db, [q.clientId], q.vehicleId ? [q.vehicleId] : undefined);
      const from = q.from ? Date.parse(q.from) : Number.NEGATIVE_INFINITY;
      const to = q.to ? Date.parse(q.to) : Number.POSITIVE_INFINITY;
      const history = await refuelHistory(
        db,
        list.map((v) => v.id),
        q.to ? new Date(q.to) : undefined,
      );
      const out: VehicleConsumption[] = [];
      for (const vehicle of list) {
        const all = history.get(vehicle.id) ?? [];
        const inPeriod = all.filter((r) => r.at >= from && r.at <= to);
        if (inPeriod.length === 0) continue;
        const intervals = analyseRefuels(all, vehicle.fuelTankLiters).intervals.filter(
          (i) => i.toAt >= from && i.toAt <= to,
        );
        const totals = consumptionTotals(intervals);
        out.push({
          vehicleId: vehicle.id,
          plate: vehicle.plate,
          name: vehicle.name,
          refuels: inPeriod.length,
          liters: Math.round(inPeriod.reduce((s, r) => s + r.liters, 0) * 100) / 100,
          spent: inPeriod.reduce((s, r) => s + r.totalCents, 0) / 100,
          km: totals.km,
          kmPerLiter: totals.kmPerLiter,
          costPerKm: totals.costPerKm,
          intervals: intervals.map((i) => ({
            fromAt: new Date(i.fromAt).toISOString(),
            toAt: new Date(i.toAt).toISOString(),
            km: i.km,
            liters: i.liters,
            cost: i.costCents / 100,
            kmPerLiter: i.kmPerLiter,
          })),
        });
      }
      return c.json({ vehicles: out });
    },
  );
  return app;
}

export function expenseRoutes(deps: Deps) {
  const { db } = deps.database;
  return ownedRoutes(deps, {
    tag: 'Despesas',
    audit: {
      entity: 'expense',
      label: (row) =>
        `${EXPENSE_CATEGORY_LABELS[row.category as ExpenseCategory] ?? row.category} em ${row.date}`,
    },
    listKey: 'expenses',
    notFound: 'Despesa não encontrada',
    duplicate: 'Já existe uma despesa igual',
    schemas: {
      create: ExpenseCreateSchema,
      update: ExpenseUpdateSchema,
      query: ExpenseQuerySchema,
      output: ExpensePageSchema,
    },
    ...expenseQueries,
    async checkRefs(_c, input, clientId, existing) {
      const e = input as ExpensePatch;
      const vehicleId = e.vehicleId ?? existing?.vehicleId;
      if (!vehicleId) throw invalid('vehicleId', 'Campo obrigatório');
      if (e.vehicleId || (existing && clientId !== existing.clientId))
        await ownVehicle(deps, clientId, vehicleId, 'vehicleId');
    },
    toValues(input) {
      const e = input as ExpensePatch;
      const values = present(e, [
        'clientId',
        'vehicleId',
        'date',
        'category',
        'description',
        'active',
      ]);
      if (e.amount !== undefined) values.amountCents = Math.round(e.amount * 100);
      return values;
    },
    async toOutput(_d, rows) {
      const facts = await vehicleFacts(
        db,
        rows.map((r) => r.vehicleId),
      );
      return rows.map((row) => ({
        ...owned(row),
        vehicleId: row.vehicleId,
        plate: facts.get(row.vehicleId)?.plate ?? null,
        date: row.date,
        category: row.category as ExpenseCategory,
        amount: row.amountCents / 100,
        description: row.description,
      }));
    },
  });
}
