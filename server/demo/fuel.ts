/**
 * The demo's fuel: two months of refuels of a few vehicles (with one refuel larger than the
 * truck's tank), other expenses, and the fuel sensor of the truck KGM8X67 over the past week
 * (server/demo/history.ts): a refuel the sensor sees on the 5th day before, 45 L stolen in the
 * night of the 3rd, a refuel seen on the 2nd, and a refuel entered yesterday that never
 * reached the tank (the sensor stays flat), which the refuels list flags.
 */
import { dayStart, reportDay } from '../../src/lib/report-period';

export const SENSOR_TRUCK = 'KGM8X67';

/** Capacity of the tanks of the demo's vehicles with refuels (litres). */
export const DEMO_TANKS: Record<string, number> = {
  PCX1A23: 44,
  KGH1L23: 275,
  KGH4M56: 275,
  KGJ5Q67: 300,
  [SENSOR_TRUCK]: 300,
};

const HOUR = 3600_000;
/** The instant of hh:mm São Paulo time `daysBack` days before the São Paulo day of `end`. */
function spAt(end: number, daysBack: number, h: number, m = 0) {
  const day = reportDay(dayStart(reportDay(end)).getTime() - daysBack * 24 * HOUR + 12 * HOUR);
  return dayStart(day).getTime() + (h * 60 + m) * 60_000;
}

/** The truck's sensor: its level at the start of the week and what changed it when. */
export function sensorEvents(historyEnd: number) {
  return {
    start: 180,
    events: [
      { at: spAt(historyEnd, 5, 9), delta: 110 },
      { at: spAt(historyEnd, 3, 2), delta: -45 },
      { at: spAt(historyEnd, 2, 10), delta: 50 },
    ],
  };
}

/** The litres the truck's sensor reads at `at` (a little sloshing, as a real sensor). */
export function sensorLitres(historyEnd: number, at: number): number {
  const { start, events } = sensorEvents(historyEnd);
  const level = events.reduce((l, e) => (e.at <= at ? l + e.delta : l), start);
  const slosh = ((Math.floor(at / 900_000) % 3) - 1) * 0.4;
  return Math.round((level + slosh) * 10) / 10;
}

export interface DemoRefuel {
  plate: string;
  at: Date;
  liters: number;
  priceMilli: number;
  odometerKm: number;
  fullTank: boolean;
  station: string;
  notes?: string;
}

const STATIONS = [
  'Posto Ipiranga BR-101 Sul',
  'Posto Shell Imbiribeira',
  'Posto BR Cais do Apolo',
  'Posto Petrobras Abreu e Lima',
];

interface Profile {
  plate: string;
  kmPerDay: number;
  kmPerLiter: number;
  odometer: number;
  /** Gasoline or diesel S10, R$ per litre in thousandths. */
  price: number;
}

const PROFILES: Profile[] = [
  { plate: 'PCX1A23', kmPerDay: 70, kmPerLiter: 11.5, odometer: 38_200, price: 6290 },
  { plate: 'KGH1L23', kmPerDay: 260, kmPerLiter: 3.6, odometer: 212_400, price: 6190 },
  { plate: 'KGH4M56', kmPerDay: 240, kmPerLiter: 3.8, odometer: 187_900, price: 6190 },
  { plate: 'KGJ5Q67', kmPerDay: 200, kmPerLiter: 3.1, odometer: 98_300, price: 6190 },
  { plate: SENSOR_TRUCK, kmPerDay: 150, kmPerLiter: 4.2, odometer: 143_700, price: 6190 },
];

/** A small deterministic wobble in [-1, 1) for a vehicle and a day. */
const wobble = (plate: string, i: number) => {
  let hash = i * 7919;
  for (const ch of plate) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return ((hash % 2000) - 1000) / 1000;
};

/**
 * Sixty days of refuels: each vehicle drives its km a day (workdays only) at about its km/L,
 * and is filled up when under a third of the tank, every fourth time only partly (as when a
 * driver puts in just what the trip needs). KGH4M56 has one refuel larger than its tank.
 */
export function demoRefuels(historyEnd: number): DemoRefuel[] {
  const out: DemoRefuel[] = [];
  for (const p of PROFILES) {
    const tank = DEMO_TANKS[p.plate] ?? 100;
    let level = tank;
    let odometer = p.odometer;
    let count = 0;
    // The sensor truck's last week is its sensor's (below).
    const lastDay = p.plate === SENSOR_TRUCK ? 7 : 1;
    for (let back = 60; back >= lastDay; back -= 1) {
      const weekday = new Date(spAt(historyEnd, back, 12)).getUTCDay();
      if (weekday === 0) continue;
      const km = Math.round(
        p.kmPerDay * (weekday === 6 ? 0.4 : 1) * (1 + 0.15 * wobble(p.plate, back)),
      );
      odometer += km;
      level -= km / (p.kmPerLiter * (1 + 0.04 * wobble(`${p.plate}c`, back)));
      const lastBefore = p.plate === SENSOR_TRUCK && back <= 9;
      if (level > tank / 3 && !lastBefore) continue;
      count += 1;
      const partial = count % 4 === 0 && !lastBefore;
      const liters = Math.round((partial ? tank * 0.35 : tank - Math.max(level, 0)) * 100) / 100;
      level = partial ? level + liters : tank;
      out.push({
        plate: p.plate,
        at: new Date(
          spAt(historyEnd, back, 17, 10 + Math.round(20 * (1 + wobble(p.plate, -back)))),
        ),
        liters,
        priceMilli: p.price + Math.round(60 * wobble(`${p.plate}p`, back)),
        odometerKm: odometer,
        fullTank: !partial,
        station: STATIONS[count % STATIONS.length] ?? 'Posto',
      });
      if (lastBefore) break;
    }
  }
  // The outlier: 310 L charged to a 275 L truck (the card used for another vehicle).
  const outlier = out.filter((r) => r.plate === 'KGH4M56').at(-4);
  if (outlier) {
    outlier.liters = 310;
    outlier.fullTank = false;
    outlier.notes = 'Cupom conferido pelo gestor?';
  }
  // The sensor truck's week: two refuels the sensor saw, and one it never saw.
  const truck = out.filter((r) => r.plate === SENSOR_TRUCK).at(-1);
  const base = truck?.odometerKm ?? 150_000;
  const { events } = sensorEvents(historyEnd);
  const [first, , second] = events;
  if (first && second)
    out.push(
      {
        plate: SENSOR_TRUCK,
        at: new Date(first.at + 10 * 60_000),
        liters: 110,
        priceMilli: 6170,
        odometerKm: base + 420,
        fullTank: true,
        station: STATIONS[2] ?? 'Posto',
      },
      {
        plate: SENSOR_TRUCK,
        at: new Date(second.at + 5 * 60_000),
        liters: 50.4,
        priceMilli: 6190,
        odometerKm: base + 630,
        fullTank: true,
        station: STATIONS[0] ?? 'Posto',
      },
      {
        plate: SENSOR_TRUCK,
        at: new Date(spAt(historyEnd, 1, 15)),
        liters: 80,
        priceMilli: 6210,
        odometerKm: base + 640,
        fullTank: false,
        station: STATIONS[3] ?? 'Posto',
      },
    );
  return out;
}

export interface DemoExpense {
  plate: string;
  date: string;
  category: 'toll' | 'fine' | 'washing' | 'parking' | 'tyres' | 'insurance' | 'other';
  amountCents: number;
  description: string;
}

/** Tolls every week, washing twice a month, a fine, a parking and new tyres. */
export function demoExpenses(now: Date): DemoExpense[] {
  const day = (back: number) => reportDay(now.getTime() - back * 24 * HOUR);
  const out: DemoExpense[] = [];
  for (const plate of ['KGH1L23', 'KGH4M56', 'KGJ5Q67']) {
    for (let back = 3; back <= 60; back += 7)
      out.push({
        plate,
        date: day(back),
        category: 'toll',
        amountCents: 4_860,
        description: 'Pedágio BR-232 (ida e volta)',
      });
    for (let back = 10; back <= 60; back += 15)
      out.push({
        plate,
        date: day(back),
        category: 'washing',
        amountCents: 12_000,
        description: 'Lavagem completa',
      });
  }
  out.push(
    {
      plate: 'KGH1L23',
      date: day(22),
      category: 'fine',
      amountCents: 19_523,
      description: 'Excesso de velocidade até 20% (Av. Recife)',
    },
    {
      plate: 'PCX1A23',
      date: day(5),
      category: 'parking',
      amountCents: 2_500,
      description: 'Estacionamento aeroporto',
    },
    {
      plate: 'KGJ5Q67',
      date: day(18),
      category: 'tyres',
      amountCents: 385_000,
      description: 'Dois pneus 275/80 R22.5',
    },
  );
  return out;
}
