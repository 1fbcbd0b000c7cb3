/**
 * Refuels: their money (litres × price = total, to the centavo), the consumption between full
 * tanks, the refuels that look wrong, and the refuels a fuel sensor saw. Pure functions: the
 * server computes with them and tests pin their figures.
 */

/** Total in centavos of `liters` at `priceMilli` (thousandths of a real per litre). */
export function totalCentsOf(liters: number, priceMilli: number): number {
  return Math.round((liters * priceMilli) / 10);
}

/** Price per litre in thousandths of a real, from a total in centavos. */
export function priceMilliOf(liters: number, totalCents: number): number {
  return Math.round((totalCents * 10) / liters);
}

export interface RefuelFacts {
  id: string;
  /** Epoch ms. */
  at: number;
  liters: number;
  totalCents: number;
  odometerKm: number;
  fullTank: boolean;
}

/** From one full tank to the next: every litre put in after the first, up to the second. */
export interface ConsumptionInterval {
  fromId: string;
  toId: string;
  fromAt: number;
  toAt: number;
  km: number;
  liters: number;
  costCents: number;
  kmPerLiter: number;
}

export type RefuelFlagCode = 'over_tank' | 'odometer_back' | 'consumption' | 'no_sensor_rise';
export interface RefuelFlag {
  code: RefuelFlagCode;
  message: string;
}

/**
 * How far an interval's km/L may stray from the vehicle's usual before it is flagged: ±30 % of
 * the median km/L of the vehicle's last 10 intervals (the one judged and the 9 before it). The
 * median, not the mean, so that one wrong figure does not move the usual; and at least 3
 * intervals, so that a vehicle's first weeks are not judged against too little.
 */
export const CONSUMPTION_TOLERANCE = 0.3;
export const CONSUMPTION_WINDOW = 10;
export const CONSUMPTION_MIN_INTERVALS = 3;

const n1 = (x: number) => x.toLocaleString('pt-BR', { maximumFractionDigits: 1 });
const n2 = (x: number) =>
  x.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export interface Consumption {
  intervals: ConsumptionInterval[];
  flags: Map<string, RefuelFlag[]>;
}

/**
 * The intervals between full tanks of one vehicle and the flags of its refuels. `refuels` in
 * any order; they are taken by time. An interval whose odometer does not go forward has no
 * km/L (the odometer flag says why).
 */
export function analyseRefuels(refuels: RefuelFacts[], tankLiters: number | null): Consumption {
  const list = [...refuels].sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  const flags = new Map<string, RefuelFlag[]>();
  const flag = (id: string, f: RefuelFlag) => flags.set(id, [...(flags.get(id) ?? []), f]);
  const intervals: ConsumptionInterval[] = [];
  let lastFull: RefuelFacts | undefined;
  let liters = 0;
  let cost = 0;
  let previous: RefuelFacts | undefined;
  for (const r of list) {
    if (tankLiters && r.liters > tankLiters)
      flag(r.id, {
        code: 'over_tank',
        message: `${n1(r.liters)} L é mais do que cabe no tanque (${n1(tankLiters)} L)`,
      });
    if (previous && r.odometerKm < previous.odometerKm)
      flag(r.id, {
        code: 'odometer_back',
        message: `Hodômetro voltou: ${n1(r.odometerKm)} km, menor que os ${n1(previous.odometerKm)} km do abastecimento anterior`,
      });
    previous = r;
    liters += r.liters;
    cost += r.totalCents;
    if (!r.fullTank) continue;
    if (lastFull) {
      const km = r.odometerKm - lastFull.odometerKm;
      if (km > 0 && liters > 0) {
        const interval: ConsumptionInterval = {
          fromId: lastFull.id,
          toId: r.id,
          fromAt: lastFull.at,
          toAt: r.at,
          km,
          liters,
          costCents: cost,
          kmPerLiter: km / liters,
        };
        intervals.push(interval);
        const recent = intervals.slice(-CONSUMPTION_WINDOW).map((i) => i.kmPerLiter);
        if (recent.length >= CONSUMPTION_MIN_INTERVALS) {
          const usual = median(recent);
          if (Math.abs(interval.kmPerLiter - usual) > usual * CONSUMPTION_TOLERANCE)
            flag(r.id, {
              code: 'consumption',
              message: `Consumo de ${n2(interval.kmPerLiter)} km/L desde o último tanque cheio, fora da faixa de ±30% do usual do veículo (${n2(usual)} km/L)`,
            });
        }
      }
    }
    lastFull = r;
    liters = 0;
    cost = 0;
  }
  return { intervals, flags };
}

/** Totals of intervals: km/L over all of them, cost per km in reais. */
export function consumptionTotals(intervals: ConsumptionInterval[]) {
  const km = intervals.reduce((s, i) => s + i.km, 0);
  const liters = intervals.reduce((s, i) => s + i.liters, 0);
  const cost = intervals.reduce((s, i) => s + i.costCents, 0);
  return {
    km,
    liters,
    kmPerLiter: liters > 0 ? km / liters : null,
    costPerKm: km > 0 ? cost / 100 / km : null,
  };
}

// ── What a fuel sensor saw ────────────────────────────────────────────────────────────────

export interface FuelReading {
  at: number;
  /** Litres, or percent of the tank. */
  value: number;
  unit: 'l' | '%';
  /** Stopped: ignition off, or (without ignition) under the parked speed. */
  parked: boolean;
}

export interface DetectedRefuel {
  at: number;
  /** The rise, in the reading's unit. */
  rise: number;
  unit: 'l' | '%';
}

/** A rise this big, while stopped, is a refuel: 10 L, or 5 % of the tank (as FUEL_DROP). */
export const SENSOR_REFUEL_RISE = { l: 10, '%': 5 } as const;
/** An entered refuel matches a rise the sensor saw this close in time. */
export const SENSOR_MATCH_MS = 2 * 3600_000;

/**
 * The refuels a sensor's readings show: while the vehicle stands, a rise of SENSOR_REFUEL_RISE
 * from the lowest reading of the stop. The rise is measured to the highest reading before the
 * level falls again or the stop ends, so a pump that takes a few reports counts once.
 */
export function detectRefuels(readings: FuelReading[]): DetectedRefuel[] {
  const found: DetectedRefuel[] = [];
  let low: FuelReading | undefined;
  let rising: DetectedRefuel | undefined;
  let top = 0;
  for (const r of [...readings].sort((a, b) => a.at - b.at)) {
    if (!r.parked || (low && low.unit !== r.unit)) {
      low = r.parked ? r : undefined;
      rising = undefined;
      continue;
    }
    if (!low) {
      low = r;
      continue;
    }
    if (rising) {
      if (r.value > top) {
        rising.rise += r.value - top;
        top = r.value;
        continue;
      }
      rising = undefined;
      low = r;
      continue;
    }
    if (r.value < low.value) low = r;
    else if (r.value - low.value >= SENSOR_REFUEL_RISE[r.unit]) {
      rising = { at: r.at, rise: r.value - low.value, unit: r.unit };
      top = r.value;
      found.push(rising);
    }
  }
  return found.map((d) => ({ ...d, rise: Math.round(d.rise * 10) / 10 }));
}

export const NO_SENSOR_RISE_MESSAGE =
  'O sensor de combustível não registrou subida do nível em até 2 h deste abastecimento';
