/**
 * Refuels ('abastecimentos') of a customer's vehicles, their CSV import from a fuel card's
 * file, the consumption between full tanks, and the vehicles' other expenses ('despesas').
 * Money in reais on the wire (to the centavo; a litre's price to a tenth of a centavo).
 */
import * as v from 'valibot';
import { IdSchema, IsoTimestampSchema, isoDateSchema, PERIOD_ORDER } from './common';
import { listQuery, ownedOut, page } from './inventory';
import { DATE_MESSAGE } from './maintenance';
import * as o from './objects';

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max));
const clearable = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));
const positive = (max: number, what: string) =>
  v.pipe(
    v.number(`${what}: informe um número`),
    v.gtValue(0, `${what}: deve ser maior que zero`),
    v.maxValue(max, `${what}: até ${max.toLocaleString('pt-BR')}`),
  );

export const REFUEL_FUTURE_MESSAGE = 'A data do abastecimento não pode estar no futuro';
export const REFUEL_PRICE_MESSAGE = 'Informe o preço por litro ou o total';
export const REFUEL_TOTAL_MESSAGE = 'O total não confere com litros × preço por litro';

const refuelFields = {
  clientId: IdSchema,
  vehicleId: IdSchema,
  driverId: v.optional(IdSchema),
  at: IsoTimestampSchema,
  liters: positive(5000, 'Litros'),
  /** R$ per litre, to a tenth of a centavo (R$ 5,899). */
  pricePerLiter: v.optional(positive(100, 'Preço por litro')),
  /** R$, to the centavo: litres × price, rounded. Either this or the price is enough. */
  total: v.optional(positive(500_000, 'Total')),
  odometerKm: v.pipe(
    v.number('Hodômetro: informe um número'),
    v.minValue(0, 'Hodômetro: não pode ser negativo'),
    v.maxValue(10_000_000, 'Hodômetro: até 10.000.000 km'),
  ),
  station: v.optional(text(120)),
  fullTank: v.optional(v.boolean()),
  notes: v.optional(text(1000)),
  active: v.optional(v.boolean()),
};
export const RefuelCreateSchema = v.pipe(
  o.strictObject(refuelFields),
  v.forward(
    v.partialCheck(
      [['pricePerLiter'], ['total']],
      (r) => r.pricePerLiter !== undefined || r.total !== undefined,
      REFUEL_PRICE_MESSAGE,
    ),
    ['pricePerLiter'],
  ),
);
export const RefuelUpdateSchema = o.strictObject({
  ...refuelFields,
  clientId: v.optional(IdSchema),
  vehicleId: v.optional(IdSchema),
  driverId: clearable(IdSchema),
  at: v.optional(IsoTimestampSchema),
  liters: v.optional(refuelFields.liters),
  odometerKm: v.optional(refuelFields.odometerKm),
  station: clearable(text(120)),
  notes: clearable(text(1000)),
});
export const REFUEL_SORTS = ['at', 'createdAt', 'updatedAt'] as const;
export const RefuelQuerySchema = v.pipe(
  o.strictObject({
    ...listQuery(REFUEL_SORTS).entries,
    vehicleId: v.optional(IdSchema),
    from: v.optional(IsoTimestampSchema),
    to: v.optional(IsoTimestampSchema),
  }),
  v.forward(
    v.check((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), PERIOD_ORDER),
    ['to'],
  ),
);

export const REFUEL_FLAG_CODES = [
  'over_tank',
  'odometer_back',
  'consumption',
  'no_sensor_rise',
] as const;
export const RefuelFlagSchema = o.object({
  code: v.picklist(REFUEL_FLAG_CODES),
  message: v.string(),
});
export type RefuelFlag = v.InferOutput<typeof RefuelFlagSchema>;
export const RefuelSchema = o.object({
  ...ownedOut,
  vehicleId: v.string(),
  plate: v.nullable(v.string()),
  driverId: v.nullable(v.string()),
  driverName: v.nullable(v.string()),
  at: v.string(),
  liters: v.number(),
  pricePerLiter: v.number(),
  total: v.number(),
  odometerKm: v.number(),
  station: v.nullable(v.string()),
  fullTank: v.boolean(),
  notes: v.nullable(v.string()),
  /** What looks wrong about it, each with its reason in words. */
  flags: v.array(RefuelFlagSchema),
});
export type Refuel = v.InferOutput<typeof RefuelSchema>;
export const RefuelPageSchema = page('refuels', RefuelSchema);
export type RefuelPage = v.InferOutput<typeof RefuelPageSchema>;

// ── Import ────────────────────────────────────────────────────────────────────────────────
export const RefuelImportSchema = o.strictObject({
  clientId: IdSchema,
  /** The file's text (UTF-8), at most 512 KB and 5000 lines. */
  content: v.pipe(
    v.string('Envie o conteúdo do arquivo'),
    v.nonEmpty('Arquivo vazio'),
    v.maxLength(512 * 1024, 'Arquivo grande demais: até 512 KB'),
  ),
});
export const RefuelImportResultSchema = o.object({
  imported: v.number(),
  errors: v.array(o.object({ line: v.number(), message: v.string() })),
});
export type RefuelImportResult = v.InferOutput<typeof RefuelImportResultSchema>;

// ── Consumption ───────────────────────────────────────────────────────────────────────────
export const ConsumptionQuerySchema = v.pipe(
  o.strictObject({
    clientId: IdSchema,
    vehicleId: v.optional(IdSchema),
    from: v.optional(IsoTimestampSchema),
    to: v.optional(IsoTimestampSchema),
  }),
  v.forward(
    v.check((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), PERIOD_ORDER),
    ['to'],
  ),
);
export const ConsumptionIntervalSchema = o.object({
  fromAt: v.string(),
  toAt: v.string(),
  km: v.number(),
  liters: v.number(),
  cost: v.number(),
  kmPerLiter: v.number(),
});
export const VehicleConsumptionSchema = o.object({
  vehicleId: v.string(),
  plate: v.string(),
  name: v.string(),
  /** Refuels in the period: their litres and what they cost (R$). */
  refuels: v.number(),
  liters: v.number(),
  spent: v.number(),
  /** Over the intervals between full tanks that closed in the period. */
  km: v.number(),
  kmPerLiter: v.nullable(v.number()),
  costPerKm: v.nullable(v.number()),
  intervals: v.array(ConsumptionIntervalSchema),
});
export type VehicleConsumption = v.InferOutput<typeof VehicleConsumptionSchema>;
export const ConsumptionListSchema = o.object({ vehicles: v.array(VehicleConsumptionSchema) });
export type ConsumptionList = v.InferOutput<typeof ConsumptionListSchema>;

// ── Expenses ──────────────────────────────────────────────────────────────────────────────
export const EXPENSE_CATEGORIES = [
  'toll',
  'fine',
  'washing',
  'parking',
  'tyres',
  'insurance',
  'other',
] as const;
export type ExpenseCategory = (typeof EXPENSE_CATEGORIES)[number];
export const EXPENSE_CATEGORY_LABELS: Record<ExpenseCategory, string> = {
  toll: 'Pedágio',
  fine: 'Multa',
  washing: 'Lavagem',
  parking: 'Estacionamento',
  tyres: 'Pneus',
  insurance: 'Seguro',
  other: 'Outros',
};
const expenseFields = {
  clientId: IdSchema,
  vehicleId: IdSchema,
  date: isoDateSchema(DATE_MESSAGE),
  category: v.picklist(EXPENSE_CATEGORIES, 'Categoria inválida'),
  amount: positive(1_000_000, 'Valor'),
  description: v.optional(text(300)),
  active: v.optional(v.boolean()),
};
export const ExpenseCreateSchema = o.strictObject(expenseFields);
export const ExpenseUpdateSchema = o.strictObject({
  ...expenseFields,
  clientId: v.optional(IdSchema),
  vehicleId: v.optional(IdSchema),
  date: v.optional(expenseFields.date),
  category: v.optional(expenseFields.category),
  amount: v.optional(expenseFields.amount),
  description: clearable(text(300)),
});
export const EXPENSE_SORTS = ['date', 'createdAt', 'updatedAt'] as const;
export const ExpenseQuerySchema = o.strictObject({
  ...listQuery(EXPENSE_SORTS).entries,
  vehicleId: v.optional(IdSchema),
  from: v.optional(isoDateSchema(DATE_MESSAGE)),
  to: v.optional(isoDateSchema(DATE_MESSAGE)),
});
export const ExpenseSchema = o.object({
  ...ownedOut,
  vehicleId: v.string(),
  plate: v.nullable(v.string()),
  date: v.string(),
  category: v.picklist(EXPENSE_CATEGORIES),
  amount: v.number(),
  description: v.nullable(v.string()),
});
export type Expense = v.InferOutput<typeof ExpenseSchema>;
export const ExpensePageSchema = page('expenses', ExpenseSchema);
export type ExpensePage = v.InferOutput<typeof ExpensePageSchema>;

// ── Fleet costs ───────────────────────────────────────────────────────────────────────────
export const MONTH_MESSAGE = 'Mês inválido: use AAAA-MM';
const Month = v.pipe(v.string(MONTH_MESSAGE), v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, MONTH_MESSAGE));
export const COST_MONTHS_MAX = 24;
const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
export const FleetCostQuerySchema = v.pipe(
  o.strictObject({
    clientId: IdSchema,
    vehicleId: v.optional(IdSchema),
    from: Month,
    to: Month,
  }),
  v.forward(
    v.check((q) => q.from <= q.to, 'O mês final deve ser igual ou posterior ao inicial'),
    ['to'],
  ),
  v.forward(
    v.check(
      (q) => monthIndex(q.to) - monthIndex(q.from) < COST_MONTHS_MAX,
      `Período longo demais: até ${COST_MONTHS_MAX} meses`,
    ),
    ['to'],
  ),
);
export const FleetCostFileQuerySchema = v.pipe(
  o.strictObject({
    clientId: IdSchema,
    vehicleId: v.optional(IdSchema),
    from: Month,
    to: Month,
    format: v.picklist(['pdf', 'excel'], 'Formato inválido: use pdf ou excel'),
  }),
  v.forward(
    v.check((q) => q.from <= q.to, 'O mês final deve ser igual ou posterior ao inicial'),
    ['to'],
  ),
  v.forward(
    v.check(
      (q) => monthIndex(q.to) - monthIndex(q.from) < COST_MONTHS_MAX,
      `Período longo demais: até ${COST_MONTHS_MAX} meses`,
    ),
    ['to'],
  ),
);
export const FleetCostRowSchema = o.object({
  vehicleId: v.string(),
  plate: v.string(),
  name: v.string(),
  month: v.string(),
  fuel: v.number(),
  maintenance: v.number(),
  other: v.number(),
  total: v.number(),
  km: v.number(),
  /** R$ per km; null without km. */
  costPerKm: v.nullable(v.number()),
});
export type FleetCostRow = v.InferOutput<typeof FleetCostRowSchema>;
export const FleetCostListSchema = o.object({
  rows: v.array(FleetCostRowSchema),
  totals: o.object({
    fuel: v.number(),
    maintenance: v.number(),
    other: v.number(),
    total: v.number(),
    km: v.number(),
    costPerKm: v.nullable(v.number()),
  }),
});
export type FleetCostList = v.InferOutput<typeof FleetCostListSchema>;
