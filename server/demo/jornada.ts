/**
 * The demo drivers' working week: once the week of fixes is written (their tags are read while
 * driving), each driver "marks" each day on the phone: início de jornada before leaving,
 * refeição over the lunch stop, espera for the loading before leaving on some days and fim de jornada
 * after parking. Some days break the law, as real weeks do: a driver who stays late (overtime
 * past 2 h, and too short a rest before the next morning) and a lunch never marked. A manager
 * corrected one period. The report 'Jornada' and the alerts then have something to show.
 */
import { randomUUID } from 'node:crypto';
import { daysOf, reportDay } from '../../src/lib/report-period';
import { type DrivingSpan, LIMITS } from '../jornada/engine';
import { driversTaggedOn } from '../jornada/queries/jornada';
import { drivingOf } from '../jornada/service';
import type { Db } from '../platform/db/client';
import { clients, driverMarks, jornadaCorrections } from '../schema';

const MIN = 60_000;

interface DayPlan {
  day: string;
  spans: DrivingSpan[];
}

function byDay(spans: DrivingSpan[]): DayPlan[] {
  const days = new Map<string, DrivingSpan[]>();
  for (const s of spans) {
    const day = reportDay(s.start);
    days.set(day, [...(days.get(day) ?? []), s]);
  }
  return [...days.entries()].map(([day, list]) => ({ day, spans: list }));
}

/** The longest stop between two driving spans that starts in [from, to) (local ms of day). */
function longestStop(spans: DrivingSpan[], accept: (start: number) => boolean) {
  let best: { start: number; end: number } | null = null;
  for (let i = 0; i + 1 < spans.length; i += 1) {
    const a = spans[i];
    const b = spans[i + 1];
    if (!a || !b || !accept(a.end)) continue;
    if (!best || b.start - a.end > best.end - best.start) best = { start: a.end, end: b.start };
  }
  return best;
}

export async function seedDemoJornada(db: Db, from: Date, end: Date): Promise<number> {
  const everyone = (await db.select({ id: clients.id }).from(clients)).map((c) => c.id);
  const drivers = await driversTaggedOn(db, everyone, daysOf(from, end));
  let written = 0;
  for (const [n, driver] of drivers.entries()) {
    const spans = await drivingOf(db, driver, [driver.clientId], from, end);
    const days = byDay(spans);
    const marks: (typeof driverMarks.$inferInsert)[] = [];
    const mark = (kind: string, at: number) =>
      marks.push({
        id: randomUUID(),
        clientId: driver.clientId,
        driverId: driver.id,
        kind,
        at: new Date(Math.round(at / MIN) * MIN),
        source: 'motorista',
        receivedAt: new Date(at + 2 * MIN),
      });
    for (const [i, { spans: list }] of days.entries()) {
      const first = list[0];
      const last = list.at(-1);
      if (!first || !last) continue;
      // Every other day the day starts waiting 30 min for the truck to be loaded.
      if ((i + n) % 2 === 0) {
        mark('journey_start', first.start - 45 * MIN);
        mark('wait_start', first.start - 40 * MIN);
        mark('wait_end', first.start - 10 * MIN);
      } else mark('journey_start', first.start - 10 * MIN);
      const midday = (t: number) => {
        const hour = new Date(t - 3 * 3600_000).getUTCHours();
        return hour >= 11 && hour < 15;
      };
      // The first driver forgets to mark lunch on the second day.
      const meal = longestStop(list, midday);
      if (meal && meal.end - meal.start >= 45 * MIN && !(n === 0 && i === 1)) {
        mark('meal_start', meal.start);
        mark('meal_end', meal.end);
      }
      // The last driver stays on loading until late on the third day.
      const late = n === drivers.length - 1 && i === 2;
      mark(
        'journey_end',
        late ? last.end + (LIMITS.dayWorkMin / 2) * MIN + 120 * MIN : last.end + 10 * MIN,
      );
    }
    if (marks.length > 0) await db.insert(driverMarks).values(marks).onConflictDoNothing();
    written += marks.length;
    // A manager's correction: the first driver's forgotten lunch, from the stop the tracker saw.
    const forgotten = n === 0 ? days[1] : undefined;
    const stop = forgotten
      ? longestStop(forgotten.spans, (t) => new Date(t - 3 * 3600_000).getUTCHours() >= 11)
      : null;
    if (stop)
      await db.insert(jornadaCorrections).values({
        clientId: driver.clientId,
        driverId: driver.id,
        kind: 'meal',
        startAt: new Date(stop.start + 10 * MIN),
        endAt: new Date(stop.start + 40 * MIN),
        reason: 'Motorista almoçou e esqueceu de marcar (confirmado por telefone)',
      });
  }
  return written;
}
